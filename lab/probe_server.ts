/**
 * A probe MCP server over stdio (the MCP SDK's low-level `Server`, so the tool list goes out raw,
 * whatever its shape): serves one catalog of `probe_catalog.ts` and records the client's first
 * messages (`initialize`, `server/discover` if the client probes with it, and whether it listed
 * tools) to a JSON file.
 *
 * A revision probe server (`REVISION_SERVERS`) answers only its one revision: `initialize` with
 * its own revision whatever was asked (the 2026-07-28 one refuses it with `-32022`), and
 * `server/discover` with its discover result (the initialize-era ones leave it to the SDK, which
 * answers `-32601` as servers of that era do).
 *
 *   deno run --allow-write=DIR lab/probe_server.ts CATALOG DIR
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type JSONRPCMessage, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import {
  PROBE_SERVERS,
  probeDescription,
  type ProbeServer,
  REVISION_SERVERS,
  REVISION_TOOL,
} from "./probe_catalog.ts";
import { ERROR_CODES, isProtocolVersion, revisionOf } from "../src/protocol/versions.ts";

const [catalog, dir] = Deno.args;
const revision = REVISION_SERVERS[catalog];
const probe: ProbeServer | undefined = PROBE_SERVERS[catalog] ??
  (revision ? { label: catalog, tools: [REVISION_TOOL] } : undefined);
if (!probe || !dir) {
  // deno-lint-ignore no-console
  console.error("usage: probe_server.ts CATALOG DIR");
  Deno.exit(2);
}

const opening: unknown[] = [];
const record = () =>
  Deno.writeTextFileSync(join(dir, `${catalog}.json`), JSON.stringify({ catalog, opening }));
record();

const modern = revision !== undefined && isProtocolVersion(revision) &&
  revisionOf(revision).opening === "discover";
const SERVER_INFO = { name: "mcpeval-lab-probe", version: "1.0.0" };
const server = new Server(SERVER_INFO, {
  capabilities: { tools: {} },
  ...(probe.instructions ? { instructions: probe.instructions } : {}),
});
server.setRequestHandler(ListToolsRequestSchema, () =>
  ({
    tools: probe.tools.map((tool, index) => ({
      name: tool.name,
      description: probeDescription(catalog, index),
      inputSchema: tool.inputSchema,
      ...(tool._meta ? { _meta: tool._meta } : {}),
    })),
    // The 2026-07-28 result schema: a complete, cacheable result.
    ...(modern ? { resultType: "complete", ttlMs: 0, cacheScope: "private" } : {}),
    // deno-lint-ignore no-explicit-any
  }) as any);

/** The answer of a revision probe server to an opening request, or undefined (the SDK's). */
function revisionAnswer(
  method: unknown,
  id: string | number,
  params: unknown,
): JSONRPCMessage | undefined {
  if (revision === undefined) return undefined;
  if (method === "initialize") {
    if (modern) {
      return {
        jsonrpc: "2.0",
        id,
        error: {
          code: ERROR_CODES.unsupportedProtocolVersion,
          message: "Unsupported protocol version",
          data: {
            supported: [revision],
            requested: (params as { protocolVersion?: unknown } | undefined)?.protocolVersion ??
              null,
          },
        },
      };
    }
    return {
      jsonrpc: "2.0",
      id,
      result: { protocolVersion: revision, capabilities: { tools: {} }, serverInfo: SERVER_INFO },
    };
  }
  if (method === "server/discover" && modern) {
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

const transport = new StdioServerTransport();
await server.connect(transport);
const handle = transport.onmessage!;
transport.onmessage = (message: JSONRPCMessage, extra?: Parameters<typeof handle>[1]) => {
  const { method, id } = message as { method?: unknown; id?: string | number };
  const listed = method === "tools/list";
  // tools/list once: it says the client connected (and keeps the record small).
  if (
    method === "initialize" || method === "server/discover" ||
    (listed && !opening.some((m) => (m as { method: unknown }).method === method))
  ) {
    opening.push({
      method,
      params: listed ? null : (message as { params?: unknown }).params ?? null,
    });
    record();
  }
  const answer = id === undefined
    ? undefined
    : revisionAnswer(method, id, (message as { params?: unknown }).params);
  if (answer) void transport.send(answer);
  else handle(message, extra);
};
