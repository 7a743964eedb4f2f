/**
 * Client fidelity through the real CLI: what real clients do to a tool beyond its name (schema
 * rules, rewritten names that collide, caps with an effect), `--client all`, the Tool-shape
 * detail of `malformed-entry`, and `name-characters` patterns in linear time.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CANARY } from "../fixtures/hostile.ts";
import { builtinPresets } from "../src/clients/presets.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import {
  DENO,
  guidanceJson,
  hostile,
  mcpeval,
  profileNone,
  ROOT,
  tempDir,
  tempFile,
} from "./_cli.ts";

const FIDELITY_PRESETS = join(ROOT, "fixtures", "clients", "fidelity-clients.json");
const READ = [`--allow-run=${DENO}`, `--allow-read=${FIDELITY_PRESETS}`];
const LONG = `${"a".repeat(39)}-`;

interface Finding {
  kind: string;
  profile: string;
  tool: string;
  rule?: string;
  effect?: string;
  available_in: string[];
}

/** The fidelity fixture under `clients` (and `none` to compare), with the test presets file. */
async function fidelityRun(clients: readonly string[], ...extra: string[]) {
  const result = await guidanceJson([
    "--server",
    "fx",
    "--settle-ms",
    "0",
    "--profile",
    "none",
    ...clients.flatMap((client) => ["--client", client]),
    "--client-file",
    FIDELITY_PRESETS,
    ...extra,
    "--",
    ...hostile("client-fidelity"),
  ], { permissions: READ });
  const candidates = result.report.candidates as unknown as Finding[];
  const hidden = (profile: string) =>
    candidates.filter((c) => c.kind === "tool-unreachable-in-client" && c.profile === profile);
  return { ...result, candidates, hidden };
}

Deno.test("claude-code: a root anyOf is sent (flattened); invalid schemas and a colliding name are not", async () => {
  const { code, report, hidden } = await fidelityRun(
    ["claude-code"],
    "--require-tool",
    "bad-type",
  );
  assert.equal(code, 1);
  // As observed (src/clients/observed/claude-code@2.1.332.json): the schema the API would refuse
  // is skipped, and get/user and get_user both become mcp__fx__get_user, the first listed kept.
  assert.deepEqual(hidden("client:claude-code").map((c) => [c.tool, c.rule, c.effect]), [
    ["bad-type", "schema-invalid", undefined],
    ["get_user", "name-collision", undefined],
    ["number-description", "schema-invalid", undefined],
  ]);
  assert.deepEqual(hidden("client:claude-code")[0].available_in, ["none"]);
  assert.deepEqual(report.defects.map((d) => [d.kind, d.profile, d.tool]), [
    ["required-tool-unavailable", "client:claude-code", "bad-type"],
  ]);
  // The instructions name any-of-root: reachable there, so no reference candidate.
  assert.ok(
    !report.candidates.some((c) =>
      c.kind === "referenced-tool-unavailable" && c.profile === "client:claude-code"
    ),
  );
});

Deno.test("vscode: an inputSchema that is not valid JSON Schema (draft-07) is unreachable", async () => {
  const { code, hidden } = await fidelityRun(["vscode"], "--require-tool", "bad-type");
  assert.equal(code, 1);
  assert.deepEqual(hidden("client:vscode").map((c) => [c.tool, c.rule]), [
    ["bad-type", "schema-invalid"],
    ["number-description", "schema-invalid"],
  ]);
});

Deno.test("codex: a property description that is not a string is unreachable, by its own rule", async () => {
  const { code, report, hidden } = await fidelityRun(
    ["codex", "claude-code"],
    "--require-tool",
    "number-description",
  );
  assert.equal(code, 1);
  assert.deepEqual(hidden("client:codex").map((c) => [c.tool, c.rule, c.effect]), [
    ["number-description", "schema-description-not-string", undefined],
  ]);
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool]), [
    ["client:codex", "number-description"],
    ["client:claude-code", "number-description"],
  ]);
  // Claude Code skips it for another rule (its schema is invalid); no client, no finding.
  assert.deepEqual(
    hidden("client:claude-code").filter((c) => c.tool === "number-description").map((c) => c.rule),
    ["schema-invalid"],
  );
  assert.deepEqual(hidden("none"), []);
});

