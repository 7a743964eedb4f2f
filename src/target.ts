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
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly stderr: ServerStderr;
}

/** A Streamable HTTP endpoint. */
export interface HttpTarget {
  readonly kind: "streamable-http";
  readonly url: URL;
  /** Extra request headers: name and value, sent with every request. */
  readonly headers: readonly (readonly [string, string])[];
}

/** Where the server is. */
export type Target = StdioTarget | HttpTarget;

/** The transport names a report records. */
export type TransportKind = Target["kind"];
