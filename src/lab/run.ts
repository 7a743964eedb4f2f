/**
 * One lab run of one client: install it from the npm registry at its pinned version (cached),
 * start the stand-in, write the client's config in a temporary HOME, run one headless prompt
 * in a run scope of its own (`lab/scope.ts`: a PID namespace, or a process group and a marker)
 * under a timeout, end that scope (everything the client started, nothing else), read the
 * observation, and remove the folder.
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Driver, ServerSpec } from "./driver.ts";
import { observe } from "./observe.ts";
import type { Observation } from "./observation.ts";
import { PROBE_SERVER_IDS, REVISION_SERVER_IDS } from "./probe_catalog.ts";
import { type RunScope, startScope } from "./scope.ts";
import { type Recorded, startStandIn } from "./stand_in.ts";

/** The lab's folder. */
export const LAB = resolve(import.meta.dirname!);
const ROOT = resolve(LAB, "..", "..");

/**
 * Where installs are cached, never inside the project: `$MCPEVAL_LAB_CACHE`, else
 * `$XDG_CACHE_HOME/mcpeval/lab`, else `~/.cache/mcpeval/lab`.
 */
export function cacheDir(): string {
  const named = Deno.env.get("MCPEVAL_LAB_CACHE");
  if (named) return named;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "mcpeval", "lab");
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!home) throw new LabError("has no cache folder: set MCPEVAL_LAB_CACHE");
  return join(home, ".cache", "mcpeval", "lab");
}

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
  const { code } = await runInScope(
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

/** How one command ran in its scope. */
export interface Ran {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly output: string[];
  /**
   * How many processes that had left the command's process group its scope ended (a fallback
   * scope; 0 in a PID namespace, which ends them uncounted).
   */
  readonly escaped: number;
}

const MAX_OUTPUT = 4 * 1024 * 1024;

/** The scopes running now (a client or npm), ended by {@linkcode endScopes}. */
const running = new Set<RunScope>();

/** The temporary folders in use now, removed by {@linkcode endScopes}. */
const temporary = new Set<string>();

/**
 * Ends every scope the lab started that is still running (each client or npm and everything it
 * started), and removes its temporary folders (on SIGINT or SIGTERM, when no `finally` will run).
 * Returns how many escaped processes the fallback scopes ended.
 */
export async function endScopes(): Promise<number> {
  stopping++;
  try {
    const counts = await Promise.all([...running].map((scope) => scope.end()));
    running.clear();
    for (const dir of [...temporary]) {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* already gone */ }
      temporary.delete(dir);
    }
    return counts.reduce((sum, count) => sum + count, 0);
  } finally {
    stopping--;
  }
}

/** How many {@linkcode endScopes} calls are under way: no new scope starts meanwhile. */
let stopping = 0;

/**
 * Runs `command` in a run scope of its own (`lab/scope.ts`) and ends the scope on timeout or once
 * the command has exited: the command and everything it started, escaped daemons included (which
 * may hold its output open), and nothing else.
 */
async function runInScope(
  command: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string },
  timeoutMs: number,
): Promise<Ran> {
  // The lab is being stopped: nothing new may start before it exits.
  if (stopping > 0) throw new LabError("stopped");
  const scope = await startScope(command, args, options);
  running.add(scope);
  if (stopping > 0) {
    await scope.end();
    running.delete(scope);
    throw new LabError("stopped");
  }
  const { child } = scope;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void scope.end();
  }, timeoutMs);
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
  const escaped = await scope.end();
  running.delete(scope);
  return { code: status.code, timedOut, output: `${out}\n${err}`.split("\n"), escaped };
}

/** The common environment of every client run: a temporary HOME, telemetry and updates off. */
export function commonEnv(home: string): Record<string, string> {
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
 * removed, against a fresh stand-in. On every way out (exit, timeout) the client's scope is
 * ended first.
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
    const ran = await runInScope(
      join(prefix, invocation.bin),
      invocation.args,
      { env: { ...commonEnv(home), ...invocation.env }, cwd: work },
      options.runTimeoutMs,
    );
    escaped = ran.escaped;
    const openings: Record<string, unknown> = {};
    for (const id of ids) {
      try {
        openings[id] = JSON.parse(await Deno.readTextFile(join(record, `${id}.json`)));
      } catch { /* that server was never started */ }
    }
    return { ran, requests: [...standIn.requests], openings };
  } finally {
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
