/**
 * Where a server is: the targets discovery can reach, as validated data.
 *
 * @module
 */

/** What to do with a stdio server's stderr. It is always read, so the server never blocks. */
export type ServerStderr = "discard" | "inherit";

/** The values of `--server-stderr`. */
export const SERVER_STDERR_MODES: readonly ServerStderr[] = ["discard", "inherit"];

/** A server started as a subprocess and spoken to over stdio. */
export interface StdioTarget {
  /** Selects the stdio transport. */
  readonly kind: "stdio";
  /** The program to start: a path, or a name looked up on PATH. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** What happens to the server's stderr. */
  readonly stderr: ServerStderr;
  /** Variables set for the server, over the environment it inherits. */
  readonly env?: Readonly<Record<string, string>>;
  /** The folder the server starts in; default mcpeval's own. */
  readonly cwd?: string;
}

/** A Streamable HTTP endpoint. */
export interface HttpTarget {
  /** Selects the Streamable HTTP transport. */
  readonly kind: "streamable-http";
  /** The MCP endpoint: `http:` or `https:`, without credentials. */
  readonly url: URL;
  /** Extra request headers: name and value, sent with every request. */
  readonly headers: readonly (readonly [string, string])[];
}

/** Where the server is. */
export type Target = StdioTarget | HttpTarget;

/** The transport names a report records. */
export type TransportKind = Target["kind"];
