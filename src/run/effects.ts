/**
 * The effects a run has, passed in: the CLI's context supplies them, and so does the library
 * (Deno's own), so that a run of one server or of a config file's servers is the same code.
 *
 * @module
 */
import type { ProtocolVersion } from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import type { Transport, TransportHooks } from "../transport/transport.ts";

/** What a run reads, asks and opens. */
export interface RunEffects {
  /** Reads an environment variable (for `--input`, `--header` and config variables); throws without its permission. */
  readonly env: (name: string) => string | undefined;
  /** The state of a Deno permission; never prompts. */
  readonly permission: (descriptor: Deno.PermissionDescriptor) => Promise<Deno.PermissionState>;
  /**
   * Reads a UTF-8 text file (`--client-file`, `--config` and the env files it names,
   * `--baseline`; `-` is standard input). Throws when it cannot, and a `RangeError` (reading
   * stops there) when it holds more than `maxBytes` bytes.
   */
  readonly readTextFile: (path: string, maxBytes?: number) => Promise<string>;
  /** The current folder (`--config` resolves `${workspaceFolder}` and relative paths from it). */
  readonly cwd: () => string;
  /**
   * Where the flags of a missing permission go, as a clause after them (the CLI: before the
   * script, or in the install line of an installed command); default none.
   */
  readonly whereFlagsGo?: (flags: string) => string;
  /**
   * Opens a connection to a server; throws when a command cannot be started. `hooks` hear what
   * is not a message (a stdio server's stderr lines).
   */
  readonly openTransport: (
    target: Target,
    version: ProtocolVersion,
    hooks?: TransportHooks,
  ) => Promise<Transport>;
}
