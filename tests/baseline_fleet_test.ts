/**
 * `--baseline` with `--config` runs and fleet reports, through the real CLI: a fleet report is
 * the baseline of a fleet (each server compared with its own entry) and of a single
 * server's run (its entry picked by label); baselines are written by the CLI itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  configFile,
  DENO,
  entry,
  EVERYTHING,
  fixture,
  fleetJson,
  guidanceJson,
  hostile,
  mcpeval,
  type Report,
  tempDir,
} from "./_cli.ts";
import { EVERYTHING_CANDIDATES } from "./_everything.ts";
import { assertGithubSarif } from "./_sarif.ts";

const DEMO = fixture("demo/server.ts");
/** A later release of the demo server: `delete-note` is no longer listed with sampling. */
const DEMO_LATER = fixture("demo/server.ts", "--hidden-with", "delete-note=sampling");
const ALL = ["none", "roots", "sampling", "elicitation", "all"];

/** Runs a config with `--output json=PATH` and returns PATH (a fleet report). */
async function writeFleetBaseline(dir: string, config: string): Promise<string> {
  const path = join(dir, "mcpeval-baseline.json");
  const result = await mcpeval(
    ["guidance", "--config", config, "--settle-ms", "300", "--output", `json=${path}`],
    {
      permissions: [`--allow-read=${config}`, `--allow-run=${DENO}`, `--allow-write=${path}`],
    },
  );
  assert.equal(result.code, 0, result.stderr);
  return path;
}

const reportOf = (fleet: { servers: unknown[] }, name: string): Report => {
  const server = (fleet.servers as { name: string; checked: boolean; report?: Report }[])
    .find((candidate) => candidate.name === name);
  assert.ok(server?.checked && server.report, `${name} was checked`);
  return server.report;
};

Deno.test("a fleet report as the baseline of a fleet: each server against its entry, a new server all new, a lost tool fails", async () => {
  await using dir = await tempDir();
  await using before = await configFile({
    mcpServers: { demo: entry(DEMO), everything: entry(EVERYTHING) },
  });
  const baseline = await writeFleetBaseline(dir.path, before.path);
  await using after = await configFile({
    mcpServers: {
      demo: entry(DEMO_LATER),
      everything: entry(EVERYTHING),
      added: entry(hostile("default")),
    },
  });
  const sarif = join(dir.path, "fleet.sarif");
  const { code, fleet } = await fleetJson(
    [
      "--config",
      after.path,
      "--settle-ms",
      "300",
      "--baseline",
      baseline,
      "--require-baseline-tools",
      "--output",
      `sarif=${sarif}`,
    ],
    {
      permissions: [
        `--allow-read=${after.path},${baseline}`,
        `--allow-run=${DENO}`,
        `--allow-write=${sarif}`,
      ],
    },
  );
  assert.equal(code, 1, "the demo server lost a baseline tool");
  assert.equal(fleet.passed, false);

  const demo = reportOf(fleet, "demo");
  assert.deepEqual(demo.defects.map((d) => [d.kind, d.profile, d.tool, d.available_in]), [
    ["baseline-tool-unavailable", "all", "delete-note", ["elicitation"]],
  ]);
  assert.deepEqual(demo.baseline?.profiles.at(-1), {
    profile: "all",
    compared: true,
    added: [],
    removed: ["delete-note"],
  });

  const everything = reportOf(fleet, "everything");
  assert.deepEqual(
    everything.baseline?.profiles,
    ALL.map((profile) => ({ profile, compared: true, added: [], removed: [] })),
  );
  assert.deepEqual(
    everything.candidates.map((c) => [c.profile, c.tool, c.baseline_state]),
    EVERYTHING_CANDIDATES.map(([profile, tool]) => [profile, tool, "unchanged"]),
  );
  assert.deepEqual(everything.defects, []);

  // A server added since the baseline: nothing to compare with, nothing required.
  const added = reportOf(fleet, "added");
  assert.deepEqual(
    added.baseline?.profiles,
    ALL.map((profile) => ({ profile, compared: false, reason: "not-in-baseline" })),
  );
  assert.deepEqual(added.defects, []);
  assert.ok(added.candidates.every((c) => c.baseline_state === "new"));

  const log = JSON.parse(await Deno.readTextFile(sarif));
  assertGithubSarif(log);
  const states = (log.runs[0].results as { baselineState?: string }[]).map((r) => r.baselineState);
  assert.ok(states.length > 0 && states.every((state) => state === "new" || state === "unchanged"));
});

