/**
 * A probe MCP server over stdio (the MCP SDK's low-level `Server`, so the tool list goes out raw,
 * whatever its shape): serves one catalog of `probe_catalog.ts` and records the client's first
 * messages (`initialize`, `server/discover` if the client probes with it, and whether it listed
 * tools) to a JSON file.
 *
 * A revision probe server (`REVISION_SERVERS`) answers only its one revision: its opening is
 * answered as `revision_answers.ts` says.
 *
 *   deno run --allow-read=DIR --allow-write=DIR lab/probe_server.ts CATALOG DIR
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type JSONRPCMessage, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import type { ProtocolVersion } from "../protocol/versions.ts";
import {
  PROBE_SERVERS,
  probeDescription,
  type ProbeServer,
  REVISION_SERVERS,
  REVISION_TOOL,
} from "./probe_catalog.ts";
import { isModern, revisionAnswer, SERVER_INFO } from "./revision_answers.ts";

const [catalog, dir] = Deno.args;
const revision = REVISION_SERVERS[catalog] as ProtocolVersion | undefined;
const probe: ProbeServer | undefined = PROBE_SERVERS[catalog] ??
  (revision ? { label: catalog, tools: [REVISION_TOOL] } : undefined);
if (!probe || !dir) {
  // deno-lint-ignore no-console
  console.error("usage: probe_server.ts CATALOG DIR");
  Deno.exit(2);
}

const file = join(dir, `${catalog}.json`);
/** What the client sent so far, kept across restarts (a client may start a server again). */
const opening: unknown[] = [];
try {
  const before = JSON.parse(Deno.readTextFileSync(file)).opening;
  if (Array.isArray(before)) opening.push(...before);
} catch { /* the first start */ }
const record = () => Deno.writeTextFileSync(file, JSON.stringify({ catalog, opening }));
record();

const modern = revision !== undefined && isModern(revision);
const server = new Server({ ...SERVER_INFO }, {
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

const transport = new StdioServerTransport();
await server.connect(transport);
const handle = transport.onmessage!;
transport.onmessage = (message: JSONRPCMessage, extra?: Parameters<typeof handle>[1]) => {
  const { method, id } = message as { method?: unknown; id?: string | number };
  const listed = method === "tools/list";
  // tools/list once: it says the client connected (and keeps the record small). The record is
  // bounded by the client's openings, whose number the run's timeout bounds.
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
  const answer = id === undefined || revision === undefined
    ? undefined
    : revisionAnswer(revision, method, id, (message as { params?: unknown }).params);
  if (answer) void transport.send(answer as JSONRPCMessage);
  else handle(message, extra);
};
