/**
 * The client lab ends what its client started and nothing else, in a PID namespace and in the
 * fallback (forced with `MCPEVAL_LAB_SCOPE=marker`): a stand-in client
 * (`fixtures/lab_escaping_client.sh`, no real client) starts a process in its own session; when
 * the lab's run returns (the client exited or timed out) or the lab is stopped, that process is
 * gone and the temporary folder removed, while four processes the test started beside the run,
 * each naming its folder (a shell working there, `OLDPWD`, `tail -f` of a file there, a shell
 * that ignores SIGTERM), are still running. With the op and resource sanitizers on.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Driver, RunContext } from "../src/lab/driver.ts";
import { endScopes, runOnce, type Seen } from "../src/lab/run.ts";
import { MARKER_VARIABLE, pidNamespace, type ScopeKind, scopeKind } from "../src/lab/scope.ts";
import { DENO, ROOT } from "./_cli.ts";

const CLIENT = join(ROOT, "fixtures", "lab_escaping_client.sh");

/** Deno 2.9 leaves these off by default: on, a test that leaves a timer or a resource fails. */
const SANITIZED = { sanitizeOps: true, sanitizeResources: true } as const;

const KINDS: readonly { kind: ScopeKind; ignore: boolean }[] = [
  { kind: "namespace", ignore: pidNamespace() === null },
  { kind: "marker", ignore: Deno.build.os !== "linux" },
];

/** Runs `fn` with the lab's scopes of `kind` (the fallback forced through its variable). */
async function withScope(kind: ScopeKind, fn: () => Promise<void>): Promise<void> {
  const name = "MCPEVAL_LAB_SCOPE";
  const was = Deno.env.get(name);
  if (kind === "marker") Deno.env.set(name, "marker");
  else Deno.env.delete(name);
  try {
    assert.equal(scopeKind(), kind);
    await fn();
  } finally {
    if (was === undefined) Deno.env.delete(name);
    else Deno.env.set(name, was);
  }
}

/** A driver that runs the stand-in client in `mode`, and tells the run's context first. */
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
 * The command name, state and start time (clock ticks since boot) of process `pid` (from
 * `/proc`, read by `cat`; `self`: that `cat`), or null.
 */
