/**
 * Progress off a terminal, in-process: nothing until a run has lasted `PLAIN_PROGRESS_AFTER_MS`
 * (given small here), then one line saying it is still going and one per profile that ends (one
 * server) or per server whose profiles all ended (a fleet); fixed phrases only.
 */
import assert from "node:assert/strict";
import { Progress } from "../src/cli/progress.ts";
import type { RunPlan } from "../src/run/plan.ts";
import {
  configFile,
  DENO,
  entry,
  fixture,
  hostile,
  mcpeval,
  TAIL_POINTER,
  withoutNotices,
  withoutPlainProgress,
} from "./_cli.ts";

/** A plan of `servers` (names) under `profiles`, all stdio; a fleet when `config`. */
function planOf(servers: string[], profiles: string[], config: boolean): RunPlan {
  return {
    ...(config ? { fleet: { format: "mcpServers" } } : {}),
    servers: servers.map((name) => ({ name, request: { target: { kind: "stdio" } } })),
    settings: { profiles },
    jobs: 8,
  } as unknown as RunPlan;
}

/** A progress whose writes are recorded. */
function recorded(plan: RunPlan, afterMs: number) {
  let text = "";
  const progress = new Progress(
    plan,
    (more) => {
      text += more;
      return Promise.resolve();
    },
    "plain",
    80,
    afterMs,
  );
  return { progress, text: () => text };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("off a terminal, a run shorter than the threshold prints nothing", async () => {
  const { progress, text } = recorded(planOf(["h"], ["none"], false), 60_000);
  progress.observe({ server: "h", kind: "starting", profile: "none" });
  progress.observe({ server: "h", kind: "done", profile: "none", tools: 2 });
  await progress.stop(false);
  assert.equal(text(), "");
});

Deno.test("off a terminal, a long run of one server: a line when it passes, one per profile", async () => {
  const { progress, text } = recorded(planOf(["h"], ["none", "roots"], false), 1);
  progress.observe({ server: "h", kind: "starting", profile: "none" });
  await tick(20);
  progress.observe({ server: "h", kind: "settling", profile: "none", ms: 0 });
  progress.observe({ server: "h", kind: "done", profile: "none", tools: 3 });
  progress.observe({ server: "h", kind: "starting", profile: "roots" });
  progress.observe({ server: "h", kind: "incomplete", profile: "roots", reason: "timeout" });
  await progress.stop(false);
  assert.equal(
    text(),
    "mcpeval: still discovering after 0.0 s: profiles 0 finished, 1 under way, 1 waiting\n" +
      "mcpeval: none: done, 3 tools (1 of 2 profiles finished)\n" +
      "mcpeval: roots: incomplete, timeout (2 of 2 profiles finished)\n",
  );
  // What tests that expect nothing else on stderr leave out (tests/_cli.ts).
  assert.equal(withoutPlainProgress(text()), "");
});

Deno.test("off a terminal, a long fleet: one line per server once its profiles ended", async () => {
  const { progress, text } = recorded(planOf(["a", "b"], ["none", "all"], true), 1);
  await tick(20);
  progress.observe({ server: "a", kind: "starting", profile: "none" });
  progress.observe({ server: "a", kind: "done", profile: "none", tools: 1 });
  progress.observe({ server: "b", kind: "starting", profile: "none" });
  progress.observe({ server: "b", kind: "incomplete", profile: "none", reason: "list-error" });
  progress.observe({ server: "b", kind: "incomplete", profile: "all", reason: "server-silent" });
  progress.observe({ server: "a", kind: "starting", profile: "all" });
  progress.observe({ server: "a", kind: "done", profile: "all", tools: 1 });
  // Another server's line goes through as it is (a server's stderr with inherit).
  await progress.above("[a none] a line\n");
  await progress.stop(false);
  assert.equal(
    text(),
    "mcpeval: still discovering after 0.0 s: profiles 0 finished, 0 under way, 4 waiting\n" +
      "mcpeval: server b finished, 0 of 2 profiles complete (1 of 2 servers finished)\n" +
      "mcpeval: server a finished, 2 of 2 profiles complete (2 of 2 servers finished)\n" +
      "[a none] a line\n",
  );
  assert.equal(withoutPlainProgress(text()), "[a none] a line\n");
});

Deno.test("a long fleet through the CLI, piped: plain lines after 10 s, none with --quiet", async () => {
  // One server never answers tools/list (11 s to its timeout); the other is done at once.
  await using config = await configFile({
    mcpServers: { slow: entry(hostile("silent-list")), demo: entry(fixture("demo/server.ts")) },
  });
  const args = [
    "guidance",
    "--config",
    config.path,
    "--profile",
    "none",
    "--settle-ms",
    "0",
    "--timeout-ms",
    "11000",
  ];
  const options = {
    permissions: [`--allow-run=${DENO}`, `--allow-read=${config.path}`],
    boundMs: 120_000,
  };
  const [plain, quiet] = await Promise.all([
    mcpeval(args, options),
    mcpeval([...args, "--quiet"], options),
  ]);
  assert.equal(plain.code, 3, plain.stderr);
  // Its stderr discarded, the server that timed out gets one line naming --server-stderr tail.
  assert.match(plain.stderr, TAIL_POINTER);
  const lines = plain.stderr.replaceAll(TAIL_POINTER, "").split("\n").slice(0, -1);
  assert.match(
    lines[0],
    /^mcpeval: still discovering after 10\.0 s: profiles [01] finished, [12] under way, 0 waiting$/,
  );
  assert.equal(
    lines.at(-1),
    "mcpeval: server slow finished, 0 of 1 profiles complete (2 of 2 servers finished)",
  );
  // A slow machine may finish demo after 10 s too: its line is the only other one.
  assert.deepEqual(
    lines.slice(1, -1).filter((line) => !line.startsWith("mcpeval: server demo finished, 1 of 1")),
    [],
  );
  assert.equal(withoutNotices(plain.stderr), "");
  assert.equal(quiet.code, 3);
  assert.equal(quiet.stderr, "");
});
