/**
 * A run scope: a command started so that ending it ends everything it started, and nothing else.
 *
 * Where the platform gives a PID namespace (`unshare --pid --fork --kill-child`, as root or in a
 * user namespace: probed once, {@linkcode pidNamespace}), the command runs in one of its own,
 * under a small init (`sh`, pid 1) that kills the command when its standard input closes. When
 * that init exits, the kernel kills every process left in the namespace, escaped daemons included
 * (a process cannot leave its PID namespace), before `unshare` sees it exit: ending the scope is
 * closing that input and waiting for `unshare`. Nothing outside the namespace is signalled.
 *
 * Elsewhere (most CI containers), or with `MCPEVAL_LAB_SCOPE=marker` (how the tests force it), the
 * command runs in a session of its own (`setsid`) with a random marker for this scope in its
 * environment (`MCPEVAL_LAB_RUN=…`). Ending it kills its process group (whose id the kernel keeps
 * while any member lives), then `end_escaped.ts` ends the processes that left the group: only
 * those that carry the marker and started after the scope, their identity (pid and start time)
 * checked again before each signal. A process that both leaves the group and clears its
 * environment is not found that way; the namespace ends it.
 *
 * @module
 */
import { join } from "node:path";
import { endEscaped as endEscapedHere, MARKER_VARIABLE } from "./end_escaped.ts";

/** How a scope holds what its command starts: a PID namespace, or a process group and a marker. */
export type ScopeKind = "namespace" | "marker";

/** The environment variable that forces the fallback (`marker`). */
const SCOPE_VARIABLE = "MCPEVAL_LAB_SCOPE";

export { MARKER_VARIABLE };

/** The `unshare` flags to try, in order: a PID namespace, then one in a user namespace. */
const NAMESPACE_FLAGS: readonly (readonly string[])[] = [
  ["--pid", "--fork", "--kill-child"],
  ["--user", "--map-current-user", "--pid", "--fork", "--kill-child"],
  ["--user", "--map-root-user", "--pid", "--fork", "--kill-child"],
];

/**
 * The namespace's init: starts the command (its input from /dev/null), kills it when a line or
 * the end arrives on its own input, and exits with the command's status (without the shell's
 * own `Killed` line); the kernel then kills whatever is left in the namespace.
 */
const INIT = 'exec 3<&0; "$@" </dev/null 3<&- & c=$!; { read -r _ <&3; kill -KILL "$c"; } & ' +
  'wait "$c" 2>/dev/null';

/** How long the lab waits for `end_escaped.ts` as a process of its own (its waits are bounded). */
const END_ESCAPED_TIMEOUT_MS = 30_000;

let probed: readonly string[] | null | undefined;

/**
 * The `unshare` flags that give a command a PID namespace of its own on this machine, or null
 * when none works: probed once, by running a shell with each set of flags and asking it its pid
 * (1 in a namespace of its own).
 */
export function pidNamespace(): readonly string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  if (Deno.build.os !== "linux") return probed;
  for (const flags of NAMESPACE_FLAGS) {
    try {
      const { success, stdout } = new Deno.Command("unshare", {
        args: [...flags, "sh", "-c", "echo $$"],
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).outputSync();
      if (success && new TextDecoder().decode(stdout).trim() === "1") return probed = flags;
    } catch {
      return probed; // no unshare
    }
  }
  return probed;
}

/** The kind of scope {@linkcode startScope} starts now (`MCPEVAL_LAB_SCOPE=marker` forces it). */
export function scopeKind(): ScopeKind {
  return Deno.env.get(SCOPE_VARIABLE) !== "marker" && pidNamespace() ? "namespace" : "marker";
}

/** A command running in its scope. */
export interface RunScope {
  /** How the scope holds what the command starts. */
  readonly kind: ScopeKind;
  /** The process the lab started (`unshare` or `setsid`); stdout and stderr piped. */
  readonly child: Deno.ChildProcess;
  /**
   * Ends the command and everything it started; resolves once they are gone (the first call
   * does the work, later calls share it). Returns how many processes that had left the command's
   * process group a fallback scope ended (0 for a namespace, which ends them uncounted).
   */
  end(): Promise<number>;
}

/** How to start a scope's command. */
export interface ScopeOptions {
  /** Its whole environment. */
  readonly env: Record<string, string>;
  /** Its working directory. */
  readonly cwd?: string;
}

/** Starts `command` in a scope of the kind {@linkcode scopeKind} gives. */
export async function startScope(
  command: string,
  args: readonly string[],
  options: ScopeOptions,
): Promise<RunScope> {
  const kind = scopeKind();
  const spawn = (program: string, argv: readonly string[], env: Record<string, string>) =>
    new Deno.Command(program, {
      args: [...argv],
      env,
      clearEnv: true,
      cwd: options.cwd,
      stdin: kind === "namespace" ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  let ending: Promise<number> | undefined;
  if (kind === "namespace") {
    const child = spawn(
      "setsid",
      ["unshare", ...pidNamespace()!, "sh", "-c", INIT, "lab-scope", command, ...args],
      options.env,
    );
    const end = async () => {
      await child.stdin.close().catch(() => {});
      await child.status;
      return 0;
    };
    return { kind, child, end: () => ending ??= end() };
  }
  const marker = crypto.randomUUID();
  const since = await clockTicks();
  const child = spawn("setsid", [command, ...args], { ...options.env, [MARKER_VARIABLE]: marker });
  const end = async () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* the group is gone */ }
    const count = since === null ? 0 : await endEscaped(marker, since, child.pid);
    await child.status;
    return count;
  };
  return { kind, child, end: () => ending ??= end() };
}

/**
 * Now, in clock ticks since boot: the start time of a process started for that (`cat`, field 22
 * of its `/proc/self/stat`, as `end_escaped.ts` compares them), or null without `/proc`.
 */
async function clockTicks(): Promise<number | null> {
  try {
    const { stdout } = await new Deno.Command("cat", {
      args: ["/proc/self/stat"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const stat = new TextDecoder().decode(stdout);
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isInteger(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

let readable: boolean | undefined;

/** Whether this process can read `/proc` (Deno opens it only with every permission). */
function procReadable(): boolean {
  if (readable !== undefined) return readable;
  try {
    Deno.readTextFileSync("/proc/self/stat");
    return readable = true;
  } catch {
    return readable = false;
  }
}

/**
 * Ends what left a fallback scope's group, for its marker, start and group; how many it ended:
 * in this process when it can read `/proc` (`mcpeval lab` runs with every permission), else by
 * running `end_escaped.ts` with every permission (from a clone: the suite's own lab runs).
 */
async function endEscaped(marker: string, since: number, group: number): Promise<number> {
  if (procReadable()) return await endEscapedHere(marker, since, group);
  try {
    const { stdout } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-config",
        "--allow-all",
        join(import.meta.dirname!, "end_escaped.ts"),
        marker,
        String(since),
        String(group),
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(END_ESCAPED_TIMEOUT_MS),
    }).output();
    const count = Number(new TextDecoder().decode(stdout).trim());
    return Number.isInteger(count) ? count : 0;
  } catch {
    return 0; // the scanner could not run
  }
}
