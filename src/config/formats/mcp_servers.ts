/**
 * `mcpServers` (Claude Desktop, Claude Code `.mcp.json`, Cursor `.cursor/mcp.json`, Windsurf,
 * Cline, and Continue's JSON blocks): stdio `{command, args, env, envFile, cwd}`, remote
 * `{url | serverUrl | httpUrl, headers}`, `type` or Cline's `transportType`.
 *
 * @module
 */
import { checkEntry, given, stringPairs, transportOf, type WrittenEntry } from "../spec.ts";
import { type ConfigDocument, type FormatModule, tableEntries } from "./format.ts";

/** An `mcpServers` entry in the shared shape; other `mcpServers` clients start from it. */
export function mcpServersEntry(value: Readonly<Record<string, unknown>>): WrittenEntry {
  return {
    disabled: value.disabled === true || value.enabled === false,
    transport: transportOf(value.type ?? value.transportType),
    command: value.command,
    args: value.args,
    env: stringPairs(value.env),
    envFile: value.envFile,
    cwd: value.cwd,
    url: [value.url, value.serverUrl, value.httpUrl].find(given),
    headers: stringPairs(value.headers),
  };
}

/** Whether the document has an `mcpServers` table (a YAML list is Continue's). */
export function hasMcpServers(document: ConfigDocument): boolean {
  const table = document.value(["mcpServers"]);
  return table !== undefined && !(document.syntax === "yaml" && Array.isArray(table));
}

/** The `mcpServers` shape. */
export const mcpServers: FormatModule = {
  clients: "Claude Desktop, Claude Code .mcp.json, Cursor, Windsurf, Cline",
  format: "mcpServers",
  expected: "mcpServers",
  syntax: ["json", "yaml"],
  table: (document) => hasMcpServers(document) ? "mcpServers" : undefined,
  entries: (document) => tableEntries(document, ["mcpServers"], "mcpServers"),
  entry: (value) => checkEntry(mcpServersEntry(value)),
};
