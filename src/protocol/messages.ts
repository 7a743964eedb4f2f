/**
 * JSON-RPC 2.0 messages as MCP 2025-06-18 defines them (no batches), and parsing of one incoming
 * message. Hand-checked rather than zod: this runs for every message (floods of notifications
 * included) and must not delay spawning servers by loading zod first.
 *
 * @module
 */

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

/**
 * Parses one incoming message from its JSON text. Returns `undefined` for anything that is not
 * exactly one valid JSON-RPC 2.0 object (batches included).
 */
export function parseMessage(text: string): JsonRpcMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isJsonRpcMessage(value) ? value : undefined;
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
