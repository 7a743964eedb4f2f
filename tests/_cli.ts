/**
 * Test helpers: run the real CLI as a subprocess with narrow permissions, and validate every
 * JSON report against the JSON Schema that the CLI itself prints.
 */
import Ajv2020 from "ajv/dist/2020.js";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));
/** The Deno binary running the tests (the real path, for --allow-run). */
export const DENO: string = Deno.execPath();

/** What one CLI run produced. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time of the whole run, in milliseconds. */
  readonly ms: number;
}

/** Options for {@linkcode mcpeval}. */
export interface CliOptions {
  /** Deno permission flags for mcpeval (default: run permission for Deno only). */
  readonly permissions?: readonly string[];
  readonly env?: Record<string, string>;
}

/** Runs `mcpeval ARGS` through `deno run main.ts`. */
export async function mcpeval(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  const permissions = options.permissions ?? [`--allow-run=${DENO}`];
  const started = performance.now();
  const output = await new Deno.Command(DENO, {
    args: ["run", "--quiet", "--no-prompt", ...permissions, join(ROOT, "main.ts"), ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    ms: performance.now() - started,
  };
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

/** The command line of the hostile fixture in one scenario. */
export function hostile(scenario: string): string[] {
  return fixture("hostile.ts", scenario);
}

/** The real reference server, pinned in deno.json. */
export const EVERYTHING: string[] = [
  DENO,
  "run",
  "--quiet",
  "--allow-all",
  "npm:@modelcontextprotocol/server-everything@2026.8.31",
  "stdio",
];

let validator: ((value: unknown) => boolean) & { errors?: unknown } | undefined;

/** Validates a report with Ajv (draft 2020-12) against the schema printed by the CLI. */
export async function assertValidReport(report: unknown): Promise<void> {
  if (!validator) {
    const printed = await mcpeval(["schema", "guidance"]);
    assert.equal(printed.code, 0);
    // deno-lint-ignore no-explicit-any
    const Ajv = Ajv2020 as any;
    validator = new Ajv({ strict: true, allErrors: true }).compile(JSON.parse(printed.stdout));
  }
  assert.ok(validator!(report), JSON.stringify(validator!.errors));
}

/** Runs a guidance command with `--format json`, validates the report, and returns it. */
export async function guidanceJson(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult & { report: Report }> {
  const result = await mcpeval(["guidance", "--format", "json", ...args], options);
  assert.equal(result.stderr, "", "stderr must be empty");
  const report = JSON.parse(result.stdout);
  await assertValidReport(report);
  return { ...result, report };
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
    incomplete: { reason: string; hint: string; http_status?: number } | null;
  }[];
  candidates: { profile: string; tool: string; available_in: string[] }[];
  defects: { profile: string; tool: string; available_in: string[] }[];
  complete: boolean;
  passed: boolean | null;
  settings: Record<string, number>;
  required_tools: string[];
}

/** Live processes (zombies awaiting their reaper excluded): pid and command line, from `ps`. */
export function processes(): { pid: number; args: string }[] {
  const output = new Deno.Command("ps", { args: ["-A", "-o", "pid=,stat=,args="] }).outputSync();
  return new TextDecoder().decode(output.stdout).split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    return match && !match[2].startsWith("Z") ? [{ pid: Number(match[1]), args: match[3] }] : [];
  });
}

/** Whether the process `pid` is still running (zombies do not count). */
export function isRunning(pid: number): boolean {
  return processes().some((process) => process.pid === pid);
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

/** A fresh temporary file for a fixture's log, removed on dispose: `await using log = ...`. */
export async function fixtureLog(): Promise<TempPath & { entries: () => unknown[] }> {
  const file = await tempFile({ prefix: "mcpeval-fixture-", suffix: ".jsonl" });
  return {
    ...file,
    entries: () =>
      Deno.readTextFileSync(file.path).split("\n").filter((line) => line !== "").map((line) =>
        JSON.parse(line)
      ),
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
 * `listening on HOST:PORT` line.
 */
export async function startHttp(
  command: string[],
  env: Record<string, string> = {},
): Promise<HttpFixture> {
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    cwd: ROOT,
    env,
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
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await child.status;
      await reader.cancel().catch(() => {});
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
