/**
 * Ends the processes that escaped a lab run's process group:
 *
 *   deno run --allow-all lab/end_escaped.ts DIR [GROUP]
 *
 * finds every process of the same user, other than this one and the lab that started it, whose
 * environment, command line or working directory (`/proc/PID/environ`, `cmdline`, `cwd`) names
 * the run's temporary folder DIR (which only that run uses) and that is not in the run's process
 * group GROUP (ended by the lab itself); sends it SIGTERM, then SIGKILL to those still running
 * after a bounded wait; and prints how many it ended (a number). Unreadable entries are skipped;
 * without `/proc` it ends none. A process of its own because Deno reads `/proc` only with every
 * permission, which the lab does not have.
 *
 * @module
 */

/** How long an escaped process is given after SIGTERM before it gets SIGKILL. */
const ESCAPED_GRACE_MS = 2_000;
/** How often it looks whether escaped processes have ended. */
const ESCAPED_POLL_MS = 50;
/** How many times it scans for escaped processes (one may start another while ending). */
const ESCAPED_SCANS = 3;

/** Whether `text` names `dir` itself or a path under it (not `dir` as a prefix of another name). */
function names(text: string, dir: string): boolean {
  for (let at = text.indexOf(dir); at !== -1; at = text.indexOf(dir, at + 1)) {
    const next = text[at + dir.length];
    if (next === undefined || next === "/" || next === "\0" || next === " ") return true;
  }
  return false;
}

/** The text of `/proc/PID/NAME`, or "" when it cannot be read. */
function procText(pid: number, name: string): string {
  try {
    return name === "cwd"
      ? Deno.readLinkSync(`/proc/${pid}/cwd`)
      : Deno.readTextFileSync(`/proc/${pid}/${name}`);
  } catch {
    return "";
  }
}

/**
 * The processes of the same user, other than this one and the lab, and outside `group`, whose
 * environment, command line or working directory names `dir` (Linux `/proc`; none where there is
 * no `/proc`). Unreadable entries are skipped.
 */
function processesNaming(dir: string, group?: number): number[] {
  let uid: number;
  let entries: Deno.DirEntry[];
  try {
    uid = Deno.statSync("/proc/self").uid!;
    entries = [...Deno.readDirSync("/proc")];
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^[0-9]+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    if (pid === Deno.pid || pid === Deno.ppid) continue;
    try {
      if (Deno.statSync(`/proc/${pid}`).uid !== uid) continue;
    } catch {
      continue;
    }
    if (group !== undefined && processGroup(pid) === group) continue;
    if (["environ", "cmdline", "cwd"].some((name) => names(procText(pid, name), dir))) {
      found.push(pid);
    }
  }
  return found;
}

/** The fields of `/proc/PID/stat` after the command name (state, ppid, pgrp, ...), or []. */
function statFields(pid: number): string[] {
  const stat = procText(pid, "stat");
  const end = stat.lastIndexOf(")");
  return end === -1 ? [] : stat.slice(end + 2).split(" ");
}

/** The process group of `pid`, or null when it is gone. */
function processGroup(pid: number): number | null {
  const group = statFields(pid)[2];
  return group === undefined ? null : Number(group);
}

/** Whether `pid` is still running (not gone, not a zombie). */
function alive(pid: number): boolean {
  const state = statFields(pid)[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

/** Sends `name` to `pid`, if it is still there. */
function signal(pid: number, name: Deno.Signal): void {
  try {
    Deno.kill(pid, name);
  } catch { /* already gone */ }
}

/**
 * Ends every process that left the run's process group (`group`, when known) but still belongs
 * to the run (its environment, command line or working directory names the run's temporary
 * folder `dir`, which only that run uses): SIGTERM, then SIGKILL to those still running after a
 * bounded wait. Returns how many it ended.
 */
async function endEscaped(dir: string, group?: number): Promise<number> {
  const ended = new Set<number>();
  for (let scan = 0; scan < ESCAPED_SCANS; scan++) {
    const found = processesNaming(dir, group).filter((pid) => !ended.has(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      ended.add(pid);
      signal(pid, "SIGTERM");
    }
    const until = Date.now() + ESCAPED_GRACE_MS;
    while (found.some(alive) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, ESCAPED_POLL_MS));
    }
    for (const pid of found.filter(alive)) signal(pid, "SIGKILL");
  }
  return ended.size;
}

if (import.meta.main) {
  const [dir, group] = Deno.args;
  const ended = dir?.startsWith("/") ? await endEscaped(dir, group ? Number(group) : undefined) : 0;
  // deno-lint-ignore no-console
  console.log(String(ended));
}
