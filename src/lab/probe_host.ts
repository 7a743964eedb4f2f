/**
 * The probe servers, served by the lab itself: the MCP SDK's low-level `Server` per connection
 * (so the tool list goes out raw, whatever its shape), recording the client's first messages
 * (`initialize`, `server/discover` if the client probes with it, and whether it listed tools).
 *
 * A client's config names each probe server as a stdio command: `node RELAY SOCKET CATALOG`, a
 * relay of a few lines (written into the run's temporary folder) that joins the client's pipes to
 * a Unix socket in that folder, where the lab serves catalog CATALOG. Node is what every client
 * the lab installs runs on, so the command works wherever the lab does, whether it was started
 * from a clone, from JSR or as the installed command; nothing of the lab's own code runs in the
 * client's processes.
 *
 * A revision probe server (`REVISION_SERVERS`) answers only its one revision: its opening is
 * answered as `revision_answers.ts` says. A server with a `pageSize` lists its tools over pages.
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
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

/** What one catalog's server recorded of the client's opening, across its connections. */
export interface ProbeRecord {
  readonly catalog: string;
  readonly opening: unknown[];
}

/** The catalog `id` serves: a probe server, a revision probe server, or one of `extra`. */
export function catalogOf(
  id: string,
  extra: Readonly<Record<string, ProbeServer>> = {},
): { probe: ProbeServer; revision?: ProtocolVersion } | undefined {
  const revision = REVISION_SERVERS[id] as ProtocolVersion | undefined;
  if (revision) return { probe: { label: id, tools: [REVISION_TOOL] }, revision };
  const probe = Object.hasOwn(PROBE_SERVERS, id) ? PROBE_SERVERS[id] : extra[id];
  return probe ? { probe } : undefined;
}

/** The cursor of page `page` (2 and on) of a paged listing. */
const cursorOf = (page: number) => `page-${page}`;

/**
 * Serves catalog `id` on `transport` and records the opening in `record.opening` (calling
 * `changed` after each new entry). Resolves once the server is connected.
 */
export async function serveProbe(
  id: string,
  transport: Transport,
  record: ProbeRecord,
  changed: () => void = () => {},
  extra: Readonly<Record<string, ProbeServer>> = {},
): Promise<void> {
  const found = catalogOf(id, extra);
  if (!found) throw new Error(`no probe catalog ${id}`);
  const { probe, revision } = found;
  const modern = revision !== undefined && isModern(revision);
  const server = new Server({ ...SERVER_INFO }, {
    capabilities: { tools: {} },
    ...(probe.instructions ? { instructions: probe.instructions } : {}),
  });
  const entries = probe.tools.map((tool, index) => ({
    name: tool.name,
    description: probeDescription(id, index, tool.description),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  }));
  server.setRequestHandler(ListToolsRequestSchema, (request: { params?: { cursor?: unknown } }) => {
    const size = probe.pageSize ?? entries.length;
    const cursor = request.params?.cursor;
    const page = typeof cursor === "string" && /^page-[0-9]+$/.test(cursor)
      ? Number(cursor.slice(5))
      : 1;
    const tools = entries.slice((page - 1) * size, page * size);
    const next = page * size < entries.length ? { nextCursor: cursorOf(page + 1) } : {};
    return {
      tools,
      ...next,
      // The 2026-07-28 result schema: a complete, cacheable result.
      ...(modern ? { resultType: "complete", ttlMs: 0, cacheScope: "private" } : {}),
      // deno-lint-ignore no-explicit-any
    } as any;
  });
  await server.connect(transport);
  const handle = transport.onmessage!;
  transport.onmessage = (message: JSONRPCMessage, extraInfo?: Parameters<typeof handle>[1]) => {
    const { method, id: requestId } = message as { method?: unknown; id?: string | number };
    const listed = method === "tools/list";
    // tools/list once: it says the client connected (and keeps the record small). The record
    // is bounded by the client's openings, whose number the run's timeout bounds.
    if (
      method === "initialize" || method === "server/discover" ||
      (listed && !record.opening.some((m) => (m as { method: unknown }).method === method))
    ) {
      record.opening.push({
        method,
        params: listed ? null : (message as { params?: unknown }).params ?? null,
      });
      changed();
    }
    const answer = requestId === undefined || revision === undefined
      ? undefined
      : revisionAnswer(revision, method, requestId, (message as { params?: unknown }).params);
    if (answer) void transport.send(answer as JSONRPCMessage);
    else handle(message, extraInfo);
  };
}

