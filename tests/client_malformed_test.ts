/**
 * Tools that are invalid for MCP's Tool shape but readable (SPEC 22), through the real CLI with
 * the lab's probe servers: the five standard profiles end incomplete (`malformed-entry`); a
 * client profile keeps such a tool and judges it as its client was observed to. A name that is
 * not a valid tool identifier never reaches a report.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PROBE_SERVERS } from "../src/lab/probe_catalog.ts";
import { CatalogBuilder } from "../src/discovery/catalog.ts";
import { MAX_KEPT_INVALID_NAME_CHARS } from "../src/limits.ts";
import { PROTOCOL_VERSION, revisionOf } from "../src/protocol/versions.ts";
import { DENO, guidanceJson, hostile, mcpeval, ROOT, tempDir } from "./_cli.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const TEST_PRESETS = join(ROOT, "fixtures", "clients", "test-clients.json");

/** The lab's probe server for `catalog`, writing what it records into `dir`. */
const probe = (catalog: string, dir: string) => [
  DENO,
  "run",
  "--quiet",
  `--allow-write=${dir}`,
  join(ROOT, "src", "lab", "probe_server.ts"),
  catalog,
  dir,
];

const PERMISSIONS = [`--allow-run=${DENO}`, `--allow-read=${TEST_PRESETS}`];

/** The guidance arguments for one probe server with `selection` (profiles and clients). */
const probeArgs = (catalog: string, dir: string, selection: readonly string[]) => [
  "--server",
  catalog,
  "--settle-ms",
  "0",
  ...selection,
  "--",
  ...probe(catalog, dir),
];

/** A run of one probe server, its JSON report validated. */
async function json(catalog: string, selection: readonly string[]) {
  await using dir = await tempDir();
  return await guidanceJson(probeArgs(catalog, dir.path, selection), {
    permissions: PERMISSIONS,
  });
}

/** A run of one probe server in another format. */
async function formatted(catalog: string, selection: readonly string[], format: string) {
  await using dir = await tempDir();
  return await mcpeval(
    ["guidance", "--format", format, ...probeArgs(catalog, dir.path, selection)],
    {
      permissions: PERMISSIONS,
    },
  );
}

Deno.test("a non-object root: claude-code refuses the whole server, copilot-cli sends it, the five say malformed-entry", async () => {
  const claude = await json("root-array", ["--client", "claude-code"]);
  assert.equal(claude.code, 0, claude.stderr);
  assert.equal(claude.report.complete, true);
  assert.deepEqual(claude.report.profiles[0].tools, ["plain", "root-array"]);
  // One finding for the whole server, on the tool that caused it.
  assert.deepEqual(claude.report.candidates.map((c) => ({ ...c, hint: undefined })), [{
    kind: "tool-unreachable-in-client",
    profile: "client:claude-code",
    tool: "root-array",
    rule: "schema-root-not-object",
    effect: "drop-server",
    available_in: [],
    hint: undefined,
  }]);
  assert.deepEqual(claude.report.defects, []);

  const copilot = await json("root-array", ["--client", "copilot-cli"]);
  assert.equal(copilot.code, 0, copilot.stderr);
  assert.equal(copilot.report.complete, true);
  assert.deepEqual(copilot.report.profiles[0].tools, ["plain", "root-array"]);
  assert.deepEqual(copilot.report.candidates, []);

  // Both at once: the tool is reachable in copilot-cli, and a required tool the server drop
  // hides is a defect in claude-code only (exit 1).
  const both = await json("root-untyped", [
    "--client",
    "claude-code",
    "--client",
    "copilot-cli",
    "--require-tool",
    "plain",
  ]);
  assert.equal(both.code, 1, both.stderr);
  assert.deepEqual(
    both.report.candidates.map((c) => [c.profile, c.tool, c.available_in]),
    [["client:claude-code", "root-untyped", ["client:copilot-cli"]]],
  );
  assert.deepEqual(
    both.report.defects.map((d) => [d.kind, d.profile, d.tool]),
    [["required-tool-unavailable", "client:claude-code", "plain"]],
  );

  const standard = await json("root-array", ["--profile", "none", "--client", "copilot-cli"]);
  assert.equal(standard.code, 3, standard.stderr);
  assert.equal(standard.report.complete, false);
  assert.equal(standard.report.profiles[0].incomplete?.reason, "malformed-entry");
  assert.deepEqual(standard.report.profiles[0].incomplete?.detail, {
    cause: "input-schema-not-object-schema",
    tool: "root-array",
  });
  assert.equal(standard.report.profiles[1].complete, true);
});

