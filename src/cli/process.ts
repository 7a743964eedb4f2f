/**
 * The real process behind the `mcpeval` command: its context (standard streams, environment,
 * permissions, files, signals) and its entry, loaded by `main.ts` for every command but
 * `--version`.
 *
 * @module
 */
import { EXIT } from "../exit.ts";
import { envVariable, readTextFile } from "../run/files.ts";
import type { CliContext } from "./context.ts";
import { currentLaunch } from "./deno_flags.ts";
import { claimInterrupts } from "./interrupts.ts";
import { OutputError } from "./errors.ts";
import { run } from "./run.ts";

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
    env: envVariable,
    permission: async (descriptor) => (await Deno.permissions.query(descriptor)).state,
    reserveFile,
    removeFile: (path) => Deno.remove(path),
    readTextFile,
    cwd: () => Deno.cwd(),
    writeFile: (path, text, { append }) => Deno.writeTextFile(path, text, { append }),
    openTransport: async (target, version, hooks) =>
      (await import("../transport/open.ts")).openTransport(target, version, hooks),
    color: colorWanted(),
    stdoutTerminal: Deno.stdout.isTerminal(),
    stderrTerminal: Deno.stderr.isTerminal()
      ? (readableEnv("TERM") === "dumb" ? "lines" : "live")
      : undefined,
    columns: terminalColumns(),
    launch: currentLaunch(),
    interrupted: claimInterrupts,
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
  try {
    return envVariable(name);
  } catch {
    return undefined;
  }
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

/** The last resort for a bug that escaped `run`: one line, exit 70, never a stack trace. */
function exitOnInternalError(event: Event): void {
  event.preventDefault();
  Deno.stderr.writeSync(
    new TextEncoder().encode("mcpeval: internal error (uncaught); this is a bug in mcpeval\n"),
  );
  Deno.exit(EXIT.internalError);
}

/** Runs the command line of this process and returns its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  globalThis.addEventListener("unhandledrejection", exitOnInternalError);
  globalThis.addEventListener("error", exitOnInternalError);
  return await run(argv, processContext());
}