/** Newline-delimited JSON-RPC over a stream connection, as the SDK's transports are. */
class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #closed = false;
  readonly #encoder = new TextEncoder();

  constructor(
    private readonly conn: Deno.Conn,
    private readonly lines: AsyncIterator<string>,
  ) {}

  /** Nothing is read before {@linkcode LineTransport.resume}: the recording is in place then. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Starts reading the client's messages. */
  resume(): void {
    void this.#read();
  }

  async #read(): Promise<void> {
    try {
      for (let next = await this.lines.next(); !next.done; next = await this.lines.next()) {
        if (next.value.trim() === "") continue;
        let message: JSONRPCMessage;
        try {
          message = JSON.parse(next.value);
        } catch {
          continue; // not JSON: a probe server ignores it
        }
        this.onmessage?.(message);
      }
    } catch { /* the connection broke */ }
    await this.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    const bytes = this.#encoder.encode(JSON.stringify(message) + "\n");
    try {
      for (let written = 0; written < bytes.length;) {
        written += await this.conn.write(bytes.subarray(written));
      }
    } catch { /* the client went away */ }
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    try {
      this.conn.close();
    } catch { /* already closed */ }
    this.onclose?.();
    return Promise.resolve();
  }
}

/** The lines of a connection (a bounded line: 16 MiB). */
async function* linesOf(conn: Deno.Conn): AsyncGenerator<string> {
  let buffer = "";
  for await (const chunk of conn.readable.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    if (buffer.length > 16 * 1024 * 1024) return;
    let at = buffer.indexOf("\n");
    while (at !== -1) {
      yield buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      at = buffer.indexOf("\n");
    }
  }
  if (buffer !== "") yield buffer;
}

/**
 * The relay a client's config starts for each probe server (CommonJS, for `node`): connects to
 * the socket, says which catalog, and joins its standard input and output to the connection.
 */
const RELAY = `"use strict";
const net = require("node:net");
const [socketPath, catalog] = process.argv.slice(2);
const socket = net.connect(socketPath, () => {
  socket.write(JSON.stringify({ catalog }) + "\\n");
  process.stdin.pipe(socket);
});
socket.pipe(process.stdout);
socket.on("close", () => process.exit(0));
socket.on("error", () => process.exit(1));
`;

/** The probe servers of one run, served on a Unix socket in its folder. */
export interface ProbeHost {
  /** The stdio command of catalog `id`, for the client's config. */
  command(id: string): { readonly command: string; readonly args: readonly string[] };
  /** What each catalog's server recorded, by catalog id (those never connected to: absent). */
  records(): Record<string, ProbeRecord>;
  /** Stops serving (every connection closed). */
  close(): Promise<void>;
}

/**
 * Serves the probe catalogs (of the probe set, and `extra`) on a Unix socket in `dir`, for
 * clients that start `node` (at `node`, an absolute path) with the relay written there. A
 * connection's messages are read only once its server records them (a message read before would
 * be answered unrecorded, as the first `server/discover` of a fast client was).
 */
export async function startProbeHost(
  dir: string,
  node: string,
  extra: Readonly<Record<string, ProbeServer>> = {},
): Promise<ProbeHost> {
  const socket = join(dir, "probes.sock");
  const relay = join(dir, "relay.cjs");
  await Deno.writeTextFile(relay, RELAY);
  const listener = Deno.listen({ transport: "unix", path: socket });
  const records = new Map<string, ProbeRecord>();
  const open = new Set<Deno.Conn>();
  const serving = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      void (async () => {
        const lines = linesOf(conn);
        try {
          const first = await lines.next();
          const catalog = first.done ? undefined : JSON.parse(first.value)?.catalog;
          if (typeof catalog !== "string" || !catalogOf(catalog, extra)) throw new Error();
          let record = records.get(catalog);
          if (!record) records.set(catalog, record = { catalog, opening: [] });
          const transport = new LineTransport(conn, lines);
          transport.onclose = () => open.delete(conn);
          await serveProbe(catalog, transport, record, () => {}, extra);
          transport.resume();
        } catch {
          open.delete(conn);
          try {
            conn.close();
          } catch { /* already closed */ }
        }
      })();
    }
  })().catch(() => {});
  return {
    command: (id) => ({ command: node, args: [relay, socket, id] }),
    records: () => Object.fromEntries(records),
    close: async () => {
      try {
        listener.close();
      } catch { /* already closed */ }
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
      open.clear();
      await serving;
    },
  };
}