Deno.test("gemini-cli: exactly one of two names that collide once rewritten is unreachable", async () => {
  const { code, report, hidden } = await fidelityRun(
    ["gemini-cli", "codex"],
    "--require-tool",
    "get/user",
  );
  assert.equal(code, 1);
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool]), [
    ["client:gemini-cli", "get/user"],
  ]);
  // get/user and get_user both become mcp_fx_get_user; the later registration wins.
  assert.deepEqual(hidden("client:gemini-cli").map((c) => [c.tool, c.rule]), [
    ["get/user", "name-collision"],
  ]);
  // Codex gives colliding names a hash suffix (mcp_tool_names.rs): neither is hidden.
  assert.deepEqual(hidden("client:codex").map((c) => [c.tool, c.rule]), [
    ["number-description", "schema-description-not-string"],
  ]);
});

Deno.test("drop-server: one tool's schema hides every tool of the server, reported once", async () => {
  const { code, report, hidden } = await fidelityRun(
    ["strict-server"],
    "--require-tool",
    "plain",
  );
  assert.equal(code, 1);
  assert.deepEqual(hidden("client:strict-server").map((c) => [c.tool, c.rule, c.effect]), [
    ["any-of-root", "schema-root-composition", "drop-server"],
  ]);
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool]), [
    ["client:strict-server", "plain"],
  ]);
  const refs = report.candidates.filter((c) =>
    c.kind === "referenced-tool-unavailable" && c.profile === "client:strict-server"
  );
  assert.deepEqual(refs.map((c) => c.tool), ["any-of-root", "plain"]);
});

Deno.test("unresolvable $ref and the other schema kinds judge only what they name", async () => {
  const { hidden } = await fidelityRun(["refs"]);
  assert.deepEqual(hidden("client:refs").map((c) => [c.tool, c.rule]), [
    ["dangling-ref", "schema-unresolvable-ref"],
  ]);
});

Deno.test("caps: truncate hides the rest, refuse-server hides all once, warn hides nothing", async () => {
  const { candidates, hidden } = await fidelityRun(["cap-truncate", "cap-refuse", "cap-warn"]);
  const listed = [
    "plain",
    "any-of-root",
    "bad-type",
    "dangling-ref",
    "get/user",
    "get_user",
    LONG,
    "number-description",
  ];
  assert.deepEqual(
    hidden("client:cap-truncate").map((c) => c.tool).sort(),
    listed.slice(2).sort(),
  );
  assert.ok(hidden("client:cap-truncate").every((c) => c.rule === "max-tools" && !c.effect));
  assert.deepEqual(hidden("client:cap-refuse").map((c) => [c.tool, c.effect]), [
    ["bad-type", "refuse-server"],
  ]);
  assert.deepEqual(hidden("client:cap-warn"), []);
  assert.deepEqual(
    candidates.filter((c) => c.kind === "tool-cap-exceeded-in-client").map((
      c,
    ) => [c.profile, c.tool, c.rule]),
    [["client:cap-warn", "bad-type", "max-tools"]],
  );
  // refuse-server: the instructions' tools are unavailable in that client, not in warn's.
  const refs = candidates.filter((c) => c.kind === "referenced-tool-unavailable");
  assert.ok(refs.some((c) => c.profile === "client:cap-refuse" && c.tool === "plain"));
  assert.ok(!refs.some((c) => c.profile === "client:cap-warn"));
});

