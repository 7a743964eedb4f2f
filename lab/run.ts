/**
 * One lab run of one client: install it from the npm registry at its pinned version (cached),
 * start the stand-in, write the client's config in a temporary HOME, run one headless prompt
 * in its own process group under a timeout, end the whole group and every process that left it
 * but still names the run's temporary folder, read the observation, and remove the folder.
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Driver, ServerSpec } from "./driver.ts";
import { observe } from "./observe.ts";
import type { Observation } from "./observation.ts";
import { PROBE_SERVER_IDS, REVISION_SERVER_IDS } from "./probe_catalog.ts";
import { type Recorded, startStandIn } from "./stand_in.ts";

/** The lab's folder. */
export const LAB = resolve(import.meta.dirname!);
const ROOT = resolve(LAB, "..");

/** Where installs are cached: `$MCPEVAL_LAB_CACHE`, else `lab/.cache` (git-ignored). */
export const cacheDir = (): string => Deno.env.get("MCPEVAL_LAB_CACHE") ?? join(LAB, ".cache");

/** The install prefix of one package version (`PKG` with `@` dropped and `/` as `+`). */
export const installDir = (driver: Pick<Driver, "package" | "version">): string =>
  join(cacheDir(), `${driver.package.replace(/^@/, "").replace("/", "+")}@${driver.version}`);

/** Why a step failed, as a fixed phrase. */
export class LabError extends Error {}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Installs the driver's package into its cached prefix (once per version), bounded. */
export async function install(driver: Driver, timeoutMs: number): Promise<string> {
  const dir = installDir(driver);
  const marker = join(dir, ".lab-installed");
  if (await exists(marker)) return dir;
  await Deno.mkdir(dir, { recursive: true });
  const { code } = await runGroup(
    "npm",
    [
      "install",
      "--prefix",
      dir,
      "--no-fund",
      "--no-audit",
      "--loglevel=error",
      `${driver.package}@${driver.version}`,
    ],
    // In the prefix: from a folder holding PKG@VERSION, npm would take the spec for that folder.
    // npm with the caller's whole environment (its registry, proxy and CA settings).
    { env: Deno.env.toObject(), cwd: dir },
    timeoutMs,
  );
  if (code !== 0) throw new LabError("could not be installed from the npm registry");
  await Deno.writeTextFile(marker, `${driver.package}@${driver.version}\n`);
  return dir;
}

/** How one process group ran. */
export interface Ran {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly output: string[];
  /** How many escaped processes were ended on timeout or at the client's exit. */
  readonly escaped: number;
  /** The process group (its leader's pid). */
  readonly group: number;
}

const MAX_OUTPUT = 4 * 1024 * 1024;

/** The process groups running now (a client or npm), ended by {@linkcode endGroups}. */
const running = new Set<number>();

/** The temporary folders in use now, removed by {@linkcode endGroups}. */
const temporary = new Set<string>();

/** How long the lab waits for {@linkcode endEscaped}'s scanner (its waits are bounded). */
const ESCAPED_SCAN_TIMEOUT_MS = 30_000;

/**
 * Ends every process that left the run's process group (`group`, when known) but still belongs
 * to the run: its environment, command line or working directory names the run's temporary
 * folder `dir`, which only that run uses. SIGTERM, then SIGKILL after a bounded wait (see
 * `lab/end_escaped.ts`: Deno reads `/proc` only with every permission, so that is a process of
 * its own). Returns how many it ended.
 */
export async function endEscaped(dir: string, group?: number): Promise<number> {
  try {
    const { stdout } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-config",
        "--allow-all",
        join(LAB, "end_escaped.ts"),
        dir,
        ...(group === undefined ? [] : [String(group)]),
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(ESCAPED_SCAN_TIMEOUT_MS),
    }).output();
    const count = Number(new TextDecoder().decode(stdout).trim());
    return Number.isInteger(count) ? count : 0;
  } catch {
    return 0; // no /proc, or the scanner could not run
  }
}

/**
 * Ends every process group the lab started that is still running and every process that
 * escaped one of them, and removes its temporary folders (on SIGINT or SIGTERM, when no
 * `finally` will run). Returns how many escaped processes it ended.
 */
export async function endGroups(): Promise<number> {
  stopping++;
  try {
    return await endAll();
  } finally {
    stopping--;
  }
}

/**
 * How many {@linkcode endGroups} calls are under way: the runs they stop leave the escaped
 * processes to them (and their count), rather than scanning too, and no new group starts.
 */
let stopping = 0;

async function endAll(): Promise<number> {
  for (const pid of running) {
    try {
      Deno.kill(-pid, "SIGKILL");
    } catch { /* already gone */ }
  }
  running.clear();
  let escaped = 0;
  for (const dir of [...temporary]) {
    escaped += await endEscaped(dir);
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* already gone */ }
    temporary.delete(dir);
  }
  return escaped;
}

/**
 * Runs `command` as the leader of a new session (`setsid`), so that on timeout or exit the
 * whole group (the client and every MCP server it started) is ended; on timeout, and once the
 * client has exited, also the processes that escaped it naming `options.owned` (the run's
 * temporary folder), which may hold its output open.
 */
