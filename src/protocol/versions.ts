/**
 * The MCP protocol revisions mcpeval knows, and what differs between them for discovery.
 *
 * @module
 */

/** Every revision discovery can speak, oldest first. */
export const PROTOCOL_VERSIONS = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
  "2026-07-28",
] as const;

/** A protocol revision discovery can speak. */
export type ProtocolVersion = typeof PROTOCOL_VERSIONS[number];

/** The revision discovery speaks unless told otherwise (the seed's). */
export const PROTOCOL_VERSION: ProtocolVersion = "2025-06-18";

/** Whether `value` names a known revision. */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return (PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/**
 * Whether a revision opens with the `initialize` handshake and keeps a session; from
 * 2026-07-28 on, every request carries the version and capabilities in `_meta` instead.
 */
export function hasHandshake(version: ProtocolVersion): boolean {
  return version < "2026-07-28";
}

/** Whether a revision has Streamable HTTP (2024-11-05 had only HTTP+SSE, out of scope). */
export function hasStreamableHttp(version: ProtocolVersion): boolean {
  return version >= "2025-03-26";
}

/** Whether HTTP requests carry `MCP-Protocol-Version` (added in 2025-06-18). */
export function hasVersionHeader(version: ProtocolVersion): boolean {
  return version >= "2025-06-18";
}

/** The newest known revision among `values`, or undefined when none is known. */
export function newestKnown(values: readonly unknown[]): ProtocolVersion | undefined {
  return PROTOCOL_VERSIONS.filter((version) => values.includes(version)).at(-1);
}

/** The `_meta` keys of a 2026-07-28 request. */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
} as const;

/** JSON-RPC error codes of 2026-07-28 that discovery tells apart. */
export const ERROR_CODES = {
  methodNotFound: -32601,
  invalidParams: -32602,
  unsupportedProtocolVersion: -32022,
  missingRequiredClientCapability: -32021,
} as const;
