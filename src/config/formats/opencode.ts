/**
 * opencode `opencode.json` / `opencode.jsonc`: `mcp` (or `mcp.servers`) with `type: "local"`
 * and a `command` array, or `type: "remote"` with `url` and `headers`; `enabled: false` (or
 * `disabled: true`) turns one off; `{env:VAR}` in its strings is an environment variable; the
 * top-level `tools` map of wildcards hides the tools it sets to `false`.
 *
 * @module
 */
import { opencodeName, type ToolWildcardStep } from "../../analysis/tool_filters.ts";
import { checkEntry, given, isRecord, stringPairs } from "../spec.ts";
import {
  type ConfigDocument,
  type FormatModule,
  mapStrings,
  placeOf,
  tableEntries,
} from "./format.ts";

/** The path of the server table: `mcp`, or `mcp.servers` in the newer layout. */
function tablePath(document: ConfigDocument): string[] {
  const servers = document.value(["mcp", "servers"]);
  return isRecord(servers) && typeof servers.type !== "string" ? ["mcp", "servers"] : ["mcp"];
}

/**
 * Both layouts at once (`mcp.servers` beside entries of `mcp` itself): opencode's config schema
 * reads `mcp` as one record of servers, so the two tables are never one file's servers.
 */
function tables(document: ConfigDocument): string[] {
  if (tablePath(document).length === 1) return ["mcp"];
  const beside = (document.properties(["mcp"]) ?? []).some(({ key, value }) =>
    key !== "servers" && isRecord(value)
  );
  return beside ? ["mcp.servers", "mcp"] : ["mcp.servers"];
}

/** `{env:VAR}` as `${VAR}`; `{file:...}` as a variable the shared resolution does not support. */
const variables = (text: string) =>
  text.replaceAll(
    /(?<!\$)\{(env|file):([^}]*)\}/g,
    (_, kind: string, body: string) => kind === "env" ? `\${${body}}` : `\${file:${body}}`,
  );

/**
 * The top-level `tools` map (`{"gitlab_*": false}`) as this server's filter: opencode names an
 * MCP tool `SERVER_TOOL` (each sanitized) and matches that id with its wildcards. Absent: no
 * step; a map whose values are not all booleans: null (`invalid-entry`, field `tools`).
 */
function toolsStep(document: ConfigDocument, key: string): ToolWildcardStep[] | null {
  const tools = document.value(["tools"]);
  if (!given(tools)) return [];
  if (!isRecord(tools)) return null;
  const patterns = Object.entries(tools);
  if (!patterns.every(([, value]) => typeof value === "boolean")) return null;
  return patterns.length === 0 ? [] : [{
    rule: "tools",
    effect: "wildcard",
    patterns: patterns as [string, boolean][],
    prefix: `${opencodeName(key)}_`,
  }];
}

/** The opencode shape. */
export const opencode: FormatModule = {
  clients: "opencode",
  format: "mcp",
  expected: "mcp (opencode)",
  syntax: ["json"],
  table: (document) =>
    isRecord(document.value(["mcp"])) ? tablePath(document).join(".") : undefined,
  tables,
  claims: (document) => {
    const schema = document.value(["$schema"]);
    if (typeof schema === "string" && schema.includes("opencode.ai")) return true;
    if (/^opencode\.jsonc?$/.test(placeOf(document.path).name)) return true;
    const entries = document.properties(["mcp"]) ?? [];
    return entries.length > 0 &&
      entries.every(({ value }) =>
        isRecord(value) && (value.type === "local" || value.type === "remote")
      );
  },
  entries: (document) => {
    const path = tablePath(document);
    return tableEntries(document, path, path.join("."));
  },
  entry: (written, { key, document }) => {
    const value = mapStrings(written, variables) as Record<string, unknown>;
    const { type, command } = value;
    const local = type === "local" || (!given(type) && given(command));
    const list = Array.isArray(command) ? command : undefined;
    return checkEntry({
      disabled: value.enabled === false || value.disabled === true,
      transport: !given(type)
        ? undefined
        : typeof type !== "string"
        ? null
        : local
        ? "stdio"
        : type === "remote"
        ? "streamable-http"
        : "unsupported",
      // The command is one array: the program, then its arguments.
      command: local ? (list ? list[0] : null) : undefined,
      args: local && list ? list.slice(1) : undefined,
      env: stringPairs(value.environment),
      cwd: value.cwd,
      url: value.url,
      headers: stringPairs(value.headers),
      toolFilter: toolsStep(document, key),
    });
  },
};