async function runGroup(
  command: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; owned?: string },
  timeoutMs: number,
): Promise<Ran> {
  // The lab is being stopped: nothing new may start before it exits.
  if (stopping > 0) throw new LabError("stopped");
  const child = new Deno.Command("setsid", {
    args: [command, ...args],
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  running.add(child.pid);
  const killGroup = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* already gone */ }
    running.delete(child.pid);
  };
  let timedOut = false;
  let escaped: Promise<number> = Promise.resolve(0);
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
    if (options.owned) escaped = endEscaped(options.owned, child.pid);
  }, timeoutMs);
  // A process that left the group may hold the output open: once the client has exited, end it.
  const atExit = child.status.then(() =>
    options.owned && !timedOut && stopping === 0 ? endEscaped(options.owned, child.pid) : 0
  );
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    let text = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      if (text.length < MAX_OUTPUT) text += chunk;
    }
    return text;
  };
  const [status, out, err] = await Promise.all([
    child.status,
    collect(child.stdout),
    collect(child.stderr),
  ]).catch(async () => [await child.status, "", ""] as const);
  clearTimeout(timer);
  killGroup();
  return {
    code: status.code,
    timedOut,
    output: `${out}\n${err}`.split("\n"),
    escaped: (await escaped) + (await atExit),
    group: child.pid,
  };
}

/** The common environment of every client run: a temporary HOME, telemetry and updates off. */
function commonEnv(home: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    TMPDIR: join(home, "tmp"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    DO_NOT_TRACK: "1",
    NO_UPDATE_NOTIFIER: "1",
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
  };
}

/** The probe servers (tool probes, then revision probes) as stdio commands (deno, with the project's config and deno dir). */
function probeServers(ids: readonly string[], record: string, denoDir: string): ServerSpec[] {
  const deno = Deno.execPath();
  return ids.map((id) => ({
    label: id,
    command: deno,
    args: [
      "run",
      "--quiet",
      "--cached-only",
      `--config=${join(ROOT, "deno.json")}`,
      `--allow-read=${record}`,
      `--allow-write=${record}`,
      join(LAB, "probe_server.ts"),
      id,
      record,
    ],
    env: { DENO_DIR: denoDir, NO_COLOR: "1" },
  }));
}

async function denoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

/** Options of one run. */
export interface RunOptions {
  readonly installTimeoutMs: number;
  readonly runTimeoutMs: number;
  /** The day written in the observation (YYYY-MM-DD). */
  readonly date: string;
  /** Told, after each run of the client, how many escaped processes the lab ended. */
  readonly onEscaped?: (count: number) => void;
}

/** What one run of a client left: the model requests, its output, the servers' records. */
export interface Seen {
  readonly ran: Ran;
  readonly requests: readonly Recorded[];
  readonly openings: Record<string, unknown>;
}

/**
 * Runs the client once with the probe servers `ids`, in a temporary HOME that is always
 * removed, against a fresh stand-in. On every way out (exit, timeout, error) the processes
 * that escaped the client's group but name the temporary folder are ended first.
 */
export async function runOnce(
  driver: Driver,
  prefix: string,
  ids: readonly string[],
  options: RunOptions,
): Promise<Seen> {
  const temp = await Deno.makeTempDir({ prefix: "mcpeval-lab-" });
  temporary.add(temp);
  const standIn = startStandIn();
  let escaped = 0;
  let ran: Ran | undefined;
  try {
    const home = join(temp, "home");
    const work = join(temp, "work");
    const record = join(temp, "record");
    for (const dir of [home, work, record, join(home, "tmp")]) {
      await Deno.mkdir(dir, { recursive: true });
    }
    const servers = probeServers(ids, record, await denoDir());
    const invocation = await driver.prepare({
      home,
      work,
      model: standIn.url,
      servers,
      packageDir: join(prefix, "node_modules", driver.package),
    });
    ran = await runGroup(
      join(prefix, invocation.bin),
      invocation.args,
      { env: { ...commonEnv(home), ...invocation.env }, cwd: work, owned: temp },
      options.runTimeoutMs,
    );
    escaped += ran.escaped;
    const openings: Record<string, unknown> = {};
    for (const id of ids) {
      try {
        openings[id] = JSON.parse(await Deno.readTextFile(join(record, `${id}.json`)));
      } catch { /* that server was never started */ }
    }
    return { ran, requests: [...standIn.requests], openings };
  } finally {
    if (stopping === 0) escaped += await endEscaped(temp, ran?.group);
    options.onEscaped?.(escaped);
    await standIn.close();
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    temporary.delete(temp);
  }
}

/**
 * Installs (cached), runs and observes one client. The revision probe servers are configured
 * beside the tool probes, or, for a driver with `revisionsAlone`, one per run after them.
 */
export async function runClient(driver: Driver, options: RunOptions): Promise<Observation> {
  const prefix = await install(driver, options.installTimeoutMs);
  const alone = driver.revisionsAlone === true;
  const main = await runOnce(
    driver,
    prefix,
    alone ? PROBE_SERVER_IDS : [...PROBE_SERVER_IDS, ...REVISION_SERVER_IDS],
    options,
  );
  const runs = [main];
  if (alone) {
    for (const id of REVISION_SERVER_IDS) runs.push(await runOnce(driver, prefix, [id], options));
  }
  if (Deno.env.get("MCPEVAL_LAB_DEBUG")) {
    // For the lab's own development: the raw runs, to a file the developer names.
    await Deno.writeTextFile(Deno.env.get("MCPEVAL_LAB_DEBUG")!, JSON.stringify(runs, null, 1));
  }
  if (main.requests.length === 0) {
    throw new LabError(
      main.ran.timedOut ? "timed out before any model request" : "exited before any model request",
    );
  }
  return observe({
    client: driver.id,
    package: driver.package,
    version: driver.version,
    api: driver.api,
    command: `deno task lab --client ${driver.id}`,
    requests: main.requests,
    output: main.ran.output,
    openings: main.openings,
    revisionRuns: alone
      ? runs.slice(1).map((run) => ({ requests: run.requests, openings: run.openings }))
      : [{ requests: main.requests, openings: main.openings }],
    date: options.date,
  });
}
