/** No process of the server's outlives mcpeval: the shutdown ladder and the group sweep. */
import assert from "node:assert/strict";
import { SHUTDOWN_GRACE_MS, SHUTDOWN_TERM_MS } from "../src/limits.ts";
import {
  assertInterrupted,
  assertValidReport,
  fixtureLog,
  guidanceJson,
  hostile,
  isRunning,
  mcpeval,
  spawnMcpeval,
  waitUntil,
  withoutPlainProgress,
  wrapper,
} from "./_cli.ts";

type Pids = { wrapper: number; server: number; sleeper: number };

/**
 * Runs mcpeval on the wrapper fixture and returns the exit code, the wall time, the process ids
 * of each run's wrapper, server and sleeper, and the processes that outlived mcpeval (killed
 * since; only allowed with `leavesProcesses`).
 */
async function runWrapper(
  guidanceArgs: string[],
  wrapperFlags: string[],
  { permissions, leavesProcesses }: { permissions?: string[]; leavesProcesses?: boolean } = {},
): Promise<
  {
    code: number;
    profiles: number;
    runs: Pids[];
    leftovers: readonly number[];
    stderr: string;
  }
> {
  await using log = await fixtureLog();
  const { code, stdout, stderr, leftovers } = await mcpeval(
    [
      "guidance",
      "--format",
      "json",
      "--server",
      "w",
      "--settle-ms",
      "0",
      ...guidanceArgs,
      "--",
      ...wrapper("default", ...wrapperFlags),
    ],
    { permissions, leavesProcesses, env: { MCPEVAL_FIXTURE_LOG: log.path } },
  );
  const report = JSON.parse(stdout);
  await assertValidReport(report);
  const runs = log.entries().filter((e): e is Pids =>
    typeof e === "object" && e !== null && "wrapper" in e
  );
  return { code, profiles: report.profiles.length, runs, leftovers, stderr };
}

Deno.test({
  name: "a wrapper's server and the grandchild it forked are all gone after the run",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // Unscoped --allow-run lets mcpeval signal the whole process group (Deno.kill needs it).
    const { code, profiles, runs, stderr } = await runWrapper([], [], {
      permissions: ["--allow-run"],
    });
    assert.equal(code, 0);
    assert.equal(withoutPlainProgress(stderr), "", "nothing was left to report");
    assert.equal(profiles, 5);
    assert.equal(runs.length, 5);
    for (const pids of runs) {
      for (const [role, pid] of Object.entries(pids)) {
        assert.ok(!isRunning(pid), `${role} ${pid} survived`);
      }
    }
  },
});

Deno.test({
  name: "with a narrow --allow-run the wrapper and its server still end (stdin EOF, then signals)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { code, runs: [pids], leftovers, stderr } = await runWrapper(["--profile", "none"], [], {
      leavesProcesses: true,
    });
    assert.equal(code, 0);
    // The sleeper holds neither stdout nor stderr: mcpeval cannot tell it is there.
    assert.equal(withoutPlainProgress(stderr), "");
    assert.ok(!isRunning(pids.wrapper) && !isRunning(pids.server));
    // The sleeper can only be reached by a group signal, which Deno allows only with an
    // unscoped --allow-run (see README): it was the one process left (and is killed since).
    assert.deepEqual(leftovers, [pids.sleeper]);
  },
});

Deno.test({
  name: "a leftover process that holds stdout and stderr open does not keep mcpeval waiting",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // The sleeper never exits by itself: had mcpeval waited for the pipes, this would not return.
    const { code, runs: [pids], leftovers, stderr } = await runWrapper(["--profile", "none"], [
      "--sleeper-holds-pipes",
    ], { leavesProcesses: true });
    assert.equal(code, 0);
    // It is named on stderr by the one pid mcpeval knows: the server's, its process group's.
    assert.equal(
      stderr,
      `mcpeval: profile none: a process the server started (process group ${pids.wrapper}) still holds its output open; with a narrow --allow-run mcpeval may signal only the server itself: end it with 'kill -- -${pids.wrapper}', or grant --allow-run without a list\n`,
    );
    // With a narrow --allow-run it cannot be signalled: it was left (and is killed since).
    assert.deepEqual(leftovers, [pids.sleeper]);
  },
});

Deno.test({
  name: "a process that left the server's process group and holds its output is named on stderr",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { code, runs: [pids], leftovers, stderr } = await runWrapper(["--profile", "none"], [
      "--sleeper-escapes",
    ], { permissions: ["--allow-run"], leavesProcesses: true });
    assert.equal(code, 0);
    assert.deepEqual(leftovers, [pids.sleeper]);
    assert.equal(
      stderr,
      `mcpeval: profile none: a process the server ${pids.wrapper} started left its process group and still holds its output open; mcpeval could not stop it\n`,
    );
  },
});

Deno.test({
  name: "a server that ignores stdin EOF and SIGTERM is killed within the ladder",
  // Windows has no SIGTERM to ignore; there the ladder ends in TerminateProcess at once.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    const { code, ms } = await guidanceJson(
      ["--server", "s", "--profile", "none", "--settle-ms", "0", "--", ...hostile("stubborn")],
      { env: { MCPEVAL_FIXTURE_LOG: log.path } },
    );
    assert.equal(code, 0);
    const entries = log.entries() as { pid?: number; signal?: string }[];
    const pid = entries.find((e) => e.pid)!.pid!;
    assert.ok(!isRunning(pid), `server ${pid} survived`);
    assert.ok(entries.some((e) => e.signal === "SIGTERM"), "SIGTERM was sent before SIGKILL");
    // The grace period and the SIGTERM wait, then SIGKILL: a lower bound, which no machine's
    // speed can break (the upper bound, the ladder's length, is measured by nothing here).
    assert.ok(ms > SHUTDOWN_GRACE_MS + SHUTDOWN_TERM_MS, `took only ${ms} ms`);
  },
});

Deno.test({
  name: "SIGINT stops discovery: every server process is stopped, exit 130, no report",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    const running = spawnMcpeval(
      ["guidance", "--server", "s", "--settle-ms", "0", "--", ...hostile("silent-list")],
      { env: { MCPEVAL_FIXTURE_LOG: log.path } },
    );
    const received = () => log.received("tools/list");
    // Bounded wait until all five servers are waiting on tools/list.
    await waitUntil(() => received() >= 5, 20_000, 50);
    assert.equal(received(), 5);
    assertInterrupted(await running.stop("SIGINT"));
    const pids = log.pids();
    assert.equal(pids.length, 5);
    for (const pid of pids) assert.ok(!isRunning(pid), `server ${pid} survived`);
    await running.assertNoneLeft("mcpeval interrupted");
  },
});
