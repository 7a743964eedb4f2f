/**
 * What a discovery session needs from a transport, whatever carries the messages.
 *
 * @module
 */
import type { Incomplete } from "../protocol/incomplete.ts";
import type { JsonRpcMessage, RequestId } from "../protocol/messages.ts";
import type { ProtocolVersion } from "../protocol/versions.ts";
import { MAX_MESSAGE_BYTES } from "../limits.ts";

/** One thing that arrived from the server: a message, or the failure that ends the transport. */
export type Incoming =
  | { readonly kind: "message"; readonly message: JsonRpcMessage }
  | { readonly kind: "failure"; readonly incomplete: Incomplete }
  /**
   * A revision without sessions (HTTP): the server refused request `id` with an HTTP status and
   * no JSON-RPC answer; the connection stays usable (each request stands alone).
   */
  | { readonly kind: "refused"; readonly id: RequestId; readonly httpStatus?: number };

/** A connection to one MCP server for one profile. */
export interface Transport {
  /**
   * Everything the server sends, in order. A failure is the last item; the stream ending
   * without one means the connection was lost.
   */
  readonly incoming: ReadableStream<Incoming>;
  /**
   * Hands one client message to the server. Resolves once it was written (stdio) or accepted
   * (HTTP); a failure is reported on `incoming`, never thrown.
   */
  send(message: JsonRpcMessage): Promise<void>;
  /**
   * Tells the transport which revision the following messages speak (its headers and session
   * rules), when negotiation changes it; a transport without such rules ignores it.
   */
  use?(version: ProtocolVersion): void;
  /**
   * Ends the connection and releases everything it holds, and says what it could not stop.
   * Never throws.
   */
  close(): Promise<Closed>;
}

/** What closing a transport left behind. */
export interface Closed {
  /** A process of the server that mcpeval could not stop, when there is one. */
  readonly leftover?: Leftover;
}

/**
 * A server process mcpeval could not stop: `pid` is the server process's id (on Unix also its
 * process group's). `not-stopped`: the server itself did not exit after SIGKILL. `group`:
 * something it started still holds its stdout or stderr, and a narrow `--allow-run` let mcpeval
 * signal only the server itself. `escaped`: something it started left its process group and
 * still holds its stdout or stderr.
 */
export interface Leftover {
  /** The server process's id. */
  readonly pid: number;
  /** Why it is reported. */
  readonly cause: "not-stopped" | "group" | "escaped";
}

/** What a caller may hear from a transport beside the messages, given when it is opened. */
export interface TransportHooks {
  /**
   * Receives each line a stdio server writes to stderr, without its line end, cut into pieces of
   * at most `MAX_STDERR_LINE_BYTES` bytes (`continues`: the line goes on in the next piece). A
   * stdio server's stderr is always read; without this hook it is dropped, never passed on as
   * it is (its receiver masks and escapes it before it shows it). Never called for HTTP. Must
   * not throw.
   */
  readonly stderrLine?: (line: string, continues: boolean) => void;
}

/**
 * Smaller bounds for one transport than those of `src/limits.ts`, for tests: a message at a
 * limit (and one past it) is then a few kilobytes, not 64 MiB. Only the in-process caller that
 * opens the transport can pass them (the CLI and the library never do), and a bound can only
 * shrink: a value above the default, or not a positive integer, leaves the default.
 */
export interface TransportLimits {
  /** One incoming message (a stdio line, a JSON body, an SSE event's data) at most, in bytes. */
  readonly maxMessageBytes?: number;
}

/** The message bound a transport applies: `MAX_MESSAGE_BYTES`, or a smaller injected one. */
export function maxMessageBytes(limits: TransportLimits = {}): number {
  const bytes = limits.maxMessageBytes;
  return bytes !== undefined && Number.isSafeInteger(bytes) && bytes > 0
    ? Math.min(bytes, MAX_MESSAGE_BYTES)
    : MAX_MESSAGE_BYTES;
}