async function processState(
  pid: number | "self",
): Promise<{ comm: string; state: string; start: number } | null> {
  const { stdout } = await new Deno.Command("cat", {
    args: [`/proc/${pid}/stat`],
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const stat = new TextDecoder().decode(stdout);
  const end = stat.lastIndexOf(")");
  if (end === -1) return null;
  const fields = stat.slice(end + 2).split(" ");
  return {
    comm: stat.slice(stat.indexOf("(") + 1, end),
    state: fields[0],
    start: Number(fields[19]),
  };
}

/** Whether `pid` is running (not gone, not a zombie). */
async function alive(pid: number): Promise<boolean> {
  const found = await processState(pid);
  return found !== null && found.state !== "Z" && found.state !== "X";
}

/** Ends the stand-in's escaped process if a failing lab left it (still a `sleep`). */
async function endLeftDaemon(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const found = await processState(pid);
  if (found?.comm === "sleep" && found.state !== "Z") Deno.kill(pid, "SIGKILL");
}

/** A process the test started beside a run, naming the run's folder. */
interface Bystander {
  readonly what: string;
  readonly child: Deno.ChildProcess;
  /** Whether its status came (it ended and was reaped). */
  readonly ended: () => boolean;
}

/** Starts the four bystanders of `folder`: none started by the lab, each named by its folder. */
function startBystanders(folder: string): Bystander[] {
  const file = join(folder, "home", "notes.txt");
  Deno.writeTextFileSync(file, "");
  const start = (what: string, command: string, args: string[], more: Deno.CommandOptions = {}) => {
    const child = new Deno.Command(command, {
      args,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
      ...more,
    }).spawn();
    let ended = false;
    void child.status.then(() => ended = true);
    return { what, child, ended: () => ended };
  };
  return [
    start("a shell working in the folder", "sh", ["-c", "read -r _"], {
      cwd: join(folder, "work"),
    }),
    start("a process whose OLDPWD names it", "sleep", ["600"], {
      env: { OLDPWD: join(folder, "work") },
    }),
    start("tail -f of a file in it", "tail", ["-f", file]),
    start("a shell ignoring SIGTERM that names it", "sh", [
      "-c",
      'trap "" TERM; read -r _',
      "sh",
      folder,
    ]),
  ];
}

/** Asserts that every bystander is still running. */
async function assertAlive(bystanders: readonly Bystander[]): Promise<void> {
  for (const { what, child, ended } of bystanders) {
    assert.ok(!ended() && await alive(child.pid), `the lab left alive ${what}`);
  }
}

/** Ends the bystanders (also when the test failed) and waits for them. */
async function endBystanders(bystanders: readonly Bystander[]): Promise<void> {
  for (const { child } of bystanders) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.stdin.close().catch(() => {});
    await child.status;
  }
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

/** How many escaped processes a scope of `kind` counts: the fallback counts what it ended. */
const counted = (kind: ScopeKind, count: number) => kind === "namespace" ? 0 : count;

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name: `${kind}: the client exited: what left its group is ended, four bystanders are not`,
    ignore,
    ...SANITIZED,
    fn: () =>
      withScope(kind, async () => {
        let context: RunContext | undefined;
        let bystanders: Bystander[] = [];
        let pid: number | undefined;
        const counts: number[] = [];
        try {
          const driver = fakeDriver("exit", (c) => {
            context = c;
            bystanders = startBystanders(folderOf(c));
          });
          const seen = await runOnce(driver, "/", [], options(120_000, counts));
          pid = escapedPid(seen);
          assert.ok(pid !== undefined && pid > 0, "the stand-in client printed its escaped pid");
          assert.equal(await alive(pid), false);
          assert.deepEqual(counts, [counted(kind, 1)]);
          assert.equal(seen.ran.timedOut, false);
          assert.equal(await exists(folderOf(context!)), false);
          await assertAlive(bystanders);
        } finally {
          await endLeftDaemon(pid);
          await endBystanders(bystanders);
        }
      }),
  });

  Deno.test({
    name:
      `${kind}: on timeout, what left the group (holding the output open) is ended, not the bystanders`,
    ignore,
    ...SANITIZED,
    fn: () =>
      withScope(kind, async () => {
        let context: RunContext | undefined;
        let bystanders: Bystander[] = [];
        let pid: number | undefined;
        const counts: number[] = [];
        try {
          const driver = fakeDriver("hang", (c) => {
            context = c;
            bystanders = startBystanders(folderOf(c));
          });
          const seen = await runOnce(driver, "/", [], options(5_000, counts));
          assert.equal(seen.ran.timedOut, true);
          pid = escapedPid(seen);
          if (pid !== undefined) { // the stand-in got that far before the timeout
            assert.equal(await alive(pid), false);
            assert.deepEqual(counts, [counted(kind, 1)]);
          }
          assert.equal(await exists(folderOf(context!)), false);
          await assertAlive(bystanders);
        } finally {
          await endLeftDaemon(pid);
          await endBystanders(bystanders);
        }
      }),
  });

  Deno.test({
    name:
      `${kind}: stopping the lab ends what escaped a running client, not bystanders started after it`,
    ignore,
    ...SANITIZED,
    fn: () =>
      withScope(kind, async () => {
        // The stand-in client writes its escaped pid to `$HOME/escaped.pid` once that process
        // has its own session: a FIFO here, opened both ways by the test (which never blocks),
        // so that the test reads the line when it comes, or the empty line it writes itself
        // once the run is over.
        let home = "";
        let fifo: { reader: Deno.FsFile; writer: Deno.FsFile } | undefined;
        const prepared = Promise.withResolvers<void>();
        const counts: number[] = [];
        const run = runOnce(
          {
            ...fakeDriver("hang", () => {}),
            prepare: async (context) => {
              home = context.home;
              const path = join(home, "escaped.pid");
              await new Deno.Command("mkfifo", { args: [path] }).output();
              const reader = await Deno.open(path, { read: true, write: true });
              fifo = { reader, writer: await Deno.open(path, { write: true }) };
              prepared.resolve();
              return fakeDriver("hang", () => {}).prepare(context);
            },
          },
          "/",
          [],
          options(120_000, counts),
        );
        const over = run.finally(() => fifo?.writer.write(new TextEncoder().encode("\n")))
          .catch(() => {}); // the run's own outcome is awaited below
        let bystanders: Bystander[] = [];
        let pid: number | undefined;
        let stopped = false;
        try {
          await Promise.race([prepared.promise, run]);
          assert.ok(fifo, "the driver prepared the run");
          const buffer = new Uint8Array(64);
          const read = await fifo.reader.read(buffer);
          pid = Number(new TextDecoder().decode(buffer.subarray(0, read ?? 0)).trim()) || undefined;
          assert.ok(pid !== undefined, "the stand-in client started its escaped process");
          // Started after the run, as the lab's own processes are: only the marker tells them.
          bystanders = startBystanders(home.slice(0, home.lastIndexOf("/")));
          const ended = await endScopes();
          stopped = true;
          assert.equal(ended, counted(kind, 1));
          const seen = await run; // its scope was ended: the run returns
          assert.deepEqual(counts, [counted(kind, 1)]);
          assert.equal(await alive(pid), false);
          assert.equal(escapedPid(seen), pid);
          assert.equal(await exists(home), false);
          await assertAlive(bystanders);
        } finally {
          if (!stopped) await endScopes();
          await over;
          fifo?.reader.close();
          fifo?.writer.close();
          await endLeftDaemon(pid);
          await endBystanders(bystanders);
        }
      }),
  });
}

