/**
 * `--shard I/N` and `mcpeval merge`: the hash is stable and documented, a 12-server fleet
 * as 3 shards and merged gives the unsharded report, and reports that cannot be parts of one run
 * are refused with one line (exit 2).
 */
import assert from "node:assert/strict";
import { run } from "../src/cli/run.ts";
import { fnv1a32, inShard, parseShard, shardOfLabel } from "../src/request/shard.ts";
import { mergeFleetReports } from "../src/report/fleet/merge.ts";
import { FleetReportSchema, validateFleetReport } from "../src/report/fleet/schema.ts";
import { splitArrayField } from "../src/report/fleet/split.ts";
import type { FleetReport } from "../src/report/fleet/types.ts";
import {
  assertValidFleet,
  configFile,
  entry,
  fixture,
  mcpeval,
  withoutPlainProgress,
} from "./_cli.ts";
import { testContext } from "./_context.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

/**
 * Deno 2.9.6 turns the op and resource sanitizers off by default: the tests that run the CLI
 * turn them on, so a run that leaves a process pipe, a file or a timer open fails its test.
 */
const SANITIZED = { sanitizeOps: true, sanitizeResources: true } as const;

const NAMES = Array.from({ length: 12 }, (_, i) => `notes-${String(i + 1).padStart(2, "0")}`);

Deno.test("shard: FNV-1a 32-bit of the UTF-8 label, modulo N, plus one", () => {
  // The published FNV-1a test vectors.
  assert.equal(fnv1a32(""), 0x811c9dc5);
  assert.equal(fnv1a32("a"), 0xe40c292c);
  assert.equal(fnv1a32("foobar"), 0xbf9cf968);
  assert.equal(shardOfLabel("foobar", 7), (0xbf9cf968 % 7) + 1);
  assert.deepEqual(NAMES.map((name) => shardOfLabel(name, 3)), [
    2,
    1,
    2,
    3,
    1,
    2,
    3,
    1,
    2,
    2,
    1,
    3,
  ]);
});

Deno.test("shard: adding a server moves no other, and the shards partition the servers", () => {
  const before = NAMES.map((name) => ({ name }));
  const after = [...before.slice(0, 5), { name: "added" }, ...before.slice(5)];
  for (const count of [1, 2, 3, 7, 256]) {
    const parts = Array.from({ length: count }, (_, i) => inShard(before, { index: i + 1, count }));
    assert.deepEqual(parts.flat().map((e) => e.name).sort(), [...NAMES].sort());
    for (const [i, part] of parts.entries()) {
      const grown = inShard(after, { index: i + 1, count }).filter((e) => e.name !== "added");
      assert.deepEqual(grown, part);
    }
  }
  assert.deepEqual(inShard(before, undefined), before);
});

Deno.test("shard: I/N with 1 <= I <= N <= 256, anything else is not a shard", () => {
  assert.deepEqual(parseShard("1/1"), { index: 1, count: 1 });
  assert.deepEqual(parseShard("256/256"), { index: 256, count: 256 });
  for (
    const bad of ["0/3", "4/3", "1/257", "1/0", "01/3", "1/3/", "a/b", "1", "", " 1/3", "-1/3"]
  ) {
    assert.equal(parseShard(bad), undefined, bad);
  }
});

Deno.test("--shard: a bad value, or --shard without --config, exits 2 with one line", async () => {
  for (const value of ["0/3", "4/3", "1/300", "x"]) {
    const ctx = testContext({ readTextFile: () => Promise.resolve('{"mcpServers": {}}') });
    assert.equal(await run(["guidance", "--config", "c.json", "--shard", value], ctx), 2);
    assert.equal(
      ctx.err(),
      "mcpeval: --shard must be I/N: two whole numbers with 1 <= I <= N <= 256, for example 2/4\n",
    );
    assert.deepEqual(ctx.opened, []);
  }
  const ctx = testContext();
  assert.equal(await run(["guidance", "--server", "s", "--shard", "1/2", "--", "x"], ctx), 2);
  assert.equal(ctx.err(), "mcpeval: --shard applies only with --config\n");
});

/** The reports of one real 12-server run: unsharded, and as 3 shards (each written once). */
interface Runs {
  readonly whole: { code: number; text: string };
  readonly shards: { code: number; text: string }[];
}

let runs: Promise<Runs> | undefined;

