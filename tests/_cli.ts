/**
 * Test helpers: run the real CLI as a subprocess with narrow permissions, and validate every
 * JSON report against the JSON Schema that the CLI itself prints.
 */
import Ajv2020 from "ajv/dist/2020.js";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertKnownIds } from "./_known_ids.ts";

/** The project root. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));
/** The Deno binary running the tests (the real path, for --allow-run). */
export const DENO: string = Deno.execPath();

/**
 * The variables a child started with a cleared or reduced environment needs to find Deno, its
 * cache and the network the way the test runner does: the cache folder (`DENO_DIR`: it may be
 * anything), the CA settings, the proxies and the npm registry's configuration, and the lab's
 * install cache of real clients (`MCPEVAL_LAB_CACHE`: `.ci/run` installs each client once). A
 * child that loses them looks in the default cache, downloads there, or cannot connect.
 */
export const CHILD_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_AUTH_TOKENS",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
  "NPM_CONFIG_USERCONFIG",
  "npm_config_userconfig",
  "MCPEVAL_LAB_CACHE",
];

/** The variables of {@linkcode CHILD_ENV_NAMES} that are set here, with their values. */
export function childEnv(): Record<string, string> {
  return Object.fromEntries(
    CHILD_ENV_NAMES.flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/** What one CLI run produced. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time of the whole run, in milliseconds. */
  readonly ms: number;
  /** The processes of the run still alive after it (killed since); see `leavesProcesses`. */
  readonly leftovers: readonly number[];
}

/** Options for {@linkcode mcpeval}. */
export interface CliOptions {
  /** Deno permission flags for mcpeval (default: run permission for Deno only). */
  readonly permissions?: readonly string[];
  readonly env?: Record<string, string>;
  /**
   * Text for mcpeval's standard input (default: none, stdin is null); `open`: a pipe that is
   * never written nor closed while mcpeval runs.
   */
  readonly stdin?: string | { readonly open: true };
  /**
   * Kills the run (SIGKILL) after this many milliseconds, so that a run that would hang fails
   * its assertions instead (default: no bound).
   */
  readonly boundMs?: number;
  /**
   * The run may leave processes behind (default: it must not, and the test fails if it does).
   * Either way, whatever is left is killed, and its process ids are in `leftovers`.
   */
  readonly leavesProcesses?: boolean;
}

/**
 * Runs `mcpeval ARGS` through `deno run main.ts`, with a fresh {@linkcode ProcessMarker} in its
 * environment (so in every server's it starts); afterwards fails unless every process of the run
 * has ended (see `leavesProcesses`).
 */
export async function mcpeval(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  const permissions = options.permissions ?? [`--allow-run=${DENO}`];
  const marker = new ProcessMarker();
  const started = performance.now();
  const child = new Deno.Command(DENO, {
    args: ["run", "--quiet", "--no-prompt", ...permissions, join(ROOT, "main.ts"), ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...options.env, ...marker.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const bound = options.boundMs === undefined
    ? undefined
    : setTimeout(() => child.kill("SIGKILL"), options.boundMs);
  const held = typeof options.stdin === "object" ? child.stdin.getWriter() : undefined;
  if (typeof options.stdin === "string") {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin)).catch(() => {});
    await writer.close().catch(() => {});
  }
  const output = await child.output();
  clearTimeout(bound);
  await held?.close().catch(() => {});
  const ms = performance.now() - started;
  const left = await marker.reap();
  if (!options.leavesProcesses) assertNoneLeft(left, `mcpeval ${args.join(" ")}`);
  return { ...decoded(output), ms, leftovers: left.map(({ pid }) => pid) };
}

/** A finished process's exit code and its output, decoded. */
function decoded(output: Deno.CommandOutput): { code: number; stdout: string; stderr: string } {
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** A run of mcpeval that a test stops with a signal; see {@linkcode spawnMcpeval}. */
export interface RunningCli {
  /**
   * Sends `signal`, waits for the exit, and returns the decoded output; `ms` is the time from the
   * signal to the exit. With `boundMs`, a run still alive that long after the signal is killed
   * (SIGKILL, exit 137), so that one that ignores it fails instead of hanging.
   */
  stop(
    signal: Deno.Signal,
    boundMs?: number,
  ): Promise<{ code: number; stdout: string; stderr: string; ms: number }>;
  /** Fails unless every process of the run has ended (whatever is left is killed). */
  assertNoneLeft(what: string): Promise<void>;
}

/**
 * Starts `mcpeval ARGS` through `deno run main.ts` and leaves it running, with a fresh
 * {@linkcode ProcessMarker} in its environment (beside `env`), stdout and stderr piped.
 */
export function spawnMcpeval(
  args: readonly string[],
  options: Pick<CliOptions, "permissions" | "env"> = {},
): RunningCli {
  const permissions = options.permissions ?? [`--allow-run=${DENO}`];
  const marker = new ProcessMarker();
  const child = new Deno.Command(DENO, {
    args: ["run", "--quiet", ...permissions, join(ROOT, "main.ts"), ...args],
    env: { ...options.env, ...marker.env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return {
    async stop(signal, boundMs) {
      const signalled = performance.now();
      child.kill(signal);
      const bound = boundMs === undefined
        ? undefined
        : setTimeout(() => child.kill("SIGKILL"), boundMs);
      const output = await child.output();
      clearTimeout(bound);
      return { ...decoded(output), ms: performance.now() - signalled };
    },
    async assertNoneLeft(what) {
      assertNoneLeft(await marker.reap(), what);
    },
  };
}

/**
 * Runs tests/_measure.ts (the CLI in-process, `mcpeval ARGS`) with a fresh
 * {@linkcode ProcessMarker}, fails if any process of it outlives it, and returns its exit code,
 * its decoded output, and its peak RSS in MiB (NaN when it printed none).
 */
export async function measure(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string; peakMib: number }> {
  const marker = new ProcessMarker();
  const output = await new Deno.Command(DENO, {
    args: ["run", "--quiet", "--allow-all", join(ROOT, "tests", "_measure.ts"), ...args],
    env: { NO_COLOR: "1", ...marker.env },
  }).output();
  assertNoneLeft(await marker.reap(), "tests/_measure.ts");
  const { code, stdout, stderr } = decoded(output);
  return {
    code,
    stdout,
    stderr,
    peakMib: Number(/peak_rss_kib=(\d+)/.exec(stderr)?.[1]) / 1024,
  };
}

/**
 * Asserts what a run stopped with SIGINT shows: exit 130, no report, and the one stderr line
 * saying every server process was stopped.
 */
export function assertInterrupted(output: { code: number; stdout: string; stderr: string }) {
  assert.equal(output.code, 130);
  assert.equal(output.stdout, "");
  assert.equal(output.stderr, "mcpeval: interrupted; every server process was stopped\n");
}

/** Polls `done` every `pollMs` until it holds or `boundMs` have passed (the caller asserts). */
export async function waitUntil(done: () => boolean, boundMs: number, pollMs: number) {
  for (const started = Date.now(); !done() && Date.now() - started < boundMs;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The environment variable that carries a {@linkcode ProcessMarker}. */
const MARKER_VARIABLE = "MCPEVAL_TEST_MARKER";

/** A process that outlived its test step, and its command line (when still readable). */
export interface Leftover {
  readonly pid: number;
  readonly args: string;
}

/**
 * A unique mark for the processes that one test step starts: give {@linkcode env} to the first
 * process, and every process it starts inherits it (unless someone clears the environment), so
 * the step's own leftovers can be found without looking at anyone else's processes. Linux only
 * (it reads /proc/PID/environ); elsewhere no process is ever found.
 */
export class ProcessMarker {
  readonly #entry = `${MARKER_VARIABLE}=${crypto.randomUUID()}`;

  /** The environment entry that marks a process. */
  get env(): Record<string, string> {
    const [name, value] = this.#entry.split("=");
    return { [name]: value };
  }

  /** The live processes that carry this marker (zombies have no environment and do not count). */
  async pids(): Promise<number[]> {
    if (Deno.build.os !== "linux") return [];
    // Deno lets only --allow-all read /proc, so grep reads it: the files whose NUL-separated
    // entries include exactly this one. Neither sh nor grep carries the marker.
    const output = await new Deno.Command("sh", {
      args: ["-c", 'exec grep -lsxzF -e "$1" /proc/[0-9]*/environ', "sh", this.#entry],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(output.stdout).split("\n").flatMap((line) => {
      const match = /^\/proc\/(\d+)\/environ$/.exec(line);
      return match ? [Number(match[1])] : [];
    });
  }

  /**
   * Waits, at most `waitMs`, for every marked process to end (one that was just killed may still
   * be on its way out); then kills (SIGKILL) whatever is left and returns it.
   */
  async reap(waitMs = 500): Promise<Leftover[]> {
    const deadline = Date.now() + waitMs;
    let pids = await this.pids();
    while (pids.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      pids = await this.pids();
    }
    if (pids.length === 0) return [];
    const left = pids.map((pid) => ({ pid, args: commandLine(pid) }));
    for (const pid of pids) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    for (const stop = Date.now() + 2_000; (await this.pids()).length > 0 && Date.now() < stop;) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return left;
  }
}

/** Fails when `left` is not empty, naming each process (already killed by the caller). */
export function assertNoneLeft(left: readonly Leftover[], what: string): void {
  assert.deepEqual(
    left,
    [],
    `${what}: ${left.length} process(es) outlived it (now killed): ${
      left.map(({ pid, args }) => `${pid} ${args}`).join("; ")
    }`,
  );
}

/** The command line of process `pid`, from `ps` ("" when it is gone). */
function commandLine(pid: number): string {
  const output = new Deno.Command("ps", { args: ["-ww", "-o", "args=", "-p", String(pid)] })
    .outputSync();
  return new TextDecoder().decode(output.stdout).trim();
}

/** The command line that starts a fixture server with Deno. */
export function fixture(file: string, ...args: string[]): string[] {
  return [
    DENO,
    "run",
    "--quiet",
    "--allow-env",
    "--allow-write",
    join(ROOT, "fixtures", file),
    ...args,
  ];
}

/** The demo server as the target, with a 100 ms settle window. */
export const DEMO_TARGET: readonly string[] = [
  "--settle-ms",
  "100",
  "--",
  ...fixture("demo/server.ts"),
];

/**
 * Profiles none and roots of the demo server, list-workspace-files required: in profile none,
 * one candidate (list-workspace-files, listed in roots) and one defect.
 */
export const DEMO_FINDINGS: readonly string[] = [
  "--server",
  "demo",
  "--profile",
  "none",
  "--profile",
  "roots",
  "--require-tool",
  "list-workspace-files",
];

/** The wrapper fixture (it starts processes itself, so it gets every permission). */
export function wrapper(scenario: string, ...flags: string[]): string[] {
  return [
    DENO,
    "run",
    "--quiet",
    "--allow-all",
    join(ROOT, "fixtures", "wrapper.ts"),
    scenario,
    ...flags,
  ];
}

/** Arguments for profile none of one server, without a settle window. */
export function profileNone(server = "h"): string[] {
  return ["--server", server, "--profile", "none", "--settle-ms", "0"];
}

/** The command line of the hostile fixture in one scenario. */
export function hostile(scenario: string): string[] {
  return fixture("hostile.ts", scenario);
}

/** The archived server-github (SDK 1.0.1, answers 2024-11-05), pinned in deno.json. */
export const GITHUB: string[] = [
  DENO,
  "run",
  "--quiet",
  "-A",
  "npm:@modelcontextprotocol/server-github@2025.4.8",
];

/** The environment server-github needs to start (a dummy token: it only lists tools). */
export const GITHUB_ENV: Record<string, string> = {
  GITHUB_PERSONAL_ACCESS_TOKEN: "dummy-token-for-listing",
};

/** The real reference server, pinned in deno.json. */
export const EVERYTHING: string[] = [
  DENO,
  "run",
  "--quiet",
  "--allow-all",
  "npm:@modelcontextprotocol/server-everything@2026.8.31",
  "stdio",
];

type Validator = ((value: unknown) => boolean) & { errors?: unknown };
const validators = new Map<string, Validator>();

/** Fails unless `value` is valid against the schema `mcpeval schema NAME` prints (Ajv, 2020-12). */
async function assertValidAgainst(name: string, value: unknown): Promise<void> {
  let validator = validators.get(name);
  if (!validator) {
    const printed = await mcpeval(["schema", name]);
    assert.equal(printed.code, 0);
    // deno-lint-ignore no-explicit-any
    const Ajv = Ajv2020 as any;
    validator = new Ajv({ strict: true, allErrors: true }).compile(
      JSON.parse(printed.stdout),
    ) as Validator;
    validators.set(name, validator);
  }
  assert.ok(validator(value), JSON.stringify(validator.errors));
}

/** Validates a report with Ajv (draft 2020-12) against the schema printed by the CLI. */
export async function assertValidReport(report: unknown): Promise<void> {
  await assertValidAgainst("guidance", report);
}

/**
 * Validates a fleet report against the fleet schema the CLI prints, and each embedded report
 * against the guidance schema it prints.
 */
export async function assertValidFleet(fleet: unknown): Promise<void> {
  await assertValidAgainst("guidance-fleet", fleet);
  for (const server of (fleet as Fleet).servers) {
    if (server.checked) await assertValidReport(server.report);
  }
}

/** The fleet report fields the tests read. */
export interface Fleet {
  config_format: string;
  servers: (
    | { name: string; checked: true; report: Report & { server: string; transport: string } }
    | { name: string; checked: false; reason: string; hint: string; field?: string }
  )[];
  complete: boolean;
  passed: boolean | null;
}

/**
 * `stderr` without the plain progress lines a run prints off a terminal once it has lasted
 * `PLAIN_PROGRESS_AFTER_MS` (a slow machine may make any run that long).
 */
export function withoutPlainProgress(stderr: string): string {
  return stderr.replaceAll(
    /^mcpeval: (still discovering after [^\n]*|server [^ \n]+ finished, [^\n]*|[^ \n]+: (done|incomplete), [^\n]* profiles finished\))\n/gm,
    "",
  );
}

/**
 * The line that names `--server-stderr tail` for a stdio server that went away or did not
 * answer while its stderr was discarded (the default off a terminal): mcpeval's own words.
 */
export const TAIL_POINTER =
  /^mcpeval: server [^ \n]+ \(profile [^ \n]+\) ended incomplete \((transport-lost|timeout)\); --server-stderr tail shows the last lines it wrote to stderr \(never in a report\)\n/gm;

/** `stderr` without plain progress lines and without {@linkcode TAIL_POINTER} lines. */
export function withoutNotices(stderr: string): string {
  return withoutPlainProgress(stderr).replaceAll(TAIL_POINTER, "");
}

/** Runs `guidance --format json --config ...`, validates the fleet report, and returns it. */
export async function fleetJson(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult & { fleet: Fleet }> {
  const { json, ...result } = await validJson(args, options, assertValidFleet);
  return { ...result, fleet: json as Fleet };
}

/**
 * Runs `guidance --format json ARGS`, fails unless stderr is empty, `assertValid` accepts the
 * JSON on stdout and it holds only ids this version writes, and returns the run and that JSON.
 */
async function validJson(
  args: readonly string[],
  options: CliOptions,
  assertValid: (json: unknown) => Promise<void>,
): Promise<CliResult & { json: unknown }> {
  const result = await mcpeval(["guidance", "--format", "json", ...args], options);
  assert.equal(withoutNotices(result.stderr), "", "stderr must be empty");
  const json = JSON.parse(result.stdout);
  await assertValid(json);
  assertKnownIds(json);
  return { ...result, json };
}

/** Writes `config` (an object, as JSON) to a fresh temporary file, removed on dispose. */
export async function configFile(config: unknown, suffix = ".json"): Promise<TempPath> {
  const file = await tempFile({ prefix: "mcpeval-config-", suffix });
  await Deno.writeTextFile(
    file.path,
    typeof config === "string" ? config : JSON.stringify(config, null, 2),
  );
  return file;
}

/** A stdio config entry that starts `command` (a command line from the fixtures). */
export function entry(command: readonly string[], extra: Record<string, unknown> = {}) {
  return { command: command[0], args: command.slice(1), ...extra };
}

/** Runs a guidance command with `--format json`, validates the report, and returns it. */
export async function guidanceJson(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult & { report: Report }> {
  const { json, ...result } = await validJson(args, options, assertValidReport);
  return { ...result, report: json as Report };
}

/** The report fields the tests read. */
export interface Report {
  profiles: {
    profile: string;
    complete: boolean;
    tools: string[] | null;
    tool_count: number | null;
    pages: number;
    instructions_present: boolean | null;
    incomplete: {
      reason: string;
      hint: string;
      http_status?: number;
      detail?: { cause: string; exit_code?: number; signal?: string };
    } | null;
  }[];
  candidates: ReportFinding[];
  defects: ReportFinding[];
  complete: boolean;
  passed: boolean | null;
  settings: Record<string, number>;
  required_tools: string[];
  baseline?: {
    require_baseline_tools: boolean;
    profiles: (
      | { profile: string; compared: true; added: string[]; removed: string[] }
      | { profile: string; compared: false; reason: string }
    )[];
    resolved: ReportFinding[];
  };
}

/** A finding as the tests read it. */
export interface ReportFinding {
  kind: string;
  profile: string;
  tool: string;
  available_in: string[];
  rule?: string;
  suggestion?: string;
  baseline_state?: "new" | "unchanged";
}

/** Whether the process `pid` is still running (zombies do not count), from `ps`. */
export function isRunning(pid: number): boolean {
  const output = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).outputSync();
  const stat = new TextDecoder().decode(output.stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
}

/** A temporary file or directory that is removed (with everything in it) on dispose. */
export interface TempPath extends AsyncDisposable {
  readonly path: string;
}

function disposable(path: string): TempPath {
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    },
  };
}

/** A fresh temporary file, removed on dispose: `await using file = await tempFile()`. */
export async function tempFile(options: Deno.MakeTempOptions = {}): Promise<TempPath> {
  return disposable(await Deno.makeTempFile({ prefix: "mcpeval-test-", ...options }));
}

/** A fresh temporary directory, removed with its contents on dispose. */
export async function tempDir(options: Deno.MakeTempOptions = {}): Promise<TempPath> {
  return disposable(await Deno.makeTempDir({ prefix: "mcpeval-test-", ...options }));
}

/** A fixture's log: its entries, and what the tests count in them. */
export interface FixtureLog extends TempPath {
  entries(): unknown[];
  /** How many messages with `method` the servers received, so far. */
  received(method: string): number;
  /** The process ids the servers logged, so far. */
  pids(): number[];
  /** How many answers to `method` the servers have written whole, so far (hostile.ts logs them). */
  answered(method: string): number;
}

/** A fresh temporary file for a fixture's log, removed on dispose: `await using log = ...`. */
export async function fixtureLog(): Promise<FixtureLog> {
  const file = await tempFile({ prefix: "mcpeval-fixture-", suffix: ".jsonl" });
  const entries = () =>
    Deno.readTextFileSync(file.path).split("\n").filter((line) => line !== "").map((line) =>
      JSON.parse(line)
    );
  return {
    ...file,
    entries,
    received: (method) =>
      (entries() as { received?: { method?: string } }[]).filter((e) =>
        e.received?.method === method
      ).length,
    pids: () => (entries() as { pid?: number }[]).flatMap((e) => e.pid ?? []),
    answered: (method) =>
      (entries() as { answered?: string }[]).filter((e) => e.answered === method).length,
  };
}

/** A running HTTP fixture server; stopped (and awaited) on dispose. */
export interface HttpFixture extends AsyncDisposable {
  /** The MCP endpoint. */
  readonly url: string;
  /** `host:port`, for --allow-net. */
  readonly host: string;
}

/**
 * Starts an HTTP fixture server (a command line from the fixtures) and waits, bounded, for its
 * `listening on HOST:PORT` line. On dispose it is stopped (SIGTERM, SIGKILL after 5 s), and the
 * test fails if any process it started (marked with a {@linkcode ProcessMarker}) outlives it.
 */
export async function startHttp(
  command: string[],
  env: Record<string, string> = {},
): Promise<HttpFixture> {
  const marker = new ProcessMarker();
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    cwd: ROOT,
    env: { ...env, ...marker.env },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    while (!/listening on (\S+)\n/.test(text)) {
      const { done, value } = await reader.read();
      if (done) throw new Error("HTTP fixture ended before listening");
      text += value;
    }
  } finally {
    clearTimeout(timer);
  }
  // Keep draining stdout so the server never blocks on it.
  (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  const host = /listening on (\S+)\n/.exec(text)![1];
  return {
    url: `http://${host}/mcp`,
    host,
    async [Symbol.asyncDispose]() {
      // SIGTERM first: a fixture that started processes of its own stops them on SIGTERM.
      const signal = (name: Deno.Signal) => {
        try {
          child.kill(name);
        } catch {
          // Already gone.
        }
      };
      signal("SIGTERM");
      const kill = setTimeout(() => signal("SIGKILL"), 5_000);
      try {
        await child.status;
      } finally {
        clearTimeout(kill);
      }
      await reader.cancel().catch(() => {});
      assertNoneLeft(await marker.reap(), `HTTP fixture ${command.slice(-2).join(" ")}`);
    },
  };
}

/** An HTTP fixture's command line. */
export function httpFixture(file: string, ...args: string[]): string[] {
  return [
    DENO,
    "run",
    "--quiet",
    "--allow-net=127.0.0.1",
    "--allow-env",
    "--allow-write",
    "--allow-read",
    "--allow-sys",
    join(ROOT, "fixtures", file),
    ...args,
  ];
}

/**
 * The everything_http fixture: server-everything over Streamable HTTP, one `stdio` process of it
 * per session (see the fixture).
 */
export function everythingHttp(): string[] {
  return [
    DENO,
    "run",
    "--quiet",
    "--allow-net=127.0.0.1",
    `--allow-run=${DENO}`,
    join(ROOT, "fixtures", "everything_http.ts"),
    "--",
    ...EVERYTHING,
  ];
}
