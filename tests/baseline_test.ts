/**
 * `--baseline FILE` and `--require-baseline-tools` through the real CLI: every baseline is
 * written by the CLI itself (`--output json=PATH` in a temporary folder), and later "releases" of
 * the demo server are the same server with flags (fixtures/demo/server.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { FileTooLargeError } from "../src/cli/errors.ts";
import { run } from "../src/cli/run.ts";
import { readTextFile } from "../src/run/files.ts";
import {
  DENO,
  fixture,
  fixtureLog,
  guidanceJson,
  hostile,
  mcpeval,
  type Report,
  ROOT,
  tempDir,
  withoutPlainProgress,
} from "./_cli.ts";
import { testContext } from "./_context.ts";
import { assertGithubSarif } from "./_sarif.ts";

/** A later release of the demo server: `delete-note` is no longer listed with sampling. */
const WITHOUT_DELETE_IN_ALL = ["--hidden-with", "delete-note=sampling"];
/** A later release: `summarize-notes` is listed for every client. */
const SUMMARIZE_ALWAYS = ["--always", "summarize-notes"];

const demo = (...release: string[]) => [
  "--server",
  "demo",
  "--settle-ms",
  "100",
  "--",
  ...fixture("demo/server.ts", ...release),
];

/** Runs the demo server (first release) and writes its JSON report to `dir/name`. */
async function writeBaseline(dir: string, args = demo(), name = "baseline.json"): Promise<string> {
  const path = join(dir, name);
  const result = await mcpeval(["guidance", "--output", `json=${path}`, ...args], {
    permissions: [`--allow-run=${DENO}`, `--allow-write=${path}`],
  });
  assert.ok(result.code === 0 || result.code === 3, result.stderr);
  return path;
}

const reading = (path: string) => ({
  permissions: [`--allow-run=${DENO}`, `--allow-read=${path}`],
});

/** The demo server's review candidates, in report order: [profile, tool]. */
const DEMO_CANDIDATES = [
  ["none", "delete-note"],
  ["none", "list-workspace-files"],
  ["none", "summarize-notes"],
  ["roots", "delete-note"],
  ["roots", "summarize-notes"],
  ["sampling", "delete-note"],
  ["sampling", "list-workspace-files"],
  ["elicitation", "list-workspace-files"],
  ["elicitation", "summarize-notes"],
];

const states = (report: Report) =>
  report.candidates.map((c) => [c.profile, c.tool, c.baseline_state]);
const noDrift = (...profiles: string[]) =>
  profiles.map((profile) => ({ profile, compared: true, added: [], removed: [] }));
const ALL = ["none", "roots", "sampling", "elicitation", "all"];

Deno.test("baseline, no drift: every profile compared, every candidate unchanged, exit 0", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const { code, report } = await guidanceJson(
    ["--baseline", baseline, "--require-baseline-tools", ...demo()],
    reading(baseline),
  );
  assert.equal(code, 0);
  assert.deepEqual(report.baseline, {
    require_baseline_tools: true,
    profiles: noDrift(...ALL),
    resolved: [],
  });
  assert.deepEqual(states(report), DEMO_CANDIDATES.map((c) => [...c, "unchanged"]));
  assert.deepEqual(report.defects, []);
  assert.equal(report.passed, true);

  const github = await mcpeval(
    ["guidance", "--format", "github", "--baseline", baseline, ...demo()],
    reading(baseline),
  );
  assert.equal(github.code, 0);
  assert.deepEqual(github.stdout.trimEnd().split("\n"), [
    "::notice title=mcpeval guidance (demo)::Result: passed: no required tools declared; 9 review candidates (0 new; never fail the gate)",
  ], "acknowledged candidates are not announced again");
});

Deno.test("baseline, a tool removed from one profile only: drift and a new candidate, exit 0", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const { code, report } = await guidanceJson(
    ["--baseline", baseline, ...demo(...WITHOUT_DELETE_IN_ALL)],
    reading(baseline),
  );
  assert.equal(code, 0, "drift alone never fails");
  assert.deepEqual(report.baseline?.profiles, [
    ...noDrift("none", "roots", "sampling", "elicitation"),
    { profile: "all", compared: true, added: [], removed: ["delete-note"] },
  ]);
  assert.deepEqual(states(report), [
    ...DEMO_CANDIDATES.map((c) => [...c, "unchanged"]),
    ["all", "delete-note", "new"],
  ]);
  assert.deepEqual(report.defects, []);
  assert.equal(report.passed, true);
});

