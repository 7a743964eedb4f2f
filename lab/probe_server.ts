/**
 * A probe MCP server over stdio (the MCP SDK's low-level `Server`, so the tool list goes out raw,
 * whatever its shape): serves one catalog of `probe_catalog.ts` and records the client's first
 * messages (`initialize`, and `server/discover` if the client probes with it) to a JSON file.
 *
 *   deno run --allow-write=DIR lab/probe_server.ts CATALOG DIR
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type JSONRPCMessage, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { PROBE_SERVERS, probeDescription } from "./probe_catalog.ts";

const [catalog, dir] = Deno.args;
const probe = PROBE_SERVERS[catalog];
if (!probe || !dir) {
  // deno-lint-ignore no-console
  console.error("usage: probe_server.ts CATALOG DIR");
  Deno.exit(2);
}

const opening: unknown[] = [];
const record = () =>
  Deno.writeTextFileSync(join(dir, `${catalog}.json`), JSON.stringify({ catalog, opening }));
record();

const server = new Server(
  { name: "mcpeval-lab-probe", version: "1.0.0" },
  {
    capabilities: { tools: {} },
    ...(probe.instructions ? { instructions: probe.instructions } : {}),
  },
);
server.setRequestHandler(ListToolsRequestSchema, () =>
  ({
    tools: probe.tools.map((tool, index) => ({
      name: tool.name,
      description: probeDescription(catalog, index),
      inputSchema: tool.inputSchema,
      ...(tool._meta ? { _meta: tool._meta } : {}),
    })),
    // deno-lint-ignore no-explicit-any
  }) as any);

const transport = new StdioServerTransport();
await server.connect(transport);
const handle = transport.onmessage!;
transport.onmessage = (message: JSONRPCMessage, extra?: Parameters<typeof handle>[1]) => {
  const method = (message as { method?: unknown }).method;
  if (method === "initialize" || method === "server/discover") {
    opening.push({ method, params: (message as { params?: unknown }).params ?? null });
    record();
  }
  handle(message, extra);
};
