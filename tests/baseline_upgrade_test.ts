/**
 * Baselines that survive upgrades: reports written by mcpeval 0.1.0 and 0.2.0 (kept in
 * tests/data/baselines/), and copies of them whose hints and limits a later version reworded,
 * are read as baselines through the real CLI, single-server and `--config` alike.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { baselineDocument } from "../src/baseline/read.ts";
import {
  configFile,
  DENO,
  entry,
  fixture,
  fleetJson,
  guidanceJson,
  mcpeval,
  ROOT,
} from "./_cli.ts";

const DATA = join(ROOT, "tests", "data", "baselines");
const DEMO = ["--server", "demo", "--settle-ms", "100", "--", ...fixture("demo/server.ts")];
const read = (path: string) => ({ permissions: [`--allow-run=${DENO}`, `--allow-read=${path}`] });

for (
  const [name, unchanged] of [
    ["guidance-0.1.0.json", 9],
    ["guidance-0.2.0.json", 9],
    ["guidance-0.2.0-reworded.json", 9],
    ["fleet-0.2.0.json", 9],
    ["fleet-0.2.0-reworded.json", 9],
  ] as const
) {
  Deno.test(`a baseline written by an earlier version: ${name}`, async () => {
    const path = join(DATA, name);
    const { code, report } = await guidanceJson(["--baseline", path, ...DEMO], read(path));
    assert.equal(code, 0);
    const states = report.candidates.map((candidate) => candidate.baseline_state);
    assert.equal(states.length, unchanged);
    assert.ok(states.every((state) => state === "unchanged"), String(states));
    const drift = (report as unknown as { baseline: { profiles: { compared: boolean }[] } })
      .baseline.profiles;
    assert.ok(drift.every((profile) => profile.compared));
  });
}

Deno.test("a reworded 0.2.0 fleet report is the baseline of a fleet", async () => {
  const path = join(DATA, "fleet-0.2.0-reworded.json");
  await using config = await configFile({
    mcpServers: { demo: entry(fixture("demo/server.ts")) },
  });
  const { code, fleet } = await fleetJson(
    ["--config", config.path, "--settle-ms", "100", "--baseline", path],
    { permissions: [`--allow-run=${DENO}`, `--allow-read=${config.path},${path}`] },
  );
  assert.equal(code, 0);
  const [server] = fleet.servers as { report: { candidates: { baseline_state: string }[] } }[];
  assert.ok(server.report.candidates.length > 0);
  assert.ok(server.report.candidates.every((c) => c.baseline_state === "unchanged"));
});

Deno.test("a baseline is still checked where it is used: a bad tool name is refused", async () => {
  const value = JSON.parse(await Deno.readTextFile(join(DATA, "guidance-0.2.0.json")));
  value.profiles[0].tools[0] = "not a tool name";
  assert.deepEqual(baselineDocument(value), {
    ok: false,
    problem: "not-a-report",
    at: "profiles.0.tools.0",
  });
  value.schema = "mcpeval.guidance-report/v2";
  assert.deepEqual(baselineDocument(value), { ok: false, problem: "not-a-report", at: "schema" });
  const fleet = JSON.parse(await Deno.readTextFile(join(DATA, "fleet-0.2.0.json")));
  fleet.servers[0].report.candidates[0].profile = 7;
  assert.deepEqual(baselineDocument(fleet), {
    ok: false,
    problem: "not-a-report",
    at: "servers.0.report.candidates.0.profile",
  });
});

Deno.test("a finding of a kind this version does not know is left out, not refused", () => {
  const value = {
    schema: "mcpeval.guidance-report/v1",
    mcpeval_version: "0.1.0",
    server: "demo",
    complete: true,
    profiles: [{ profile: "none", tools: ["a"] }],
    candidates: [
      { kind: "a-kind-from-the-future", profile: "none", tool: "b", available_in: [] },
      { kind: "referenced-tool-unavailable", profile: "none", tool: "c", available_in: [] },
    ],
    defects: [],
  };
  const read = baselineDocument(value);
  assert.ok(read.ok && read.document.kind === "guidance");
  assert.deepEqual(read.document.report.findings.map((finding) => finding.tool), ["c"]);
});

Deno.test("a reworded baseline of another server still exits 2", async () => {
  const path = join(DATA, "guidance-0.2.0-reworded.json");
  const { code, stderr } = await mcpeval(
    ["guidance", "--baseline", path, "--server", "other", "--", ...fixture("demo/server.ts")],
    read(path),
  );
  assert.equal(code, 2);
  assert.match(stderr, /another server/);
});