Deno.test("--require-baseline-tools: a tool removed from one profile is a defect there, exit 1", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const args = [
    "--baseline",
    baseline,
    "--require-baseline-tools",
    ...demo(...WITHOUT_DELETE_IN_ALL),
  ];
  const { code, report } = await guidanceJson(args, reading(baseline));
  assert.equal(code, 1);
  assert.deepEqual(report.defects, [{
    kind: "baseline-tool-unavailable",
    profile: "all",
    tool: "delete-note",
    available_in: ["elicitation"],
    hint:
      "A tool that this profile's catalog listed in the baseline is missing now; restore it, or refresh the baseline if the removal is intended.",
    baseline_state: "new",
  }]);
  assert.equal(report.passed, false);

  const text = await mcpeval(["guidance", ...args], reading(baseline));
  assert.equal(text.code, 1);
  assert.match(
    text.stdout,
    /\nBaseline: catalog drift \(every baseline tool is required\)\n {2}none: no change\n(.*\n){3} {2}all: removed delete-note\n/,
  );
  // Lines are wrapped to 100 columns: compare the words.
  const words = text.stdout.replace(/\s+/g, " ");
  assert.ok(
    words.includes(
      " Baseline tools missing (1) defect all: baseline tool delete-note is no longer listed; available in elicitation (new since the baseline) ",
    ),
    text.stdout,
  );
  assert.ok(
    words.includes(
      " delete-note named by none, roots, sampling, all; listed in elicitation; new since the baseline in all ",
    ),
    text.stdout,
  );
  assert.ok(
    words.endsWith(
      " Result: failed: 1 baseline-tool defect; 10 review candidates (1 new; never fail the gate) (exit 1) ",
    ),
    text.stdout,
  );
});

Deno.test("baseline, a tool added to every profile: drift, never a defect", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const { code, report } = await guidanceJson(
    ["--baseline", baseline, "--require-baseline-tools", ...demo("--also", "export-notes")],
    reading(baseline),
  );
  assert.equal(code, 0);
  assert.deepEqual(
    report.baseline?.profiles,
    ALL.map((profile) => ({ profile, compared: true, added: ["export-notes"], removed: [] })),
  );
  assert.deepEqual(report.defects, []);
  assert.deepEqual(states(report), DEMO_CANDIDATES.map((c) => [...c, "unchanged"]));
});

