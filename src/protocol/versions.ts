/**
 * The MCP protocol revisions mcpeval knows, and the one discovery speaks.
 *
 * @module
 */

/** The protocol revision that discovery speaks and requires (the seed's). */
export const PROTOCOL_VERSION = "2025-06-18";

/** The protocol revision discovery speaks. */
export type ProtocolVersion = typeof PROTOCOL_VERSION;
