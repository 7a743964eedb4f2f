/**
 * Every effect the CLI has, passed in, so that the command-line rules can be tested in-process
 * and embedders can supply their own.
 *
 * @module
 */
import type { ProtocolVersion } from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import type { Transport, TransportHooks } from "../transport/transport.ts";

/** Every effect the CLI has. */
export interface CliContext {
  /** Writes to standard output. */
  readonly stdout: (text: string) => Promise<void>;
  /** Writes to standard error. */
  readonly stderr: (text: string) => Promise<void>;
  /** Reads an environment variable (for `--header`); may throw without permission. */
  readonly env: (name: string) => string | undefined;
  /** The state of a Deno permission; never prompts. */
  readonly permission: (descriptor: Deno.PermissionDescriptor) => Promise<Deno.PermissionState>;
  /**
   * Makes sure a report file can be written before discovery (its folder exists and it can be
   * opened for writing), creating it empty when it does not exist. Throws when it cannot.
   */
  readonly reserveFile: (path: string) => Promise<{ readonly created: boolean }>;
  /** Removes a file that {@linkcode CliContext.reserveFile} created but that was never written. */
  readonly removeFile: (path: string) => Promise<void>;
  /**
   * Reads a UTF-8 text file (`--client-file`, `--config` and the env files it names,
   * `--baseline`; `-` is standard input). Throws when it cannot, and a `FileTooLargeError` (a
   * `RangeError`; reading stops there) when it holds more than `maxBytes` bytes. The process's
   * own (`readTextFile` in src/cli/files.ts) never blocks: regular files only (a FIFO, device or
   * socket is refused unopened), read within `FILE_READ_DEADLINE_MS`.
   */
  readonly readTextFile: (path: string, maxBytes?: number) => Promise<string>;
  /** The current folder (`--config` resolves `${workspaceFolder}` and relative paths from it). */
  readonly cwd: () => string;
  /** Writes (or appends to) a file: `--output` reports and the GitHub step summary. */
  readonly writeFile: (path: string, text: string, options: { append: boolean }) => Promise<void>;
  /**
   * Opens a connection to a server; throws when a command cannot be started. `hooks` hear what
   * is not a message (a stdio server's stderr lines).
   */
  readonly openTransport: (
    target: Target,
    version: ProtocolVersion,
    hooks?: TransportHooks,
  ) => Promise<Transport>;
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
   * A signal that aborts a running discovery (SIGINT, SIGTERM, SIGHUP), its reason the signal's
   * name (`"SIGHUP"` exits 129, any other 130). Called only by commands that start servers, so
   * the others do not pay for signal handling; every call returns the same signal.
   */
  readonly interrupted?: () => AbortSignal;
}