/** Runs the 12-server config once unsharded and once per shard (the first test to ask does). */
function twelveServers(): Promise<Runs> {
  runs ??= (async () => {
    const servers: Record<string, unknown> = {};
    for (const name of NAMES) servers[name] = entry(fixture("demo/server.ts"));
    servers["off"] = { command: "nothing", disabled: true };
    // Not checked, with the names of its unset variables, which the merge keeps.
    servers["unset"] = { command: "nothing", env: { TOKEN: "${MCPEVAL_TEST_UNSET_TOKEN}" } };
    await using config = await configFile({ mcpServers: servers });
    const args = [
      "guidance",
      "--config",
      config.path,
      "--format",
      "json",
      "--profile",
      "none",
      "--profile",
      "roots",
      "--settle-ms",
      "50",
      "--require-tool",
      "notes-04:list-workspace-files",
      "--require-tool",
      "notes-09:search-notes",
    ];
    const options = {
      permissions: [
        `--allow-read=${config.path}`,
        `--allow-run=${Deno.execPath()}`,
        "--allow-env=MCPEVAL_TEST_UNSET_TOKEN",
      ],
    };
    const once = async (extra: string[]) => {
      const result = await mcpeval([...args, ...extra], options);
      assert.equal(withoutPlainProgress(result.stderr), "");
      return { code: result.code, text: result.stdout };
    };
    const whole = await once([]);
    const shards = [];
    for (const index of [1, 2, 3]) shards.push(await once(["--shard", `${index}/3`]));
    return { whole, shards };
  })();
  return runs;
}

/** What must survive a merge: per server its catalogs, findings, complete and passed. */
function essence(fleet: FleetReport) {
  return {
    servers: Object.fromEntries(
      fleet.servers.map((server) => [
        server.name,
        server.checked
          ? {
            profiles: server.report.profiles.map((p) => [p.profile, p.complete, p.tools]),
            candidates: server.report.candidates,
            defects: server.report.defects,
            complete: server.report.complete,
            passed: server.report.passed,
          }
          : { reason: server.reason },
      ]),
    ),
    complete: fleet.complete,
    passed: fleet.passed,
    config_format: fleet.config_format,
  };
}

Deno.test({
  name: "merge: 3 shards of a 12-server config give the unsharded report, in every format",
  ...SANITIZED,
  fn: async () => {
    const { whole, shards } = await twelveServers();
    const fleets = shards.map((shard) => JSON.parse(shard.text) as FleetReport);
    const unsharded = JSON.parse(whole.text) as FleetReport;
    assert.equal(whole.code, 3, "a defect and a disabled entry: 3 (not checked) wins");
    assert.equal(unsharded.complete, false);
    assert.equal(unsharded.servers.filter((s) => s.checked && !s.report.passed).length, 1);
    assert.equal(unsharded.shard, undefined);
    for (const [i, fleet] of fleets.entries()) {
      await assertValidFleet(fleet);
      assert.deepEqual(fleet.shard, { index: i + 1, count: 3 });
      assert.ok(fleet.servers.length > 0);
    }
    assert.deepEqual(
      fleets.flatMap((f) => f.servers.map((s) => s.name)).sort(),
      unsharded.servers.map((s) => s.name).sort(),
    );

    // Through the CLI, shard 2 from standard input and the files in another order.
    await using one = await configFile(shards[0].text);
    await using three = await configFile(shards[2].text);
    const merged = await mcpeval(["merge", three.path, "-", one.path, "--format", "json"], {
      permissions: [`--allow-read=${one.path},${three.path}`],
      stdin: shards[1].text,
    });
    assert.equal(merged.stderr, "");
    assert.equal(merged.code, whole.code);
    const fleet = JSON.parse(merged.stdout) as FleetReport;
    await assertValidFleet(fleet);
    assert.equal(fleet.shard, undefined, "the merged report is the whole run");
    assert.deepEqual(essence(fleet), essence(unsharded));
    assert.deepEqual(
      fleet.servers.map((s) => s.name),
      fleets.flatMap((f) => f.servers.map((s) => s.name)),
    );
    // Timings aside, each server's report is the same document.
    const byName = new Map(unsharded.servers.map((s) => [s.name, s]));
    for (const server of fleet.servers) assert.deepEqual(server, byName.get(server.name));
    assert.deepEqual(
      fleet.servers.find((server) => server.name === "unset"),
      {
        name: "unset",
        checked: false,
        reason: "unset-variable",
        hint: (byName.get("unset") as { hint: string }).hint,
        variables: ["MCPEVAL_TEST_UNSET_TOKEN"],
      },
    );

    // Every format renders from the merged report, through the fleet renderers.
    const ctx = testContext({
      readTextFile: (path) => Promise.resolve(shards[Number(path) - 1].text),
    });
    for (const format of FORMATS.filter((id) => id !== "json")) {
      const code = await run(["merge", "1", "2", "3", "--format", format], ctx);
      assert.equal(code, 3, ctx.err());
    }
    assert.equal(ctx.err(), "");
    for (const name of NAMES) assert.ok(ctx.out().includes(name), name);
  },
});