Deno.test("names that are not tool identifiers: client profiles keep them, no report shows them", async () => {
  const tools = PROBE_SERVERS.main.tools;
  const position = (name: string) => tools.findIndex((tool) => tool.name === name) + 1;
  const phrase = (name: string) => `(tool #${position(name)}: name not a valid tool identifier)`;

  // Every observed client keeps them (renamed): claude-code reports neither.
  const claude = await json("main", ["--client", "claude-code"]);
  assert.equal(claude.code, 0, claude.stderr);
  assert.equal(claude.report.complete, true);
  const listed = claude.report.profiles[0].tools!;
  assert.equal(listed.length, tools.length - 2, "the two are kept, but not listed by name");
  assert.ok(!claude.report.candidates.some((c) => c.tool.startsWith("(tool #")));

  // A client whose rule drops them (tiny: names outside [A-Za-z0-9_-]) names each by position.
  const tiny = await json("main", ["--client", "tiny", "--client-file", TEST_PRESETS]);
  assert.equal(tiny.code, 0, tiny.stderr);
  const named = tiny.report.candidates.filter((c) => c.tool.startsWith("(tool #"));
  assert.deepEqual(
    named.map((c) => [c.tool, c.rule]).sort(),
    [[phrase("has space"), "name-characters"], [phrase("café_tool"), "name-characters"]].sort(),
  );

  // The five keep malformed-entry, without the name.
  const none = await json("main", ["--profile", "none"]);
  assert.equal(none.code, 3, none.stderr);
  assert.deepEqual(none.report.profiles[0].incomplete?.detail, { cause: "tool-name-invalid" });

  const texts = [JSON.stringify(claude.report), JSON.stringify(tiny.report)];
  for (const format of FORMATS.filter((id) => id !== "json")) {
    const out = await formatted(
      "main",
      ["--client", "tiny", "--client-file", TEST_PRESETS],
      format,
    );
    assert.equal(out.code, 0, out.stderr);
    texts.push(out.stdout, out.stderr);
  }
  for (const text of texts) {
    for (const raw of ["has space", "has_space", "café", "caf_", "caf\\u00e9"]) {
      assert.ok(!text.includes(raw), `${raw} reached a report`);
    }
  }
  assert.ok(texts[2].includes(phrase("has space")), "the text report names it by position");
});

Deno.test("a hidden tool says which check of its client hid it, in every format", async () => {
  const check = 'drop-server): its inputSchema\'s root type is not "object"';
  for (const format of FORMATS.filter((id) => id !== "json")) {
    const out = await formatted("root-array", ["--client", "claude-code"], format);
    assert.equal(out.code, 0, out.stderr);
    const text = format === "text" ? out.stdout.replaceAll(/\n +/g, " ") : out.stdout;
    assert.ok(text.includes("schema-root-not-object"), `${format}: the rule's id`);
    if (format !== "sarif" && format !== "junit") assert.ok(text.includes(check), format);
  }
  const { report } = await json("root-array", ["--client", "claude-code"]);
  assert.doesNotMatch(JSON.stringify(report.candidates[0]), /tool count, name length/);
});

Deno.test("the catalog: what a client profile keeps, and what stays malformed-entry in every profile", async () => {
  const page = (...tools: unknown[]) => ({ tools });
  const schema = { type: "object" };
  const reasons = async (tools: unknown[], client: boolean) => {
    const catalog = new CatalogBuilder(
      revisionOf(PROTOCOL_VERSION).toolShape,
      client ? [] : undefined,
    );
    const outcome = await catalog.addPage(page(...tools));
    return "incomplete" in outcome
      ? [outcome.incomplete.reason, outcome.incomplete.detail?.cause]
      : catalog.listed();
  };
  const kept = [
    { name: "root", inputSchema: { type: "array" } },
    { name: "untyped", inputSchema: { properties: {} } },
    { name: "has space", inputSchema: schema },
    { name: "x".repeat(MAX_KEPT_INVALID_NAME_CHARS), inputSchema: schema },
  ];
  assert.deepEqual(await reasons(kept, true), [
    "root",
    "untyped",
    "(tool #3: name not a valid tool identifier)",
    "(tool #4: name not a valid tool identifier)",
  ]);
  assert.deepEqual(await reasons([kept[0]], false), [
    "malformed-entry",
    "input-schema-not-object-schema",
  ]);
  assert.deepEqual(await reasons([kept[2]], false), ["malformed-entry", "tool-name-invalid"]);
  // What no client could read, in either kind of profile.
  for (
    const [tools, cause] of [
      [[{ inputSchema: schema }], "tool-name-not-string"],
      [[{ name: 7, inputSchema: schema }], "tool-name-not-string"],
      [["not-an-object"], "tool-not-object"],
      [[{ name: "a", inputSchema: [] }], "input-schema-not-object-schema"],
      [
        [{ name: "a", inputSchema: { type: "array", properties: [] } }],
        "input-schema-not-object-schema",
      ],
      [[{ name: "a", inputSchema: { type: "array" }, title: 1 }], "tool-title-not-string"],
      [
        [{ name: "x".repeat(MAX_KEPT_INVALID_NAME_CHARS + 1), inputSchema: schema }],
        "tool-name-invalid",
      ],
    ] as const
  ) {
    assert.deepEqual(
      await reasons([...tools], true),
      ["malformed-entry", cause],
      JSON.stringify(tools),
    );
  }
  assert.deepEqual(await reasons([kept[2], kept[2]], true), ["duplicate-tool", undefined]);
});

Deno.test("a name with terminal escapes: a client profile keeps it, and no output carries it", async () => {
  for (const scenario of ["entry-name-ansi", "entry-name-control"]) {
    const args = ["--server", "h", "--settle-ms", "0", "--client", "tiny", "--client-file"];
    const run = await guidanceJson([...args, TEST_PRESETS, "--", ...hostile(scenario)], {
      permissions: PERMISSIONS,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.report.complete, true);
    assert.deepEqual(run.report.profiles[0].tools, []);
    assert.deepEqual(
      run.report.candidates.map((c) => [c.tool, c.rule]),
      [["(tool #1: name not a valid tool identifier)", "name-characters"]],
    );
    const text = await mcpeval(["guidance", ...args, TEST_PRESETS, "--", ...hostile(scenario)], {
      permissions: PERMISSIONS,
    });
    for (const output of [run.stdout, run.stderr, text.stdout, text.stderr]) {
      // deno-lint-ignore no-control-regex -- matching control characters is the point
      assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(output), `${scenario}: a control character`);
      assert.ok(!output.includes("[31m") && !output.includes("bell"), `${scenario}: the name`);
    }
  }
});
