/**
 * One probe server over stdio, for tests and by hand (the lab serves its probe servers itself,
 * `probe_host.ts`): serves one catalog of `probe_catalog.ts` and records the client's first
 * messages to `DIR/CATALOG.json`, kept across restarts.
 *
 *   deno run --allow-read=DIR --allow-write=DIR src/lab/probe_server.ts CATALOG DIR
 *
 * @module
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { join } from "node:path";
import { catalogOf, type ProbeRecord, serveProbe } from "./probe_host.ts";

const [catalog, dir] = Deno.args;
if (!catalog || !catalogOf(catalog) || !dir) {
  // deno-lint-ignore no-console
  console.error("usage: probe_server.ts CATALOG DIR");
  Deno.exit(2);
}

const file = join(dir, `${catalog}.json`);
/** What the client sent so far, kept across restarts (a client may start a server again). */
const record: ProbeRecord = { catalog, opening: [] };
try {
  const before = JSON.parse(Deno.readTextFileSync(file)).opening;
  if (Array.isArray(before)) record.opening.push(...before);
} catch { /* the first start */ }
const write = () => Deno.writeTextFileSync(file, JSON.stringify(record));
write();
await serveProbe(catalog, new StdioServerTransport(), record, write);
