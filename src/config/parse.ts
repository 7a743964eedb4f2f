/**
 * A client config file's text → its format and its server entries, in file order. JSON with
 * comments and trailing commas (`jsonc-parser`) or TOML (`smol-toml`), told apart by content.
 * Errors name a line and column, never the file's text.
 *
 * @module
 */
import {
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { parse as parseToml, TomlError } from "smol-toml";
import type { ConfigFormat } from "../config_facts.ts";
import { MAX_CONFIG_SERVERS } from "../limits.ts";

/** One server entry as written: its key and its value. */
export interface RawEntry {
  readonly key: string;
  readonly value: unknown;
}

/** A parsed config file. */
export interface ParsedConfig {
  /** The format, by the key that holds the servers. */
  readonly format: ConfigFormat;
  /** The server entries in file order, duplicates included. */
  readonly entries: readonly RawEntry[];
  /** The ids of the VS Code `inputs` the file declares. */
  readonly inputs: ReadonlySet<string>;
}

/** A config file that cannot be read as a client config. The message holds no file content. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Parses a config file's text. Throws {@linkcode ConfigError}. */
export function parseConfig(text: string): ParsedConfig {
  return looksLikeJson(text) ? parseJson(text) : parseTomlConfig(text);
}

/** Whether the first thing after white space and comments is `{`. */
function looksLikeJson(text: string): boolean {
  const rest = text.replace(/^\uFEFF/, "").replace(
    /^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/,
    "",
  );
  return rest.startsWith("{");
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line}, column ${column}`;
}

function parseJson(text: string): ParsedConfig {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0 || root === undefined) {
    const first = errors[0];
    throw new ConfigError(
      first
        ? `The config file is not valid JSON: ${printParseErrorCode(first.error)} at ${
          position(text, first.offset)
        }`
        : "The config file is not valid JSON",
    );
  }
  if (root.type !== "object") throw new ConfigError("The config file is not a JSON object");
  const top = properties(root);
  const mcp = top.find(([key]) => key === "mcp")?.[1];
  const mcpProperties = mcp?.type === "object" ? properties(mcp) : [];
  const candidates: [ConfigFormat, string, Node | undefined, Node | undefined][] = [
    ["mcpServers", "mcpServers", lastOf(top, "mcpServers"), undefined],
    ["servers", "servers", lastOf(top, "servers"), lastOf(top, "inputs")],
    ["servers", "mcp.servers", lastOf(mcpProperties, "servers"), lastOf(mcpProperties, "inputs")],
    ["context_servers", "context_servers", lastOf(top, "context_servers"), undefined],
  ];
  const found = candidates.filter(([, , node]) => node !== undefined);
  if (found.length === 0) throw noServers();
  if (found.length > 1) {
    throw new ConfigError(
      `The config file has more than one table of servers (${
        found.map(([, where]) => where).join(", ")
      }): keep one per file`,
    );
  }
  const [[format, where, servers, inputs]] = found;
  if (servers!.type !== "object") {
    throw new ConfigError(`The config file's ${where} is not an object`);
  }
  const entries = properties(servers!).map(([key, node]) => ({ key, value: getNodeValue(node) }));
  return { format, entries: bounded(entries), inputs: inputIds(inputs && getNodeValue(inputs)) };
}

/** An object node's properties in file order, duplicates included. */
function properties(node: Node): [string, Node][] {
  return (node.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    return key && value && typeof key.value === "string" ? [[key.value, value]] : [];
  });
}

function lastOf(list: [string, Node][], key: string): Node | undefined {
  return list.findLast(([name]) => name === key)?.[1];
}

function parseTomlConfig(text: string): ParsedConfig {
  let document: Record<string, unknown>;
  try {
    document = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new ConfigError(
        `The config file is neither a JSON object nor valid TOML: TOML error at line ${error.line}, column ${error.column}`,
      );
    }
    throw new ConfigError("The config file is neither a JSON object nor valid TOML");
  }
  const servers = document.mcp_servers;
  if (servers === undefined) throw noServers();
  if (!isRecord(servers)) throw new ConfigError("The config file's mcp_servers is not a table");
  const entries = Object.entries(servers).map(([key, value]) => ({ key, value }));
  return { format: "mcp_servers", entries: bounded(entries), inputs: new Set() };
}

function noServers(): ConfigError {
  return new ConfigError(
    "The config file lists no MCP servers: expected mcpServers, servers (VS Code), mcp_servers (Codex TOML) or context_servers (Zed)",
  );
}

function bounded(entries: RawEntry[]): RawEntry[] {
  if (entries.length > MAX_CONFIG_SERVERS) {
    throw new ConfigError(`The config file lists more than ${MAX_CONFIG_SERVERS} servers`);
  }
  return entries;
}

/** The `id` of each VS Code input declaration that has a string id. */
function inputIds(inputs: unknown): Set<string> {
  if (!Array.isArray(inputs)) return new Set();
  return new Set(
    inputs.flatMap((input) => isRecord(input) && typeof input.id === "string" ? [input.id] : []),
  );
}

/** Whether `value` is a plain object (a JSON object, a TOML table). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}
