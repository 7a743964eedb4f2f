/**
 * Baselines with the real reference server, pinned: @modelcontextprotocol/server-everything over
 * stdio. Each baseline is written by the CLI (`--output json=PATH`); "an older release" is that
 * report edited the way an earlier catalog would have differed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, EVERYTHING, guidanceJson, mcpeval, type Report, tempDir } from "./_cli.ts";
import { EVERYTHING_CANDIDATES, EVERYTHING_PROFILES } from "./_everything.ts";
import { assertGithubSarif } from "./_sarif.ts";

const ARGS = ["--server", "everything", "--settle-ms", "500", "--", ...EVERYTHING];

async function writeBaseline(dir: string): Promise<string> {
  const path = join(dir, "mcpeval-baseline.json");
  const result = await mcpeval(["guidance", "--output", `json=${path}`, ...ARGS], {
    permissions: [`--allow-run=${DENO}`, `--allow-write=${path}`],
  });
  assert.equal(result.code, 0, result.stderr);
  return path;
}

const reading = (path: string) => ({
  permissions: [`--allow-run=${DENO}`, `--allow-read=${path}`],
});

Deno.test("server-everything against the baseline it wrote: no drift, every candidate unchanged, exit 0", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const { code, report } = await guidanceJson(
    ["--baseline", baseline, "--require-baseline-tools", ...ARGS],
    reading(baseline),
  );
  assert.equal(code, 0);
  assert.deepEqual(
    report.baseline?.profiles,
    EVERYTHING_PROFILES.map(([profile]) => ({ profile, compared: true, added: [], removed: [] })),
  );
  assert.deepEqual(
    report.candidates.map((c) => [c.profile, c.tool, c.baseline_state]),
    EVERYTHING_CANDIDATES.map(([profile, tool]) => [profile, tool, "unchanged"]),
  );
  assert.deepEqual(report.baseline?.resolved, []);
  assert.deepEqual(report.defects, []);

  const other = await mcpeval(
    ["guidance", "--baseline", baseline, "--server", "other", "--", ...EVERYTHING],
    reading(baseline),
  );
  assert.equal(other.code, 2);
  assert.equal(
    other.stderr,
    "mcpeval: --baseline is the report of another server: its server label is not --server's; the baseline's label is everything\n",
  );
});

Deno.test("server-everything against an older baseline: removed and added tools, new and resolved candidates", async () => {
  await using dir = await tempDir();
  const path = await writeBaseline(dir.path);
  // The older release: sampling also listed `get-weather`, none did not list `get-sum` yet,
  // `none` did not reference get-roots-list, and `all` referenced a tool it lacked.
  const older: Report & Record<string, unknown> = JSON.parse(await Deno.readTextFile(path));
  const sampling = older.profiles.find((p) => p.profile === "sampling")!;
  sampling.tools = [...sampling.tools!, "get-weather"].sort();
  sampling.tool_count = sampling.tools.length;
  const none = older.profiles.find((p) => p.profile === "none")!;
  none.tools = none.tools!.filter((tool) => tool !== "get-sum");
  none.tool_count = none.tools.length;
  const [template] = older.candidates;
  older.candidates = [
    ...older.candidates.filter((c) => !(c.profile === "none" && c.tool === "get-roots-list")),
    { ...template, profile: "all", tool: "get-weather", available_in: ["sampling"] },
  ];
  const baseline = join(dir.path, "older.json");
  await Deno.writeTextFile(baseline, JSON.stringify(older));

  const sarif = join(dir.path, "mcpeval.sarif");
  const args = ["--baseline", baseline, "--output", `sarif=${sarif}`, ...ARGS];
  const permissions = [...reading(baseline).permissions, `--allow-write=${sarif}`];
  const drift = await guidanceJson(args, { permissions });
  assert.equal(drift.code, 0, "drift alone never fails");
  const { report } = drift;
  assert.deepEqual(report.baseline?.profiles, [
    { profile: "none", compared: true, added: ["get-sum"], removed: [] },
    { profile: "roots", compared: true, added: [], removed: [] },
    { profile: "sampling", compared: true, added: [], removed: ["get-weather"] },
    { profile: "elicitation", compared: true, added: [], removed: [] },
    { profile: "all", compared: true, added: [], removed: [] },
  ]);
  assert.deepEqual(
    report.candidates.filter((c) => c.baseline_state === "new").map((c) => [c.profile, c.tool]),
    [["none", "get-roots-list"]],
  );
  assert.equal(report.candidates.filter((c) => c.baseline_state === "unchanged").length, 8);
  assert.deepEqual(report.baseline?.resolved.map((f) => [f.profile, f.tool]), [[
    "all",
    "get-weather",
  ]]);
  const log = JSON.parse(await Deno.readTextFile(sarif));
  assertGithubSarif(log);
  const results = (log.runs[0].results as {
    baselineState: string;
    locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
  }[]).map((r) => [r.baselineState, r.locations[0].logicalLocations[0].fullyQualifiedName]);
  assert.deepEqual(results.filter(([state]) => state !== "unchanged"), [
    ["new", "everything/none/get-roots-list"],
    ["absent", "everything/all/get-weather"],
  ]);
  assert.equal(results.length, 10);

  const required = await guidanceJson(
    ["--baseline", baseline, "--require-baseline-tools", ...ARGS],
    reading(baseline),
  );
  assert.equal(required.code, 1);
  assert.deepEqual(
    required.report.defects.map((d) => [d.kind, d.profile, d.tool, d.available_in]),
    [["baseline-tool-unavailable", "sampling", "get-weather", []]],
  );
});

Deno.test("server-everything, incomplete against its baseline (a revision it does not speak): nothing compared, exit 3", async () => {
  await using dir = await tempDir();
  const baseline = await writeBaseline(dir.path);
  const { code, report } = await guidanceJson(
    [
      "--baseline",
      baseline,
      "--require-baseline-tools",
      "--protocol-version",
      "2026-07-28",
      ...ARGS,
    ],
    reading(baseline),
  );
  assert.equal(code, 3);
  assert.deepEqual(report.defects, []);
  assert.deepEqual(
    report.baseline?.profiles,
    EVERYTHING_PROFILES.map(([profile]) => ({ profile, compared: false, reason: "incomplete" })),
  );
  assert.deepEqual(report.baseline?.resolved, []);
});
