/**
 * One lab run of one client: install it from the npm registry at a version (cached), start the
 * stand-in and the probe servers, write the client's config in a temporary HOME, run one
 * headless prompt in a run scope of its own (`scope.ts`: a PID namespace, or a process group and a marker)
 * under a timeout, end that scope (everything the client started, nothing else), read the
 * observation, and remove the folder.
 *
 * @module
 */
import { join } from "node:path";
import type { Driver, ServerSpec } from "./driver.ts";
import { observe } from "./observe.ts";
import { INTEGRITY } from "./committed.ts";
import type { Observation } from "./observation.ts";
import {
  PROBE_SERVER_IDS,
  type ProbeServer,
  probeSetId,
  REVISION_SERVER_IDS,
} from "./probe_catalog.ts";
import { type ProbeHost, startProbeHost } from "./probe_host.ts";
import { type RunScope, startScope } from "./scope.ts";
import { type Recorded, type Refuse, startStandIn } from "./stand_in.ts";
import { observeModelView } from "./model_view_runs.ts";

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
export const installDir = (pkg: string, version: string): string =>
  join(cacheDir(), `${pkg.replace(/^@/, "").replace("/", "+")}@${version}`);

/** Why a step failed, as a fixed phrase. */
export class LabError extends Error {}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Installs `pkg@version` into its cached prefix (once per version), bounded. */
export async function install(pkg: string, version: string, timeoutMs: number): Promise<string> {
  const dir = installDir(pkg, version);
  const marker = join(dir, ".lab-installed");
  if (await exists(marker)) return dir;
  await Deno.mkdir(dir, { recursive: true });
  const { code, timedOut } = await runInScope(
    "npm",
    [
      "install",
      "--prefix",
      dir,
      "--no-fund",
      "--no-audit",
      "--loglevel=error",
      `${pkg}@${version}`,
    ],
    // In the prefix: from a folder holding PKG@VERSION, npm would take the spec for that folder.
    // npm with the caller's whole environment (its registry, proxy and CA settings).
    { env: Deno.env.toObject(), cwd: dir },
    timeoutMs,
  );
  if (code !== 0) {
    throw new LabError(
      timedOut
        ? "could not be installed from the npm registry in time (--install-timeout-s)"
        : "could not be installed from the npm registry",
    );
  }
  await Deno.writeTextFile(marker, `${pkg}@${version}\n`);
  return dir;
}

/**
 * The npm `dist.integrity` npm's lockfile in the install prefix `prefix` records for `pkg` (what
 * was installed), or undefined when it records none.
 */