Deno.test("baseline: acknowledged, new and resolved candidates in JSON, text, GitHub, JUnit and SARIF", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const [json, text, sarif, junit, summary] = ["r.json", "r.txt", "r.sarif", "r.xml", "r.md"]
    .map((name) => join(dir.path, name));
  const result = await mcpeval([
    "guidance",
    "--format",
    "github",
    "--baseline",
    baseline,
    ...["--output", `json=${json}`, "--output", `text=${text}`],
    ...["--output", `sarif=${sarif}`, "--output", `junit=${junit}`],
    ...demo(...SUMMARIZE_ALWAYS, ...WITHOUT_DELETE_IN_ALL),
  ], {
    permissions: [
      `--allow-run=${DENO}`,
      `--allow-read=${baseline}`,
      `--allow-write=${dir.path}`,
      "--allow-env=GITHUB_STEP_SUMMARY",
    ],
    env: { GITHUB_STEP_SUMMARY: summary },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(withoutPlainProgress(result.stderr), "");

  const report: Report = JSON.parse(await Deno.readTextFile(json));
  const unchanged = DEMO_CANDIDATES.filter(([, tool]) => tool !== "summarize-notes");
  assert.deepEqual(states(report), [
    ...unchanged.map((c) => [...c, "unchanged"]),
    ["all", "delete-note", "new"],
  ]);
  const resolved = ["none", "roots", "elicitation"];
  assert.deepEqual(
    report.baseline?.resolved.map((f) => [f.kind, f.profile, f.tool, f.available_in]),
    resolved.map((p) => ["referenced-tool-unavailable", p, "summarize-notes", ["sampling", "all"]]),
  );
  assert.deepEqual(report.baseline?.profiles, [
    { profile: "none", compared: true, added: ["summarize-notes"], removed: [] },
    { profile: "roots", compared: true, added: ["summarize-notes"], removed: [] },
    ...noDrift("sampling"),
    { profile: "elicitation", compared: true, added: ["summarize-notes"], removed: [] },
    { profile: "all", compared: true, added: [], removed: ["delete-note"] },
  ]);

  // GitHub: a notice per changed catalog, a warning for the new candidate only.
  const kinds = result.stdout.trimEnd().split("\n").map((line) =>
    line.slice(2, line.indexOf("::", 2))
  );
  assert.deepEqual(kinds, [
    ...Array(4).fill("notice title=mcpeval guidance (demo)%3A catalog drift"),
    "warning title=mcpeval guidance (demo)%3A referenced-tool-unavailable",
    "notice title=mcpeval guidance (demo)",
  ]);
  assert.match(
    result.stdout,
    /::all: `delete-note` is referenced but not listed; available in elicitation \(new since the baseline\)\. /,
  );
  assert.match(result.stdout, /catalog drift::all: removed delete-note\n/);
  const markdown = await Deno.readTextFile(summary);
  assert.match(markdown, /\n### Baseline: catalog drift\n\n\| Profile \| Added \| Removed \|\n/);
  assert.match(markdown, /\n\| all \| - \| `delete-note` \|\n/);
  assert.match(markdown, /\n\| all \| `delete-note` \| elicitation \| new since the baseline \|\n/);
  assert.match(markdown, /\n### Resolved since the baseline \(3\)\n\n- none: summarize-notes/);

  // Text: drift, states and resolved candidates in plain words.
  const textReport = await Deno.readTextFile(text);
  const lines = textReport.split("\n");
  assert.ok(lines.includes("  none: added summarize-notes"));
  assert.ok(lines.includes("  all: removed delete-note"));
  assert.ok(
    textReport.replace(/\s+/g, " ").includes(
      " list-workspace-files named by none, sampling, elicitation; listed in roots, all; all in the baseline ",
    ),
    textReport,
  );
  assert.ok(lines.includes("Resolved since the baseline (3)"));
  assert.ok(lines.includes("  resolved none: summarize-notes (review candidate)"));

  // SARIF: baselineState on every result, resolved candidates as absent results; valid SARIF.
  const log = JSON.parse(await Deno.readTextFile(sarif));
  assertGithubSarif(log);
  const results = log.runs[0].results as {
    ruleId: string;
    kind?: string;
    level: string;
    baselineState: string;
    locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
  }[];
  assert.deepEqual(
    results.map((r) => [
      r.baselineState,
      r.kind ?? "fail",
      r.level,
      r.locations[0].logicalLocations[0].fullyQualifiedName,
    ]),
    [
      ...unchanged.map(([p, t]) => ["unchanged", "fail", "warning", `demo/${p}/${t}`]),
      ["new", "fail", "warning", "demo/all/delete-note"],
      ...resolved.map((p) => ["absent", "pass", "none", `demo/${p}/summarize-notes`]),
    ],
  );
  assert.deepEqual(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id), [
    "referenced-tool-unavailable",
    "required-tool-unavailable",
    "baseline-tool-unavailable",
    "profile-incomplete",
  ]);

  // JUnit: a "baseline catalog" case per profile (skipped when it changed), resolved references
  // as passed cases.
  const xml = await Deno.readTextFile(junit);
  assert.equal(XMLValidator.validate(xml), true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testsuite", "testcase", "property"].includes(name),
  }).parse(xml);
  const cases = (index: number) =>
    parsed.testsuites.testsuite[index].testcase.map((c: Record<string, unknown>) => [
      c.name,
      "skipped" in c ? (c.skipped as { message: string }).message : "passed",
    ]);
  assert.deepEqual(cases(0), [
    ["discovery", "passed"],
    ["baseline catalog", "catalog drift: added summarize-notes"],
    [
      "references delete-note",
      "review candidate: none: `delete-note` is referenced but not listed; available in elicitation (in the baseline). The instructions of this profile name a tool that its catalog does not list; check the reference and explain any capability requirement in the instructions.",
    ],
    [
      "references list-workspace-files",
      "review candidate: none: `list-workspace-files` is referenced but not listed; available in roots, all (in the baseline). The instructions of this profile name a tool that its catalog does not list; check the reference and explain any capability requirement in the instructions.",
    ],
    ["references summarize-notes", "passed"],
  ]);
  assert.deepEqual(cases(2).slice(0, 2), [["discovery", "passed"], ["baseline catalog", "passed"]]);
});

Deno.test("baseline that did not select a profile: that profile is not compared, its candidates are new", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path, [
    "--profile",
    "none",
    "--profile",
    "roots",
    ...demo(),
  ]);
  const { code, report } = await guidanceJson(
    ["--baseline", baseline, ...demo()],
    reading(baseline),
  );
  assert.equal(code, 0);
  assert.deepEqual(report.baseline?.profiles, [
    ...noDrift("none", "roots"),
    ...["sampling", "elicitation", "all"].map((profile) => ({
      profile,
      compared: false,
      reason: "not-in-baseline",
    })),
  ]);
  // With two profiles selected, the baseline's none had one candidate (list-workspace-files).
  assert.deepEqual(
    report.candidates.filter((c) => c.baseline_state === "unchanged").map((c) => [
      c.profile,
      c.tool,
    ]),
    [["none", "list-workspace-files"]],
  );
  assert.deepEqual(report.baseline?.resolved, []);
});

