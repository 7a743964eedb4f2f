/**
 * The client lab ends what escaped a client's process group: a stand-in client
 * (`fixtures/lab_escaping_client.sh`, no real client) starts a process in its own session with
 * the run's HOME and working directory; when the lab's run returns (the client exited, timed
 * out, or its driver failed) or the lab is stopped, that process is gone and the temporary
 * folder removed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Driver, RunContext } from "../lab/driver.ts";
import { endGroups, runOnce, type Seen } from "../lab/run.ts";
import { ROOT } from "./_cli.ts";

const CLIENT = join(ROOT, "fixtures", "lab_escaping_client.sh");

/** A driver that runs the stand-in client in `mode`, and tells the run's context. */
function fakeDriver(mode: "exit" | "hang", seen: (context: RunContext) => void): Driver {
  return {
    id: "fake",
    package: "fake-client",
    version: "0.0.0",
    api: "anthropic",
    prepare: (context) => {
      seen(context);
      return Promise.resolve({ bin: "bin/sh", args: [CLIENT, mode], env: {} });
    },
  };
}

/**
 * Whether `pid` is running (not gone, not a zombie): `/proc` read by `cat` (Deno reads it only
 * with every permission). If it is, and `end`, it is ended, so that a failing test leaves nothing.
 */
async function alive(pid: number, end = false): Promise<boolean> {
  const { stdout } = await new Deno.Command("cat", {
    args: [`/proc/${pid}/stat`],
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const stat = new TextDecoder().decode(stdout);
  const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
  const running = stat !== "" && state !== "Z" && state !== "X";
  if (running && end) Deno.kill(pid, "SIGKILL");
  return running;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The escaped pid the stand-in client printed, if it got that far. */
function escapedPid(seen: Seen): number | undefined {
  const line = seen.ran.output.find((l) => l.startsWith("escaped "));
  return line ? Number(line.slice("escaped ".length)) : undefined;
}

/** The temporary folder of a run (the parent of its HOME). */
const folderOf = (context: RunContext) => context.home.slice(0, context.home.lastIndexOf("/"));

const options = (runTimeoutMs: number, counts: number[]) => ({
  installTimeoutMs: 1_000,
  runTimeoutMs,
  date: "2026-01-01",
  onEscaped: (count: number) => counts.push(count),
});

Deno.test("a process that left the group after the client exited is ended, the folder removed", async () => {
  let context: RunContext | undefined;
  const counts: number[] = [];
  const seen = await runOnce(
    fakeDriver("exit", (c) => context = c),
    "/",
    [],
    options(120_000, counts),
  );
  const pid = escapedPid(seen);
  assert.ok(pid !== undefined && pid > 0, "the stand-in client printed its escaped pid");
  assert.equal(await alive(pid, true), false);
  assert.deepEqual(counts, [1]);
  assert.equal(seen.ran.timedOut, false);
  assert.equal(await exists(folderOf(context!)), false);
});

Deno.test("on timeout, a process that left the group (holding the output open) is ended", async () => {
  let context: RunContext | undefined;
  const counts: number[] = [];
  const seen = await runOnce(
    fakeDriver("hang", (c) => context = c),
    "/",
    [],
    options(5_000, counts),
  );
  assert.equal(seen.ran.timedOut, true);
  const pid = escapedPid(seen);
  if (pid !== undefined) {
    assert.equal(await alive(pid, true), false);
    assert.ok(counts[0] >= 1);
  }
  assert.equal(await exists(folderOf(context!)), false);
});

Deno.test("when the driver fails, a process it left in the run's folder is ended", async () => {
  let child: Deno.ChildProcess | undefined;
  let folder = "";
  const counts: number[] = [];
  const driver: Driver = {
    id: "fake",
    package: "fake-client",
    version: "0.0.0",
    api: "anthropic",
    prepare: (context) => {
      folder = folderOf(context);
      child = new Deno.Command("setsid", {
        args: ["sleep", "120"],
        cwd: context.work,
        env: { HOME: context.home },
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      return Promise.reject(new Error("prepare failed"));
    },
  };
  await assert.rejects(runOnce(driver, "/", [], options(120_000, counts)), /prepare failed/);
  assert.ok(child);
  const status = await child.status; // ended by the lab (bounded: sleep 120 at most)
  assert.equal(status.success, false);
  assert.deepEqual(counts, [1]);
  assert.equal(await exists(folder), false);
});

Deno.test("stopping the lab (endGroups) ends what escaped a running client", async () => {
  let context: RunContext | undefined;
  const counts: number[] = [];
  const run = runOnce(fakeDriver("hang", (c) => context = c), "/", [], options(120_000, counts));
  let stopped = false;
  try {
    // Wait (bounded) until the stand-in client has a process in its own session in the run.
    let pid: number | undefined;
    for (let tries = 0; tries < 1200 && pid === undefined; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!context) continue;
      pid = await Deno.readTextFile(join(context.home, "escaped.pid")).then(
        (text) => text.endsWith("\n") ? Number(text) : undefined,
        () => undefined,
      );
    }
    assert.ok(pid !== undefined, "the stand-in client started its escaped process");
    const ended = await endGroups();
    stopped = true;
    assert.ok(ended >= 1);
    const seen = await run; // its group was ended: the run returns
    assert.equal(await alive(pid, true), false);
    assert.equal(escapedPid(seen), pid);
    assert.equal(await exists(folderOf(context!)), false);
  } finally {
    if (!stopped) await endGroups();
    await run.catch(() => {});
  }
});