/** An in-process context that reads the named texts by path. */
function filesContext(texts: Record<string, string>) {
  return testContext({
    readTextFile: (path) =>
      path in texts
        ? Promise.resolve(texts[path])
        : Promise.reject(new Deno.errors.NotFound("no such file")),
  });
}

/** Runs `merge` over `texts` (named by their keys) and returns the exit code and stderr. */
async function mergeError(texts: Record<string, string>, order = Object.keys(texts)) {
  const ctx = filesContext(texts);
  const code = await run(["merge", ...order, "--format", "json"], ctx);
  assert.equal(ctx.out(), "", "no report when the reports cannot be merged");
  assert.match(ctx.err(), /^mcpeval: [^\n]+\n$/, "one line");
  return { code, err: ctx.err() };
}

/** A report's JSON changed by `change`. */
function edited(text: string, change: (fleet: FleetReport) => void): string {
  const fleet = JSON.parse(text) as FleetReport;
  change(fleet);
  return JSON.stringify(fleet);
}

Deno.test({
  name: "merge: overlapping, incomplete and mismatched reports exit 2 with one line each",
  ...SANITIZED,
  fn: async () => {
    const { whole, shards } = await twelveServers();
    const [s1, s2, s3] = shards.map((shard) => shard.text);
    const cases: [string, Record<string, string>, string][] = [
      ["a shard twice", { a: s1, b: s2, c: s3, d: s1 }, "FILE 1 and FILE 4 both list server"],
      [
        "a shard missing",
        { a: s1, b: s3 },
        "mcpeval: shard 2 of 3 is missing: merge takes every shard of the run\n",
      ],
      [
        "whole runs overlap",
        { a: whole.text, b: whole.text },
        "FILE 1 and FILE 2 both list server",
      ],
      [
        "a shard and a whole run",
        { a: s1, b: whole.text },
        "FILE 2 is not a shard (--shard) and FILE 1 is: merge all shards of one run, or whole runs",
      ],
      [
        "another config format",
        { a: s1, b: edited(s2, (f) => void (f.config_format = "servers")), c: s3 },
        "FILE 2 is of another config format than FILE 1",
      ],
      [
        "other settings",
        {
          a: s1,
          b: s2,
          c: edited(s3, (f) => {
            for (const s of f.servers) if (s.checked) s.report.settings.settle_ms = 51;
          }),
        },
        "FILE 3 was run with other settings",
      ],
      [
        "another version",
        { a: s1, b: edited(s2, (f) => void (f.mcpeval_version = "0.0.1")), c: s3 },
        "FILE 2 was written by another version of mcpeval than FILE 1",
      ],
      [
        "an empty shard twice",
        {
          a: s1,
          b: s2,
          c: s3,
          d: edited(s2, (f) => Object.assign(f, { servers: [], complete: true, passed: true })),
        },
        "FILE 2 and FILE 4 are both shard 2: merge takes each shard once",
      ],
      [
        "a server outside its shard",
        { a: edited(s1, (f) => void (f.shard = { index: 2, count: 3 })), b: s2 },
        "FILE 1 says it is shard 2 of 3, but server",
      ],
      [
        "a guidance report",
        { a: JSON.stringify(JSON.parse(s1).servers[0].report) },
        "FILE 1 is not a mcpeval.guidance-fleet/v1 report",
      ],
      ["not JSON", { a: "{" }, "FILE 1 is not valid JSON"],
      ["a missing file", {}, "Cannot read FILE 1 (it does not exist)"],
    ];
    for (const [name, texts, expected] of cases) {
      const { code, err } = await mergeError(
        texts,
        Object.keys(texts).length ? undefined : ["nope"],
      );
      assert.equal(code, 2, `${name}: ${err}`);
      assert.ok(err.includes(expected), `${name}: ${err}`);
    }
  },
});