Deno.test("an incomplete run against a baseline: drift only where discovery completed, no defects, exit 3", async () => {
  await using dir = await tempDir();
  const hostileRun = (scenario: string) => [
    "--server",
    "h",
    "--settle-ms",
    "0",
    "--",
    ...hostile(scenario),
  ];
  const baseline = await writeBaseline(dir.path, hostileRun("default"));
  // roots-9: the profiles that declare roots end incomplete; the others list only alpha.
  const { code, report } = await guidanceJson(
    ["--baseline", baseline, "--require-baseline-tools", ...hostileRun("roots-9")],
    reading(baseline),
  );
  assert.equal(code, 3);
  assert.equal(report.complete, false);
  assert.equal(report.passed, null);
  assert.deepEqual(report.defects, []);
  assert.deepEqual(report.candidates, []);
  const removed = (profile: string) => ({ profile, compared: true, added: [], removed: ["beta"] });
  const incomplete = (profile: string) => ({ profile, compared: false, reason: "incomplete" });
  assert.deepEqual(report.baseline, {
    require_baseline_tools: true,
    profiles: [
      removed("none"),
      incomplete("roots"),
      removed("sampling"),
      removed("elicitation"),
      incomplete("all"),
    ],
    resolved: [],
  });
});

Deno.test("a baseline of another server: exit 2 with one line, before any server starts", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  await using log = await fixtureLog();
  const result = await mcpeval(
    ["guidance", "--server", "other", "--baseline", baseline, "--", ...hostile("default")],
    { ...reading(baseline), env: { MCPEVAL_FIXTURE_LOG: log.path } },
  );
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    "mcpeval: --baseline is the report of another server: its server label is not --server's; the baseline's label is demo\n",
  );
  assert.deepEqual(log.entries(), [], "no server was started");
});

const SECRET = "s3cr3t-in-the-file";

