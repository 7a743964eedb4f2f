/**
 * How a revision probe server answers the opening of a connection: it speaks only its one
 * revision. `initialize` asking for any revision is answered with the server's own (as the
 * specification says; a client that does not support it disconnects), and the 2026-07-28
 * server refuses `initialize` with `-32022` listing its revision (as a modern-only server does).
 * `server/discover` gets the discover result from the 2026-07-28 server and `-32601` from the
 * initialize-era ones (as servers of that era answer an unknown method). Shared by
 * `probe_server.ts` and the offline test that opens each revision as a preset does.
 *
 * @module
 */
import { ERROR_CODES, type ProtocolVersion, revisionOf } from "../protocol/versions.ts";

/** The serverInfo of every probe server. */
export const SERVER_INFO = { name: "mcpeval-lab-probe", version: "1.0.0" } as const;

/** A JSON-RPC answer (a result or an error) to one request. */
export type Answer =
  | { jsonrpc: "2.0"; id: string | number; result: Record<string, unknown> }
  | {
    jsonrpc: "2.0";
    id: string | number;
    error: { code: number; message: string; data?: unknown };
  };

/** Whether `revision` opens with `server/discover` (its results follow the 2026-07-28 schema). */
export const isModern = (revision: ProtocolVersion): boolean =>
  revisionOf(revision).opening === "discover";

/**
 * The answer of the server that speaks only `revision` to an opening request (`initialize`,
 * `server/discover`), or undefined for any other method.
 */
export function revisionAnswer(
  revision: ProtocolVersion,
  method: unknown,
  id: string | number,
  params: unknown,
): Answer | undefined {
  const modern = isModern(revision);
  if (method === "initialize") {
    if (modern) {
      const requested = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      return {
        jsonrpc: "2.0",
        id,
        error: {
          code: ERROR_CODES.unsupportedProtocolVersion,
          message: "Unsupported protocol version",
          data: { supported: [revision], requested: requested ?? null },
        },
      };
    }
    return {
      jsonrpc: "2.0",
      id,
      result: { protocolVersion: revision, capabilities: { tools: {} }, serverInfo: SERVER_INFO },
    };
  }
  if (method === "server/discover") {
    if (!modern) {
      return {
        jsonrpc: "2.0",
        id,
        error: { code: ERROR_CODES.methodNotFound, message: "Method not found" },
      };
    }
    return {
      jsonrpc: "2.0",
      id,
      result: {
        resultType: "complete",
        supportedVersions: [revision],
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
        ttlMs: 0,
        cacheScope: "private",
      },
    };
  }
  return undefined;
}