Deno.test("--client all runs every preset, built-in and from --client-file", async () => {
  const { code, report } = await fidelityRun(["all"]);
  assert.equal(code, 0);
  const fromFile = Object.keys(
    JSON.parse(Deno.readTextFileSync(FIDELITY_PRESETS)).clients as Record<string, unknown>,
  );
  assert.deepEqual(
    report.profiles.map((p) => p.profile),
    ["none", ...[...builtinPresets().keys(), ...fromFile].map((name) => `client:${name}`)],
  );
  assert.ok(report.profiles.every((p) => p.complete));
});

Deno.test("canary: no schema text or rewritten name reaches any format under --client all", async () => {
  await using temp = await tempDir();
  const files = FORMATS.map((name) => [name, join(temp.path, `report.${name}`)]);
  for (const format of ["text", "json"]) {
    const result = await mcpeval([
      "guidance",
      "--server",
      "fx",
      "--client",
      "all",
      "--client-file",
      FIDELITY_PRESETS,
      "--format",
      format,
      ...files.map(([name, path]) => `--output=${name}=${path}`),
      "--settle-ms",
      "0",
      "--",
      ...hostile("client-fidelity"),
    ], { permissions: [...READ, `--allow-write=${temp.path}`] });
    assert.equal(result.code, 0, result.stderr);
    const outputs = [
      ["stdout", result.stdout],
      ["stderr", result.stderr],
      ...files.map(([name, path]) => [name, Deno.readTextFileSync(path)]),
    ];
    for (const [where, text] of outputs) {
      assert.ok(!text.includes(CANARY), `the canary reached ${where}`);
      assert.ok(!text.includes("7f3a9"), `part of the canary reached ${where}`);
      assert.ok(!text.includes("strng") && !text.includes("anyOf"), `schema text in ${where}`);
      assert.ok(!text.includes("mcp_fx_get_user"), `a rewritten name reached ${where}`);
    }
  }
});

Deno.test("malformed-entry names the tool and the rule of MCP's Tool shape it breaks", async () => {
  const { code, report } = await guidanceJson([
    ...profileNone(),
    "--",
    ...hostile("input-schema-array"),
  ]);
  assert.equal(code, 3);
  assert.deepEqual(report.profiles[0].incomplete?.detail, {
    cause: "input-schema-not-object-schema",
    tool: "list-tool",
  });
  const text = await mcpeval([
    "guidance",
    ...profileNone(),
    "--",
    ...hostile("input-schema-array"),
  ]);
  assert.match(
    text.stdout,
    /`list-tool` has an inputSchema that is not an object with type "object"/,
  );
  // An invalid name is not shown: the detail says which rule, without the name.
  const named = await guidanceJson([...profileNone(), "--", ...hostile("entry-name-space")]);
  assert.deepEqual(named.report.profiles[0].incomplete?.detail, { cause: "tool-name-invalid" });
});

Deno.test("name-characters runs in linear time: ^(a+)+$ against a 40-character name finishes", async () => {
  const { code, hidden } = await fidelityRun(["backtrack"]);
  assert.equal(code, 0);
  assert.ok(
    hidden("client:backtrack").some((c) => c.tool === LONG && c.rule === "name-characters"),
  );
});

Deno.test("a name-characters pattern over the bound, or one RE2 cannot run, exits 2 with one line", async () => {
  await using file = await tempFile({ suffix: ".json" });
  const presets = JSON.parse(Deno.readTextFileSync(FIDELITY_PRESETS));
  for (
    const [pattern, phrase] of [
      ["a".repeat(200_000), /pattern longer than 256 characters/],
      ["^(a)\\1$", /backreference or lookaround/],
    ] as const
  ) {
    presets.clients.backtrack.rules[0].value = pattern;
    await Deno.writeTextFile(file.path, JSON.stringify(presets));
    const result = await mcpeval(
      [
        "guidance",
        "--server",
        "fx",
        "--client",
        "backtrack",
        "--client-file",
        file.path,
        "--",
        "x",
      ],
      { permissions: [`--allow-run=${DENO}`, `--allow-read=${file.path}`] },
    );
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, phrase);
    assert.ok(!result.stderr.includes("aaaa"), "the pattern is not echoed");
  }
});