// In-process, with the CLI's own file reading: each is decided before anything starts.
Deno.test("a corrupted baseline: exit 2 with one line that repeats nothing of the file", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const good = await Deno.readTextFile(baseline);
  const report = JSON.parse(good);
  const cases: [string, string, string][] = [
    [
      "not JSON",
      `${SECRET}\n`,
      "--baseline is not valid JSON: give a report written by --format json or --output json=PATH",
    ],
    [
      "truncated",
      good.slice(0, good.length / 2),
      "--baseline is not valid JSON: give a report written by --format json or --output json=PATH",
    ],
    [
      "a tool renamed to something that is not a tool name",
      JSON.stringify({
        ...report,
        profiles: [{ ...report.profiles[0], tools: [`${SECRET} x`] }, ...report.profiles.slice(1)],
      }),
      "--baseline is neither a mcpeval.guidance-report/v1 nor a mcpeval.guidance-fleet/v1 report that this mcpeval can read (first problem at profiles.0.tools.0)",
    ],
    [
      "an unknown field",
      JSON.stringify({ ...report, [SECRET]: SECRET }),
      "--baseline is neither a mcpeval.guidance-report/v1 nor a mcpeval.guidance-fleet/v1 report that this mcpeval can read",
    ],
    [
      "another document",
      JSON.stringify({ version: "2.1.0", runs: [] }),
      "--baseline is neither a mcpeval.guidance-report/v1 nor a mcpeval.guidance-fleet/v1 report that this mcpeval can read (first problem at schema)",
    ],
    [
      "a fleet report that does not validate",
      JSON.stringify({ schema: "mcpeval.guidance-fleet/v1", servers: [{ name: SECRET }] }),
      "--baseline is neither a mcpeval.guidance-report/v1 nor a mcpeval.guidance-fleet/v1 report that this mcpeval can read (first problem at mcpeval_version)",
    ],
    ["not UTF-8", "\xff", "Cannot read the --baseline file (it is not UTF-8 text)"],
  ];
  for (const [name, content, expected] of cases) {
    const path = join(dir.path, `corrupted.json`);
    await Deno.writeFile(
      path,
      content === "\xff" ? new Uint8Array([0xff]) : new TextEncoder().encode(content),
    );
    const ctx = testContext({ readTextFile });
    const code = await run(
      ["guidance", "--server", "demo", "--baseline", path, "--", ...hostile("default")],
      ctx,
    );
    assert.equal(code, 2, name);
    assert.equal(ctx.out(), "", name);
    assert.equal(ctx.err(), `mcpeval: ${expected}\n`, name);
    assert.deepEqual(ctx.opened, [], `${name}: no server was started`);
  }
});

Deno.test("a baseline from an incomplete run is refused: it records no findings", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path, [
    "--server",
    "h",
    "--settle-ms",
    "0",
    "--",
    ...hostile("list-error"),
  ]);
  const result = await mcpeval(
    ["guidance", "--server", "h", "--baseline", baseline, "--", ...hostile("default")],
    reading(baseline),
  );
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "mcpeval: --baseline is the report of an incomplete run; write the baseline from a run whose discovery completed\n",
  );
});

Deno.test("--baseline without read permission, or a file that cannot be read: exit 2 naming the flag or the problem", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "baseline.json");
  const withoutRead = await mcpeval(["guidance", "--baseline", path, ...demo()]);
  assert.equal(withoutRead.code, 2);
  assert.equal(
    withoutRead.stderr,
    `mcpeval: Permission to read the baseline is missing: add --allow-read=${path}\n`,
  );
  const missing = await mcpeval(["guidance", "--baseline", path, ...demo()], reading(path));
  assert.equal(missing.stderr, "mcpeval: Cannot read the --baseline file (it does not exist)\n");
  const folder = await mcpeval(
    ["guidance", "--baseline", dir.path, ...demo()],
    reading(dir.path),
  );
  assert.equal(folder.stderr, "mcpeval: Cannot read the --baseline file (it is a folder)\n");
});

Deno.test("--baseline - reads the baseline from standard input, without read permission", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const { code, report } = await guidanceJson(
    ["--baseline", "-", "--require-baseline-tools", ...demo(...WITHOUT_DELETE_IN_ALL)],
    { stdin: await Deno.readTextFile(baseline) },
  );
  assert.equal(code, 1);
  assert.deepEqual(report.defects.map((d) => [d.kind, d.profile, d.tool]), [
    ["baseline-tool-unavailable", "all", "delete-note"],
  ]);
});

