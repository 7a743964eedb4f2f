/**
 * JSON-RPC 2.0 messages as MCP 2025-06-18 defines them (no batches), and parsing of one incoming
 * message. Hand-checked rather than zod: this runs for every message (floods of notifications
 * included) and must not delay spawning servers by loading zod first.
 *
 * @module
 */
import { closingQuote, endsInEscape } from "../json_text.ts";
import { MAX_MESSAGE_CONTAINERS, STRUCTURE_SCAN_BYTES } from "../limits.ts";

/** A request id: a string or an integer (never null; `0` is valid). */
export type RequestId = string | number;

/** A JSON-RPC request. */
export interface JsonRpcRequest {
  /** The JSON-RPC version; always `"2.0"`. */
  jsonrpc: "2.0";
  /** Chosen by the sender; the response carries the same id. */
  id: RequestId;
  /** The MCP method, such as `tools/list`. */
  method: string;
  /** The method's parameters; an object when present. */
  params?: Record<string, unknown>;
}

/** A JSON-RPC notification. */
export interface JsonRpcNotification {
  /** The JSON-RPC version; always `"2.0"`. */
  jsonrpc: "2.0";
  /** The MCP method, such as `notifications/initialized`. */
  method: string;
  /** The method's parameters; an object when present. */
  params?: Record<string, unknown>;
}

/** A successful JSON-RPC response. */
export interface JsonRpcResult {
  /** The JSON-RPC version; always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id of the request this answers. */
  id: RequestId;
  /** The method's result; always an object in MCP. */
  result: Record<string, unknown>;
}

/** An error JSON-RPC response. */
export interface JsonRpcError {
  /** The JSON-RPC version; always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id of the request this answers. */
  id: RequestId;
  /** An integer error code, a short description, and optional details from the sender. */
  error: { code: number; message: string; data?: unknown };
}

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

/** Whether `message` is a request (it has both `id` and `method`). */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

/** Whether `message` is a response (result or error). */
export function isResponse(message: JsonRpcMessage): message is JsonRpcResult | JsonRpcError {
  return !("method" in message);
}

/** Why an incoming text is not a message discovery can use. */
export type MessageProblem = "malformed-message" | "message-too-large";

/**
 * Parses one incoming message from its JSON text: the message, or `"malformed-message"` for
 * anything that is not exactly one valid JSON-RPC 2.0 object (batches included), or
 * `"message-too-large"` when a large text holds more objects and arrays than
 * {@linkcode MAX_MESSAGE_CONTAINERS} (checked before parsing, so memory stays bounded).
 */
export function parseMessage(
  text: string,
  /** The structure bound was already checked (a {@linkcode ContainerCounter} on its bytes). */
  structureChecked = false,
): JsonRpcMessage | MessageProblem {
  if (
    !structureChecked && text.length > STRUCTURE_SCAN_BYTES &&
    !containersAtMost(text, MAX_MESSAGE_CONTAINERS)
  ) {
    return "message-too-large";
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "malformed-message";
  }
  return isJsonRpcMessage(value) ? value : "malformed-message";
}

const OUTSIDE_STRING = /[{["]/g;

/**
 * Whether `text`, read as JSON, opens at most `max` objects and arrays. Strings are skipped
 * (with their escapes), so brackets in descriptions do not count. Linear in the length.
 */
export function containersAtMost(text: string, max: number): boolean {
  let count = 0;
  let index = 0;
  while (true) {
    OUTSIDE_STRING.lastIndex = index;
    const open = OUTSIDE_STRING.exec(text);
    if (open === null) return true;
    index = open.index + 1;
    if (text.charCodeAt(open.index) !== 0x22) {
      if (++count > max) return false;
      continue;
    }
    const quote = closingQuote(text, index, text.length);
    if (quote === -1) return true;
    index = quote + 1;
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isRequestId = (value: unknown): value is RequestId =>
  typeof value === "string" || Number.isSafeInteger(value);
const only = (value: Json, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

const REQUEST_KEYS = ["jsonrpc", "id", "method", "params"] as const;
const RESULT_KEYS = ["jsonrpc", "id", "result"] as const;
const ERROR_KEYS = ["jsonrpc", "id", "error"] as const;

/**
 * Whether `value` is one JSON-RPC 2.0 message: a request or notification (`method`, optional
 * object `params`), or a response with an `id` and exactly one of an object `result` or an
 * `error` with an integer `code` and a string `message`. No other members are allowed.
 */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  if (!isObject(value) || value.jsonrpc !== "2.0") return false;
  if ("method" in value) {
    return typeof value.method === "string" &&
      (!("params" in value) || isObject(value.params)) &&
      (!("id" in value) || isRequestId(value.id)) &&
      only(value, REQUEST_KEYS);
  }
  if (!isRequestId(value.id)) return false;
  if ("result" in value) return isObject(value.result) && only(value, RESULT_KEYS);
  const { error } = value;
  return isObject(error) && Number.isSafeInteger(error.code) &&
    typeof error.message === "string" && only(value, ERROR_KEYS);
}

/**
 * Counts the objects and arrays a JSON text opens, fed as UTF-8 bytes in pieces (strings and
 * their escapes skipped; the bytes `"`, `\`, `{` and `[` never occur inside a multi-byte
 * character). Lets the stdio framing reject a line before it is buffered whole.
 */
export class ContainerCounter {
  /** The most containers a text may open. */
  readonly max: number;
  #count = 0;
  #inString = false;
  #escaped = false;

  /** A counter that reports more than `max` containers. */
  constructor(max: number) {
    this.max = max;
  }

  /** Feeds `bytes[start, end)`; false once more than the maximum were opened. */
  feed(bytes: Uint8Array, start = 0, end: number = bytes.length): boolean {
    let count = this.#count;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let i = start;
    while (i < end) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        const quote = closingQuote(bytes, i, end);
        if (quote === -1) {
          escaped = endsInEscape(bytes, i, end);
          i = end;
        } else {
          inString = false;
          i = quote + 1;
        }
        continue;
      }
      const byte = bytes[i++];
      if (byte === 0x22) inString = true;
      else if (byte === 0x7b || byte === 0x5b) count++;
    }
    this.#count = count;
    this.#inString = inString;
    this.#escaped = escaped;
    return count <= this.max;
  }

  /** The containers opened so far. */
  get count(): number {
    return this.#count;
  }

  /** Starts counting a new text. */
  reset(): void {
    this.#count = 0;
    this.#inString = false;
    this.#escaped = false;
  }
}
