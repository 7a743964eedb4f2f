/**
 * JSON-RPC 2.0 message shapes as MCP 2025-06-18 defines them (no batches), and parsing of one
 * incoming message.
 *
 * @module
 */
import { z } from "zod";

const RequestId = z.union([z.string(), z.int()]);
const Params = z.record(z.string(), z.unknown());

const RequestSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: RequestId,
  method: z.string(),
  params: Params.optional(),
});

const NotificationSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: Params.optional(),
});

const ResultResponseSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: RequestId,
  result: z.record(z.string(), z.unknown()),
});

const ErrorResponseSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: RequestId,
  error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
});

/** A request id: a string or an integer (never null; `0` is valid). */
export type RequestId = z.infer<typeof RequestId>;
/** A JSON-RPC request. */
export type JsonRpcRequest = z.infer<typeof RequestSchema>;
/** A JSON-RPC notification. */
export type JsonRpcNotification = z.infer<typeof NotificationSchema>;
/** A successful JSON-RPC response. */
export type JsonRpcResult = z.infer<typeof ResultResponseSchema>;
/** An error JSON-RPC response. */
export type JsonRpcError = z.infer<typeof ErrorResponseSchema>;
/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

/** Any single JSON-RPC message, classified by its members. */
export const JsonRpcMessageSchema = z.union([
  RequestSchema,
  NotificationSchema,
  ResultResponseSchema,
  ErrorResponseSchema,
]);

/** Whether `message` is a request (it has both `id` and `method`). */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

/** Whether `message` is a notification. */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
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
  const parsed = JsonRpcMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