Deno.test("baseline with client presets: client profiles are compared, their candidates keep their state, resolved kinds stay valid SARIF", async () => {
  await using dir = await tempDir();
  const presets = join(ROOT, "fixtures", "clients", "test-clients.json");
  const args = (...extra: string[]) => [
    "--server",
    "fx",
    "--settle-ms",
    "0",
    "--profile",
    "none",
    "--client",
    "tiny",
    "--client-file",
    presets,
    ...extra,
    "--",
    ...hostile("client-catalog"),
  ];
  const path = join(dir.path, "baseline.json");
  const written = await mcpeval(
    ["guidance", "--output", `json=${path}`, ...args("--unknown-references")],
    { permissions: [`--allow-run=${DENO}`, `--allow-read=${presets}`, `--allow-write=${path}`] },
  );
  assert.equal(written.code, 0, written.stderr);
  const permissions = [`--allow-run=${DENO}`, `--allow-read=${presets},${path}`];

  const same = await guidanceJson(
    ["--baseline", path, "--require-baseline-tools", ...args("--unknown-references")],
    { permissions },
  );
  assert.equal(same.code, 0);
  assert.deepEqual(same.report.baseline?.profiles, noDrift("none", "client:tiny"));
  const kinds = new Set(same.report.candidates.map((c) => c.kind));
  assert.ok(kinds.has("tool-unreachable-in-client") && kinds.has("referenced-tool-unknown"));
  assert.ok(same.report.candidates.every((c) => c.baseline_state === "unchanged"));

  // Without --unknown-references the unknown references are resolved: absent SARIF results of a
  // rule this run could not otherwise produce.
  const sarif = await mcpeval(["guidance", "--format", "sarif", "--baseline", path, ...args()], {
    permissions,
  });
  assert.equal(sarif.code, 0, sarif.stderr);
  const log = JSON.parse(sarif.stdout);
  assertGithubSarif(log);
  const rules = log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id);
  const absent =
    (log.runs[0].results as { ruleId: string; ruleIndex: number; baselineState: string }[])
      .filter((r) => r.baselineState === "absent");
  assert.ok(absent.length > 0);
  assert.ok(absent.every((r) => r.ruleId === "referenced-tool-unknown"));
  assert.ok(absent.every((r) => rules[r.ruleIndex] === r.ruleId));
});

// In-process: the command line's own rules for the two options.
for (
  const [name, argv, expected] of [
    [
      "--require-baseline-tools without --baseline",
      ["--require-baseline-tools"],
      "--require-baseline-tools needs --baseline",
    ],
    ["--baseline without a path", ["--baseline="], "--baseline needs the path of a JSON report"],
    [
      "--baseline given twice",
      ["--baseline", "a", "--baseline", "b"],
      "--baseline may be given only once",
    ],
    [
      "--require-baseline-tools with a value",
      ["--baseline", "a", "--require-baseline-tools=yes"],
      "--require-baseline-tools takes no value",
    ],
  ] as const
) {
  Deno.test(`invalid invocation exits 2: ${name}`, async () => {
    const ctx = testContext();
    const code = await run(["guidance", "--server", "demo", ...argv, "--", "server"], ctx);
    assert.equal(code, 2);
    assert.equal(ctx.err(), `mcpeval: ${expected}\n`);
    assert.deepEqual(ctx.opened, []);
  });
}

Deno.test("a baseline of more JSON objects and arrays than the bound is refused before parsing", async () => {
  const ctx = testContext({
    readTextFile: () => Promise.resolve("[" + "{},".repeat(1_000_000) + "{}]"),
  });
  const code = await run(["guidance", "--server", "demo", "--baseline", "b.json", "--", "x"], ctx);
  assert.equal(code, 2);
  assert.equal(
    ctx.err(),
    "mcpeval: --baseline holds more than 1000000 JSON objects and arrays: it cannot be a report of mcpeval's\n",
  );
  assert.deepEqual(ctx.opened, []);
});

Deno.test("a baseline larger than the bound is refused without reading past it", async () => {
  let asked = 0;
  const ctx = testContext({
    readTextFile: (_path, maxBytes) => {
      asked = maxBytes ?? Infinity;
      return Promise.reject(new FileTooLargeError(asked));
    },
  });
  const code = await run(["guidance", "--server", "demo", "--baseline", "b.json", "--", "x"], ctx);
  assert.equal(code, 2);
  assert.equal(asked, 67_108_864);
  assert.equal(
    ctx.err(),
    "mcpeval: --baseline is larger than 67108864 bytes: it cannot be a report of mcpeval's\n",
  );
  assert.deepEqual(ctx.opened, []);
});
