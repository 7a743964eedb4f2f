/**
 * Every effect the CLI has, passed in, so that the command-line rules can be tested in-process
 * and embedders can supply their own.
 *
 * @module
 */
import type { RunEffects } from "../run/effects.ts";
import type { Launch } from "./deno_flags.ts";

/** Every effect the CLI has. */
export interface CliContext extends RunEffects {
  /** Writes to standard output. */
  readonly stdout: (text: string) => Promise<void>;
  /** Writes to standard error. */
  readonly stderr: (text: string) => Promise<void>;
  /**
   * Makes sure a report file can be written before discovery (its folder exists and it can be
   * opened for writing), creating it empty when it does not exist. Throws when it cannot.
   */
  readonly reserveFile: (path: string) => Promise<{ readonly created: boolean }>;
  /** Removes a file that {@linkcode CliContext.reserveFile} created but that was never written. */
  readonly removeFile: (path: string) => Promise<void>;
  /** Writes (or appends to) a file: `--output` reports and the GitHub step summary. */
  readonly writeFile: (path: string, text: string, options: { append: boolean }) => Promise<void>;
  /**
   * Whether text output may be coloured: FORCE_COLOR (not `0` or `false`) forces it; otherwise
   * stdout must be a terminal, NO_COLOR unset and TERM not `dumb`.
   */
  readonly color: boolean;
  /** Whether stdout is a terminal (the text report is then laid out in its width). */
  readonly stdoutTerminal?: boolean;
  /**
   * Whether stderr is a terminal, and what it can show: `live` progress redrawn in place, or
   * one line per change (`lines`, for TERM=dumb). Undefined: not a terminal, no progress.
   */
  readonly stderrTerminal?: "live" | "lines";
  /** The terminal's width in columns, when there is a terminal. */
  readonly columns?: number;
  /**
   * How mcpeval was started, which decides where a missing Deno flag goes (a reinstall for the
   * installed command). Undefined: as with `deno run main.ts`.
   */
  readonly launch?: Launch;
  /**
   * A signal that aborts a running discovery (SIGINT, SIGTERM, SIGHUP), its reason the signal's
   * name (`"SIGHUP"` exits 129, any other 130). Called only by commands that start servers, so
   * the others do not pay for signal handling; every call returns the same signal.
   */
  readonly interrupted?: () => AbortSignal;
}