Deno.test("a fleet baseline for one server's run: its entry by label; a label the fleet lacks exits 2", async () => {
  await using dir = await tempDir();
  await using before = await configFile({ mcpServers: { demo: entry(DEMO) } });
  const baseline = await writeFleetBaseline(dir.path, before.path);
  const permissions = [`--allow-run=${DENO}`, `--allow-read=${baseline}`];

  const { code, report } = await guidanceJson(
    [
      "--server",
      "demo",
      "--settle-ms",
      "300",
      "--baseline",
      baseline,
      "--require-baseline-tools",
      "--",
      ...DEMO_LATER,
    ],
    { permissions },
  );
  assert.equal(code, 1);
  assert.deepEqual(report.defects.map((d) => [d.kind, d.profile, d.tool]), [
    ["baseline-tool-unavailable", "all", "delete-note"],
  ]);

  const other = await mcpeval(
    ["guidance", "--server", "other", "--baseline", baseline, "--", ...DEMO],
    { permissions },
  );
  assert.equal(other.code, 2);
  assert.equal(other.stdout, "");
  assert.equal(
    other.stderr,
    "mcpeval: --baseline is a fleet report that does not list --server's server; it lists: demo\n",
  );
});

Deno.test("one server's report as the baseline of a fleet: that server compared, the others all new; no server of its label: exit 2", async () => {
  await using dir = await tempDir();
  const baseline = join(dir.path, "demo.json");
  const written = await mcpeval(
    [
      "guidance",
      "--server",
      "demo",
      "--settle-ms",
      "300",
      "--output",
      `json=${baseline}`,
      "--",
      ...DEMO,
    ],
    { permissions: [`--allow-run=${DENO}`, `--allow-write=${baseline}`] },
  );
  assert.equal(written.code, 0, written.stderr);
  await using config = await configFile({
    mcpServers: { demo: entry(DEMO), plain: entry(hostile("default")) },
  });
  const permissions = [`--allow-read=${config.path},${baseline}`, `--allow-run=${DENO}`];
  const { code, fleet } = await fleetJson(
    ["--config", config.path, "--settle-ms", "300", "--baseline", baseline],
    { permissions },
  );
  assert.equal(code, 0);
  assert.ok(reportOf(fleet, "demo").baseline?.profiles.every((p) => p.compared));
  assert.ok(reportOf(fleet, "plain").baseline?.profiles.every((p) => !p.compared));

  const none = await mcpeval(
    ["guidance", "--config", config.path, "--server", "plain", "--baseline", baseline],
    { permissions },
  );
  assert.equal(none.code, 2);
  assert.equal(
    none.stderr,
    "mcpeval: --baseline is the report of one server, and this run checks no server of its label: give a fleet report, or select that server (--server demo)\n",
  );
});

Deno.test("a fleet with --baseline needs read permission for it, asked with the config file's", async () => {
  await using config = await configFile({ mcpServers: { demo: entry(DEMO) } });
  const result = await mcpeval(
    ["guidance", "--config", config.path, "--baseline", "/nonexistent/baseline.json"],
    { permissions: [`--allow-run=${DENO}`] },
  );
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    `mcpeval: Permission to read the config file and read the baseline is missing: add --allow-read=${config.path},/nonexistent/baseline.json\n`,
  );
});