export async function installedIntegrity(
  prefix: string,
  pkg: string,
): Promise<string | undefined> {
  try {
    const lock = JSON.parse(await Deno.readTextFile(join(prefix, "package-lock.json")));
    const integrity = lock?.packages?.[`node_modules/${pkg}`]?.integrity;
    return typeof integrity === "string" ? integrity : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every version of `pkg` on the npm registry with the day it was published (`npm view PKG time
 * --json`), bounded; pre-releases included (the caller picks).
 */
export async function publishedVersions(
  pkg: string,
  timeoutMs: number,
): Promise<Map<string, string>> {
  const { code, output } = await runInScope(
    "npm",
    ["view", pkg, "time", "--json", "--loglevel=error"],
    { env: Deno.env.toObject() },
    timeoutMs,
    "stdout",
  );
  let parsed: unknown;
  try {
    parsed = code === 0 ? JSON.parse(output.join("\n")) : undefined;
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null) {
    throw new LabError("could not read its versions from the npm registry");
  }
  const versions = new Map<string, string>();
  for (const [version, time] of Object.entries(parsed)) {
    if (version !== "created" && version !== "modified" && typeof time === "string") {
      versions.set(version, time);
    }
  }
  return versions;
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
  keep: "both" | "stdout" = "both",
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
  const text = keep === "stdout" ? out : `${out}\n${err}`;
  return { code: status.code, timedOut, output: text.split("\n"), escaped };
}

/**
 * The variables a client may need to reach anything beyond the stand-in from behind a proxy or a
 * custom certificate authority, passed through as they are (the npm registry's settings too).
 */
const PASSED =
  /^(?:https?_proxy|all_proxy|no_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir|node_use_env_proxy|npm_config_[a-z0-9_-]+)$/i;

/**
 * The common environment of every client run: a temporary HOME, telemetry and updates off, the
 * caller's proxy and CA settings ({@linkcode PASSED}), and the stand-in never behind a proxy.
 */
export function commonEnv(home: string, env: Record<string, string>): Record<string, string> {
  const passed = Object.fromEntries(Object.entries(env).filter(([name]) => PASSED.test(name)));
  const bypass = (name: string) => {
    const had = passed[name];
    return had ? `${had},127.0.0.1,localhost` : "127.0.0.1,localhost";
  };
  return {
    ...passed,
    NO_PROXY: bypass("NO_PROXY"),
    no_proxy: bypass("no_proxy"),
    PATH: env.PATH ?? "/usr/bin:/bin",
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

/** The absolute path of `name` on PATH, or undefined. */
export async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir === "") continue;
    const path = join(dir, name);
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return path;
  }
  return undefined;
}

/** Options of one run. */
export interface RunOptions {
  /** The bound on the install, in milliseconds. */
  readonly installTimeoutMs: number;
  /** The bound on one run of the client, in milliseconds. */
  readonly runTimeoutMs: number;
  /** The day written in the observation (YYYY-MM-DD). */
  readonly date: string;
  /** The client's version (default: the driver's). */
  readonly version?: string;
  /** Held-out catalogs to serve beside the probes, by catalog id (`fixtures/held_out.ts`). */
  readonly heldOut?: Readonly<Record<string, ProbeServer>>;
  /** The command written in the observation as the one that reproduces it. */
  readonly command?: string;
  /** Told, after each run of the client, how many escaped processes the lab ended. */
  readonly onEscaped?: (count: number) => void;
  /** A strict stand-in's refusals (`strict.ts`); absent: the lenient stand-in. */
  readonly refuse?: Refuse;
  /** Run the client with its own defaults (`RunContext.defaults`). */
  readonly defaults?: boolean;
}

/** What one run of a client left: the model requests, its output, the servers' records. */
export interface Seen {
  readonly ran: Ran;
  readonly requests: readonly Recorded[];
  readonly openings: Record<string, unknown>;
}

/**
 * Runs the client once with the probe servers `ids` (and the held-out catalogs of `options`),
 * in a temporary HOME that is always removed, against a fresh stand-in. On every way out (exit,
 * timeout) the client's scope is ended first.
 */
export async function runOnce(
  driver: Driver,
  prefix: string,
  ids: readonly string[],
  options: RunOptions,
): Promise<Seen> {
  const temp = await Deno.makeTempDir({ prefix: "mcpeval-lab-" });
  temporary.add(temp);
  const standIn = startStandIn(options.refuse);
  let host: ProbeHost | undefined;
  let escaped = 0;
  try {
    const home = join(temp, "home");
    const work = join(temp, "work");
    const served = join(temp, "probes");
    for (const dir of [home, work, served, join(home, "tmp")]) {
      await Deno.mkdir(dir, { recursive: true });
    }
    const heldOut = options.heldOut ?? {};
    const all = [...ids, ...Object.keys(heldOut)];
    if (all.length > 0) {
      const node = await onPath("node");
      if (!node) throw new LabError("cannot run: node is not on PATH");
      host = await startProbeHost(served, node, heldOut);
    }
    const servers: ServerSpec[] = all.map((id) => ({ label: id, ...host!.command(id), env: {} }));
    const invocation = await driver.prepare({
      home,
      work,
      model: standIn.url,
      servers,
      packageDir: join(prefix, "node_modules", driver.package),
      version: options.version ?? driver.version,
      ...(options.defaults ? { defaults: true } : {}),
    });
    const ran = await runInScope(
      join(prefix, invocation.bin),
      invocation.args,
      { env: { ...commonEnv(home, Deno.env.toObject()), ...invocation.env }, cwd: work },
      options.runTimeoutMs,
    );
    escaped = ran.escaped;
    const openings: Record<string, unknown> = { ...host?.records() };
    return { ran, requests: [...standIn.requests], openings };
  } finally {
    options.onEscaped?.(escaped);
    await host?.close();
    await standIn.close();
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    temporary.delete(temp);
  }
}

/**
 * Installs (cached), runs and observes one client at `options.version` (default the driver's).
 * The revision probe servers are configured beside the tool probes, or, for a driver with
 * `revisionsAlone`, one per run after them.
 */
export async function runClient(driver: Driver, options: RunOptions): Promise<Observation> {
  const version = options.version ?? driver.version;
  const prefix = await install(driver.package, version, options.installTimeoutMs);
  // What was installed is a fact of the observation: `--observe` installs it again against it.
  const integrity = await installedIntegrity(prefix, driver.package);
  if (integrity === undefined || !INTEGRITY.test(integrity)) {
    throw new LabError("was installed without an integrity in npm's lockfile");
  }
  const alone = driver.revisionsAlone === true;
  const probes = await probeSetId();
  // A run whose model request carried no probe tool at all was a client that did not wait for
  // its servers (Codex 0.153.4 now and then, on a busy machine): it is run again, once.
  for (let attempt = 1;; attempt++) {
    const main = await runOnce(
      driver,
      prefix,
      alone ? PROBE_SERVER_IDS : [...PROBE_SERVER_IDS, ...REVISION_SERVER_IDS],
      options,
    );
    const runs = [main];
    if (alone) {
      for (const id of REVISION_SERVER_IDS) {
        runs.push(await runOnce(driver, prefix, [id], { ...options, heldOut: undefined }));
      }
    }
    if (Deno.env.get("MCPEVAL_LAB_DEBUG")) {
      // For the lab's own development: the raw runs, to a file the developer names.
      await Deno.writeTextFile(Deno.env.get("MCPEVAL_LAB_DEBUG")!, JSON.stringify(runs, null, 1));
    }
    if (main.requests.length === 0) {
      throw new LabError(
        main.ran.timedOut
          ? "timed out before any model request"
          : "exited before any model request",
      );
    }
    const observation = observe({
      client: driver.id,
      package: driver.package,
      version,
      integrity,
      api: driver.api,
      command: options.command ?? `mcpeval lab --client ${driver.id}@${version}`,
      requests: main.requests,
      output: main.ran.output,
      openings: main.openings,
      revisionRuns: alone
        ? runs.slice(1).map((run) => ({ requests: run.requests, openings: run.openings }))
        : [{ requests: main.requests, openings: main.openings }],
      date: options.date,
      probes,
      ...(options.heldOut ? { heldOut: options.heldOut } : {}),
    });
    if (observation.servers.some((server) => !server.refused)) {
      // What the model is shown: the strict stand-in's scenarios, and the client's defaults.
      const run = (ids: readonly string[], more: Partial<RunOptions>) =>
        runOnce(driver, prefix, ids, { ...options, heldOut: undefined, ...more });
      return { ...observation, ...await observeModelView(driver, run, observation) };
    }
    if (attempt === RUN_ATTEMPTS) {
      throw new LabError(
        `sent no probe tool to the model in ${RUN_ATTEMPTS} runs (it did not wait for its servers)`,
      );
    }
  }
}

/** How many times a client is run when no probe tool reached the model. */
const RUN_ATTEMPTS = 2;