Deno.test({
  name: "when the driver fails, no scope starts: the folder is removed, bystanders left alone",
  ...SANITIZED,
  fn: async () => {
    let folder = "";
    let bystanders: Bystander[] = [];
    const counts: number[] = [];
    const driver: Driver = {
      id: "fake",
      package: "fake-client",
      version: "0.0.0",
      api: "anthropic",
      prepare: (context) => {
        folder = folderOf(context);
        bystanders = startBystanders(folder);
        return Promise.reject(new Error("prepare failed"));
      },
    };
    try {
      await assert.rejects(runOnce(driver, "/", [], options(120_000, counts)), /prepare failed/);
      assert.deepEqual(counts, [0]);
      assert.equal(await exists(folder), false);
      await assertAlive(bystanders);
    } finally {
      await endBystanders(bystanders);
    }
  },
});

Deno.test({
  name:
    "the fallback's scanner ends only processes that carry the marker and started after the scope",
  ignore: Deno.build.os !== "linux",
  ...SANITIZED,
  fn: async () => {
    const marker = crypto.randomUUID();
    const sleep = (env: Record<string, string>) =>
      new Deno.Command("sleep", { args: ["600"], env, stdout: "null", stderr: "null" }).spawn();
    const children: Deno.ChildProcess[] = [];
    try {
      const before = sleep({ [MARKER_VARIABLE]: marker });
      children.push(before);
      const started = (await processState(before.pid))!.start;
      // The scope's start: the first clock tick after `before` started (real processes, no sleep).
      let since = started;
      while (since <= started) since = (await processState("self"))!.start;
      const after = sleep({ [MARKER_VARIABLE]: marker });
      const other = sleep({ [MARKER_VARIABLE]: crypto.randomUUID() });
      children.push(after, other);
      const { stdout } = await new Deno.Command(DENO, {
        args: [
          "run",
          "--quiet",
          "--no-config",
          "--allow-all",
          join(ROOT, "src", "lab", "end_escaped.ts"),
          marker,
          String(since),
          "0",
        ],
        stdout: "piped",
        stderr: "null",
      }).output();
      assert.equal(new TextDecoder().decode(stdout).trim(), "1");
      assert.equal((await after.status).signal, "SIGTERM");
      assert.ok(await alive(before.pid), "a marked process from before the scope is left alone");
      assert.ok(await alive(other.pid), "a process with another marker is left alone");
    } finally {
      for (const child of children) {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
        await child.status;
      }
    }
  },
});