Deno.test({
  name: "merge (pure): profiles, clients and shard counts must agree",
  ...SANITIZED,
  fn: async () => {
    const { shards } = await twelveServers();
    const [s1, s2, s3] = shards.map((shard) => JSON.parse(shard.text) as FleetReport);
    assert.ok(mergeFleetReports([s1, s2, s3]).ok);
    const otherProfiles = structuredClone(s2);
    for (const server of otherProfiles.servers) {
      if (server.checked) server.report.profiles = server.report.profiles.slice(0, 1);
    }
    assert.deepEqual(mergeFleetReports([s1, otherProfiles, s3]), {
      ok: false,
      problem: { kind: "profiles", at: 1 },
    });
    const otherClients = structuredClone(s3);
    for (const server of otherClients.servers) {
      if (!server.checked) continue;
      server.report.profiles[0].client = {
        name: "x",
        client_info: { name: "x", version: "1" },
        instructions_shown: null,
      };
    }
    assert.deepEqual(mergeFleetReports([s1, s2, otherClients]), {
      ok: false,
      problem: { kind: "clients", at: 2 },
    });
    const fourShards = structuredClone(s2);
    fourShards.shard = { index: 2, count: 4 };
    assert.deepEqual(mergeFleetReports([s1, fourShards]), {
      ok: false,
      problem: { kind: "shard-count", at: 1 },
    });
  },
});

Deno.test({
  name:
    "merge: each report is folded in before the next is opened (a refusal at FILE 2 never waits on FILE 3)",
  ...SANITIZED,
  fn: async () => {
    const { shards } = await twelveServers();
    await using one = await configFile(shards[0].text);
    // FILE 3 is standard input, held open and never written: reading it would wait 10 s.
    const result = await mcpeval(["merge", one.path, one.path, "-", "--format", "json"], {
      permissions: [`--allow-read=${one.path}`],
      stdin: { open: true },
      boundMs: 60_000,
    });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^mcpeval: FILE 1 and FILE 2 both list server [a-z0-9-]+: merge takes reports of disjoint servers\n$/,
    );
  },
});

Deno.test("merge: usage mistakes exit 2; help merge prints the command's help", async () => {
  const mistakes: [string[], string][] = [
    [[], "mcpeval: merge needs the fleet reports to merge: mcpeval merge FILE...\n"],
    [["-", "-"], "mcpeval: merge reads standard input (-) only once\n"],
    [
      ["a", "--fromat", "json"],
      "mcpeval: Unknown option '--fromat' for merge; did you mean --format?\n",
    ],
    [
      ["a", "--format", "yaml"],
      `mcpeval: --format must be one of: ${FORMATS.join(", ")}\n`,
    ],
  ];
  for (const [argv, expected] of mistakes) {
    const ctx = testContext();
    assert.equal(await run(["merge", ...argv], ctx), 2);
    assert.equal(ctx.err(), expected);
  }
  const denied = testContext({ permission: () => Promise.resolve("denied") });
  assert.equal(await run(["merge", "shard-1.json", "--output", "sarif=out.sarif"], denied), 2);
  assert.equal(
    denied.err(),
    "mcpeval: Permission to read the reports to merge and write a report file is missing: add --allow-read=shard-1.json --allow-write=out.sarif\n",
  );
  for (const argv of [["help", "merge"], ["merge", "--help"]]) {
    const ctx = testContext();
    assert.equal(await run(argv, ctx), 0);
    assert.match(ctx.out(), /^mcpeval merge: /);
    assert.ok(ctx.out().includes("mcpeval merge FILE..."));
  }
});

