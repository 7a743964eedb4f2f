/**
 * The `mcpeval` command line. The library is `jsr:@mcpeval/guidance/lib` (`mod.ts`); it is not
 * re-exported here, so that the CLI starts without loading discovery for --help or --version.
 *
 * ```sh
 * deno run --allow-run=your-mcp-server jsr:@mcpeval/guidance guidance --server example -- your-mcp-server
 * ```
 *
 * @module
 */
import type { CliContext } from "./src/cli/context.ts";
import { OutputError } from "./src/cli/errors.ts";
import { readTextFile } from "./src/cli/files.ts";
import { run } from "./src/cli/run.ts";
import { EXIT } from "./src/exit.ts";

// What a CliContext refers to: types, and the small table of incomplete reasons.
export type { CliContext } from "./src/cli/context.ts";
export type { ProtocolVersion } from "./src/protocol/versions.ts";
export type {
  Closed,
  Incoming,
  Leftover,
  Transport,
  TransportHooks,
} from "./src/transport/transport.ts";
export type { HttpTarget, ServerStderr, StdioTarget, Target } from "./src/target.ts";
export {
  type ConnectionLoss,
  type DetailCause,
  type Incomplete,
  INCOMPLETE_HINTS,
  type IncompleteDetail,
  type IncompleteReason,
  type NetworkFailure,
  type SignalName,
  SIGNALS,
} from "./src/protocol/incomplete.ts";
export type {
  JsonRpcError,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResult,
  RequestId,
} from "./src/protocol/messages.ts";
export { run } from "./src/cli/run.ts";
export { FileTooLargeError } from "./src/cli/errors.ts";

/**
 * The context of a real process: standard streams, environment, signals.
 *
 * @example
 * ```ts
 * const code = await run(["--version"], processContext());
 * ```
 */
export function processContext(): CliContext {
  const write = (stream: typeof Deno.stdout) => async (text: string) => {
    const bytes = new TextEncoder().encode(text);
    try {
      for (let written = 0; written < bytes.length;) {
        written += await stream.write(bytes.subarray(written));
      }
    } catch (error) {
      // A reader that went away (`| head`) does not change the result or the exit code.
      if (error instanceof Deno.errors.BrokenPipe) return;
      if (stream === Deno.stderr) return; // nowhere left to say anything
      throw new OutputError(outputProblem(error));
    }
  };
  return {
    stdout: write(Deno.stdout),
    stderr: write(Deno.stderr),
    env: (name) => Deno.env.get(name),
    permission: async (descriptor) => (await Deno.permissions.query(descriptor)).state,
    reserveFile,
    removeFile: (path) => Deno.remove(path),
    readTextFile,
    cwd: () => Deno.cwd(),
    writeFile: (path, text, { append }) => Deno.writeTextFile(path, text, { append }),
    openTransport: async (target, version, hooks) =>
      (await import("./src/transport/open.ts")).openTransport(target, version, hooks),
    color: colorWanted(),
    stdoutTerminal: Deno.stdout.isTerminal(),
    stderrTerminal: Deno.stderr.isTerminal()
      ? (readableEnv("TERM") === "dumb" ? "lines" : "live")
      : undefined,
    columns: terminalColumns(),
    interrupted: listenForInterrupts,
  };
}

/**
 * Colour on stdout: FORCE_COLOR (other than `0` or `false`) forces it, as in Node.js;
 * otherwise a terminal, NO_COLOR unset (Deno.noColor reads it without --allow-env) and TERM not
 * `dumb`.
 */
function colorWanted(): boolean {
  const force = readableEnv("FORCE_COLOR");
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return Deno.stdout.isTerminal() && !Deno.noColor && readableEnv("TERM") !== "dumb";
}

/** An environment variable, read only when --allow-env already covers it (never prompts). */
function readableEnv(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    return undefined;
  }
  return Deno.env.get(name);
}

/** The terminal's width, or undefined when neither stdout nor stderr is a terminal. */
function terminalColumns(): number | undefined {
  try {
    return Deno.consoleSize().columns || undefined;
  } catch {
    return undefined;
  }
}

/** A write error as a fixed phrase (never its message, which may hold a path). */
function outputProblem(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (code === "ENOSPC") return "no space left on the device";
  if (code === "EIO") return "an input/output error";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return typeof code === "string" && /^E[A-Z]{1,15}$/.test(code) ? code : "a write error";
}

/** Opens (creating when missing) a report file for writing, proving its folder exists. */
async function reserveFile(path: string): Promise<{ created: boolean }> {
  try {
    (await Deno.open(path, { write: true, createNew: true })).close();
    return { created: true };
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  (await Deno.open(path, { write: true })).close();
  return { created: false };
}

let interrupts: AbortSignal | undefined;

/**
 * Aborted on SIGINT (and SIGTERM and SIGHUP off Windows), with the signal's name as its reason;
 * listening starts with the first call.
 */
function listenForInterrupts(): AbortSignal {
  if (interrupts) return interrupts;
  const controller = new AbortController();
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) {
    Deno.addSignalListener(signal, () => {
      if (!controller.signal.aborted) controller.abort(signal);
    });
  }
  return interrupts = controller.signal;
}

/** The last resort for a bug that escaped `run`: one line, exit 70, never a stack trace. */
function exitOnInternalError(event: Event): void {
  event.preventDefault();
  Deno.stderr.writeSync(
    new TextEncoder().encode("mcpeval: internal error (uncaught); this is a bug in mcpeval\n"),
  );
  Deno.exit(EXIT.internalError);
}

if (import.meta.main) {
  globalThis.addEventListener("unhandledrejection", exitOnInternalError);
  globalThis.addEventListener("error", exitOnInternalError);
  Deno.exit(await run(Deno.args, processContext()));
}
