/**
 * Streamable HTTP facts shared by the transport and by request validation.
 *
 * @module
 */

/** Headers the Streamable HTTP transport sets itself; `--header` may not replace them. */
export const RESERVED_HEADERS: readonly string[] = [
  "accept",
  "content-type",
  "content-length",
  "host",
  "mcp-session-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "connection",
  "transfer-encoding",
];