Deno.test({
  name: "merge: a report validated an entry at a time agrees with the whole fleet schema",
  fn: async () => {
    const { shards } = await twelveServers();
    const text = shards[0].text;
    const changes: ((fleet: Record<string, unknown>) => void)[] = [
      () => {},
      (fleet) => (fleet.schema = "other"),
      (fleet) => (fleet.complete = !fleet.complete),
      (fleet) => (fleet.passed = "yes"),
      (fleet) => (fleet.extra = 1),
      (fleet) => (fleet.servers = {}),
      (fleet) => delete fleet.servers,
      (fleet) => (fleet.shard = { index: 3, count: 2 }),
      (fleet) => {
        const servers = fleet.servers as Record<string, unknown>[];
        servers.push(servers[0]);
      },
      (fleet) => ((fleet.servers as Record<string, unknown>[])[1].name = "bad name"),
      (fleet) => {
        const server = (fleet.servers as { report?: Record<string, unknown> }[])
          .find((entry) => entry.report)!;
        server.report!.server = "another";
      },
      (fleet) => {
        const server = (fleet.servers as { report?: Record<string, unknown> }[])
          .find((entry) => entry.report)!;
        server.report!.profiles = 1;
        fleet.complete = "no";
      },
    ];
    for (const [at, change] of changes.entries()) {
      const value = JSON.parse(text);
      change(value);
      const whole = FleetReportSchema.safeParse(value);
      // Validated as parsed, and from its text split into the envelope and each entry's text.
      const split = splitArrayField(JSON.stringify(value, null, at % 2 ? 2 : undefined), "servers");
      const entries = split &&
        Array.from({ length: split.count }, (_, k) => JSON.parse(split.entry(k)));
      const outcomes = [
        validateFleetReport(value),
        ...(split ? [validateFleetReport(JSON.parse(split.envelope), entries)] : []),
      ];
      assert.equal(outcomes.length, Array.isArray(value.servers) ? 2 : 1, `change ${at}`);
      for (const piecewise of outcomes) {
        assert.equal(piecewise.success, whole.success, `change ${at}`);
        if (!piecewise.success && !whole.success) {
          assert.deepEqual(
            piecewise.error.issues[0].path,
            whole.error.issues[0].path,
            `change ${at}`,
          );
        }
      }
      if (outcomes[0].success) assert.equal(outcomes[0].data, value, "the value itself, no copy");
    }
    assert.equal(validateFleetReport(null).success, false);
    assert.equal(validateFleetReport([]).success, false);
  },
});

Deno.test("merge: a report's text splits into its envelope and entries, or is parsed whole", () => {
  const parts = (text: string) => {
    const split = splitArrayField(text, "servers");
    return split &&
      [split.envelope, ...Array.from({ length: split.count }, (_, k) => split.entry(k).trim())];
  };
  assert.deepEqual(parts('{"a":1,"servers":[{"n":"],["},[2]],"b":[3]}'), [
    '{"a":1,"servers":[],"b":[3]}',
    '{"n":"],["}',
    "[2]",
  ]);
  assert.deepEqual(parts(' {"servers" : [ ] } '), [' {"servers" : [] } ']);
  assert.deepEqual(parts('{"a":{"servers":[1]},"servers":[2]}'), [
    '{"a":{"servers":[1]},"servers":[]}',
    "2",
  ]);
  // A trailing comma leaves a blank entry, which does not parse: the text is not valid JSON.
  assert.deepEqual(parts('{"servers":[1,]}'), ['{"servers":[]}', "1", ""]);
  // Not laid out plainly: parsed whole.
  for (
    const text of [
      "[1]",
      '{"servers":{"a":[1]}}',
      '{"servers":[1],"servers":[2]}',
      '{"serv\\u0065rs":[1],"servers":[2]}',
      '{"servers":[1}',
      '{"servers":[1]',
      '{"servers":"[1]"}',
    ]
  ) {
    assert.equal(splitArrayField(text, "servers"), undefined, text);
  }
});

Deno.test("merge: a report split into entries is refused for JSON that is not valid", async () => {
  const { shards } = await twelveServers();
  const text = shards[0].text;
  const broken = text.replace(/\]\s*,\s*"complete"/, ',]\n,"complete"');
  assert.notEqual(broken, text);
  const { code, err } = await mergeError({ "1": broken });
  assert.equal(code, 2);
  assert.match(err, /FILE 1 is not valid JSON/);
});

Deno.test("merge: a report whose text does not split plainly is parsed whole, with the same merge", async () => {
  const { shards } = await twelveServers();
  const texts = shards.map((shard) => shard.text);
  const escaped = texts[0].replace('"servers":', '"\\u0073ervers":');
  assert.notEqual(escaped, texts[0]);
  assert.equal(splitArrayField(escaped, "servers"), undefined);
  const merge = async (first: string) => {
    const ctx = filesContext({ "1": first, "2": texts[1], "3": texts[2] });
    const code = await run(["merge", "1", "2", "3", "--format", "json"], ctx);
    assert.equal(ctx.err(), "");
    return { code, out: ctx.out() };
  };
  assert.deepEqual(await merge(escaped), await merge(texts[0]));
});
