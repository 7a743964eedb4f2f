/**
 * Ends the processes that left a fallback run scope's process group (`scope.ts`): in the lab's
 * own process when it can read `/proc` (Deno opens it only with every permission, which
 * `mcpeval lab` has), else as a process of its own:
 *
 *   deno run --allow-all src/lab/end_escaped.ts MARKER SINCE GROUP
 *
 * {@linkcode endEscaped} finds every process outside process group GROUP (ended by the scope itself) that started at or
 * after SINCE (clock ticks since boot, field 22 of `/proc/PID/stat`) and whose environment holds
 * the entry `MCPEVAL_LAB_RUN=MARKER` exactly (a random marker the scope set, so no other
 * process carries it); sends each SIGTERM, then SIGKILL to those still running after a bounded
 * wait, each signal only after checking that the pid still names the process it found (the same
 * start time, not a zombie); and prints how many it ended (a number). Unreadable entries are
 * skipped; without `/proc` it ends none.
 *
 * @module
 */
/** The environment variable that carries a fallback scope's random marker. */
export const MARKER_VARIABLE = "MCPEVAL_LAB_RUN";

/** How long an escaped process is given after SIGTERM before it gets SIGKILL. */
const ESCAPED_GRACE_MS = 2_000;
/** How often it looks whether escaped processes have ended. */
const ESCAPED_POLL_MS = 50;
/** How many times it scans for escaped processes (one may start another while ending). */
const ESCAPED_SCANS = 3;

/** A process as found: its pid and its start time (together, its identity). */
interface Found {
  readonly pid: number;
  readonly start: string;
}

/** The text of `/proc/PID/NAME`, or "" when it cannot be read. */
function procText(pid: number, name: string): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/${name}`);
  } catch {
    return "";
  }
}

/** The fields of `/proc/PID/stat` after the command name (state, ppid, pgrp, ...), or []. */
function statFields(pid: number): string[] {
  const stat = procText(pid, "stat");
  const end = stat.lastIndexOf(")");
  return end === -1 ? [] : stat.slice(end + 2).split(" ");
}

/** Whether `found` is still running: the same start time at its pid, and not a zombie. */
function running(found: Found): boolean {
  const fields = statFields(found.pid);
  return fields[19] === found.start && fields[0] !== "Z" && fields[0] !== "X";
}

/** The running processes outside `group`, started at or after `since`, that carry `entry`. */
function marked(entry: string, since: number, group: number): Found[] {
  let names: string[];
  try {
    names = [...Deno.readDirSync("/proc")].map((e) => e.name).filter((n) => /^[0-9]+$/.test(n));
  } catch {
    return [];
  }
  const found: Found[] = [];
  for (const pid of names.map(Number)) {
    if (pid === Deno.pid) continue;
    const fields = statFields(pid);
    if (fields.length < 20 || Number(fields[2]) === group || Number(fields[19]) < since) continue;
    if (!procText(pid, "environ").split("\0").includes(entry)) continue;
    const process = { pid, start: fields[19] };
    if (running(process)) found.push(process);
  }
  return found;
}

/** Waits, at most `ms`, until none of `found` is running. */
async function gone(found: readonly Found[], ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (found.some(running) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, ESCAPED_POLL_MS));
  }
}

/** Sends `name` to `found` if it is still that process. */
function signal(found: Found, name: Deno.Signal): void {
  if (!running(found)) return;
  try {
    Deno.kill(found.pid, name);
  } catch { /* already gone */ }
}

/**
 * Ends the processes outside `group` that started at or after `since` and carry `marker`:
 * SIGTERM, then SIGKILL to those still running after a bounded wait, and a bounded wait for
 * them to be gone. Returns how many it ended.
 */
export async function endEscaped(
  marker: string,
  since: number,
  group: number,
): Promise<number> {
  const entry = `${MARKER_VARIABLE}=${marker}`;
  const ended = new Set<string>();
  for (let scan = 0; scan < ESCAPED_SCANS; scan++) {
    const found = marked(entry, since, group).filter((p) => !ended.has(`${p.pid}/${p.start}`));
    if (found.length === 0) break;
    for (const process of found) {
      ended.add(`${process.pid}/${process.start}`);
      signal(process, "SIGTERM");
    }
    await gone(found, ESCAPED_GRACE_MS);
    for (const process of found) signal(process, "SIGKILL");
    await gone(found, ESCAPED_GRACE_MS);
  }
  return ended.size;
}

if (import.meta.main) {
  const [marker, since, group] = Deno.args;
  const valid = /^[0-9a-f-]{36}$/.test(marker ?? "") && /^[0-9]+$/.test(since ?? "") &&
    /^[0-9]+$/.test(group ?? "");
  const ended = valid ? await endEscaped(marker, Number(since), Number(group)) : 0;
  // deno-lint-ignore no-console
  console.log(String(ended));
}
