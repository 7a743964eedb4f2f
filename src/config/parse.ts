/**
 * A client config file's text → its format and its server entries, in file order. JSON with
 * comments and trailing commas (`jsonc-parser`), TOML (`smol-toml`) or YAML (`js-yaml`, loaded
 * only when a YAML file is read), told apart by content and file name; the shape is the
 * registered format module that recognises the document. Errors name a line and column,
 * never the file's text.
 *
 * @module
 */
import type { Node, ParseError } from "jsonc-parser";
import { getNodeValue, parseTree, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml, TomlError } from "smol-toml";
import type { ConfigFormat } from "../config_facts.ts";
import { MAX_CONFIG_SERVERS } from "../limits.ts";
import { type EntrySpec, invalid, isRecord, type NotChecked } from "./spec.ts";
import {
  type ConfigDocument,
  ConfigError,
  type FormatModule,
  moreThanOneTable,
  type RawEntry,
  type ReadOptions,
} from "./formats/format.ts";
import { EXPECTED_TABLES, FORMAT_MODULES } from "./formats/registry.ts";

export { ConfigError, isRecord, type RawEntry };

/** A parsed config file. */
export interface ParsedConfig {
  /** The format, by the key that holds the servers. */
  readonly format: ConfigFormat;
  /** The server entries in file order, duplicates included. */
  readonly entries: readonly RawEntry[];
  /** The ids of the VS Code `inputs` the file declares. */
  readonly inputs: ReadonlySet<string>;
  /** One entry's value (and key) → its spec, by the rules of the file's format. */
  readonly spec: (value: unknown, key: string) => EntrySpec | NotChecked;
}

/** The `js-yaml` parser, passed in by {@linkcode readConfig}, which loads it lazily. */
export type YamlModule = Pick<
  typeof import("js-yaml"),
  "load" | "CORE_SCHEMA" | "mergeTag" | "YAMLException"
>;

/** How to read a config file besides its text. */
export interface ParseOptions {
  /** The file's path as given: some clients' files differ only by name or folder. */
  readonly path?: string;
  /** `--config-project`: the project of a Claude Code user file. */
  readonly project?: string;
  /** The folder mcpeval runs in (a relative `project` is resolved in it); default the process's. */
  readonly cwd?: string;
  /** The YAML parser; without it a YAML file throws {@linkcode YamlNeeded}. */
  readonly yaml?: YamlModule;
}

/** A YAML file was given to {@linkcode parseConfig} without a YAML parser. */
export class YamlNeeded extends Error {
  constructor() {
    super("a YAML parser is needed for this file");
    this.name = "YamlNeeded";
  }
}

/** Parses a config file, loading the YAML parser first when the file is YAML. */
export async function readConfig(text: string, options: ParseOptions = {}): Promise<ParsedConfig> {
  try {
    return parseConfig(text, options);
  } catch (error) {
    if (!(error instanceof YamlNeeded)) throw error;
    return parseConfig(text, { ...options, yaml: await import("js-yaml") });
  }
}

/** Parses a config file's text. Throws {@linkcode ConfigError}. */
export function parseConfig(text: string, options: ParseOptions = {}): ParsedConfig {
  const path = options.path ?? "";
  const document = looksLikeJson(text)
    ? jsonDocument(text, path)
    : /\.ya?ml$/i.test(path)
    ? yamlDocument(text, path, options.yaml)
    : tomlOrYaml(text, path, options.yaml);
  const module = formatOf(document);
  const tables = module.tables?.(document) ?? [];
  if (tables.length > 1) throw moreThanOneTable(tables);
  const readOptions: ReadOptions = options.project === undefined
    ? {}
    : { project: options.project, cwd: options.cwd ?? Deno.cwd() };
  const userFile = module.projects === true;
  if (options.project !== undefined && !userFile) {
    throw new ConfigError(
      "--config-project applies only to Claude Code's user file (~/.claude.json)",
    );
  }
  const entries = module.entries(document, readOptions);
  if (entries.length === 0) {
    throw new ConfigError(
      userFile && options.project === undefined
        ? "The config file lists no servers of its own: give --config-project PATH to check a project's servers"
        : `The config file's ${module.table(document)} lists no servers: there is nothing to check`,
    );
  }
  if (entries.length > MAX_CONFIG_SERVERS) {
    throw new ConfigError(`The config file lists more than ${MAX_CONFIG_SERVERS} servers`);
  }
  return {
    format: module.format,
    entries,
    inputs: module.inputs?.(document) ?? new Set(),
    spec: (value, key) =>
      isRecord(value) ? module.entry(value, { path, key, document }) : invalid("entry"),
  };
}

/** The module whose shape the document is. */
function formatOf(document: ConfigDocument): FormatModule {
  const fitting = FORMAT_MODULES.filter((module) =>
    module.syntax.includes(document.syntax) && module.table(document) !== undefined
  );
  const claimed = fitting.find((module) => module.claims?.(document));
  if (claimed) return claimed;
  const plain = fitting.filter((module) => module.claims === undefined);
  const tables = [...new Set(plain.map((module) => module.table(document)!))];
  if (tables.length === 0) {
    throw new ConfigError(`The config file lists no MCP servers: expected ${EXPECTED_TABLES}`);
  }
  if (tables.length > 1) throw moreThanOneTable(tables);
  return plain[0];
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

function jsonDocument(text: string, path: string): ConfigDocument {
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
  const nodeAt = (keys: readonly string[]): Node | undefined => {
    let node: Node | undefined = root;
    for (const key of keys) {
      node = node.type === "object"
        ? properties(node).findLast(([name]) => name === key)?.[1]
        : undefined;
      if (node === undefined) return undefined;
    }
    return node;
  };
  return {
    syntax: "json",
    path,
    value: (keys) => {
      const node = nodeAt(keys);
      return node === undefined ? undefined : getNodeValue(node);
    },
    properties: (keys) => {
      const node = nodeAt(keys);
      if (node === undefined) return undefined;
      if (node.type !== "object") return null;
      return properties(node).map(([key, value]) => ({ key, value: getNodeValue(value) }));
    },
  };
}

/** An object node's properties in file order, duplicates included. */
function properties(node: Node): [string, Node][] {
  return (node.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    return key && value && typeof key.value === "string" ? [[key.value, value]] : [];
  });
}

/** A document of plain values (TOML and YAML: a repeated key is an error or the last wins). */
function valueDocument(
  syntax: "toml" | "yaml",
  root: Record<string, unknown>,
  path: string,
): ConfigDocument {
  const value = (keys: readonly string[]): unknown => {
    let current: unknown = root;
    for (const key of keys) {
      if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
      current = current[key];
    }
    return current;
  };
  return {
    syntax,
    path,
    value,
    properties: (keys) => {
      const table = value(keys);
      if (table === undefined || table === null) return table === null ? null : undefined;
      return isRecord(table)
        ? Object.entries(table).map(([key, item]) => ({ key, value: item }))
        : null;
    },
  };
}

/** TOML, or YAML when the text is not TOML but is a YAML map. */
function tomlOrYaml(text: string, path: string, yaml: YamlModule | undefined): ConfigDocument {
  try {
    return valueDocument("toml", parseToml(text), path);
  } catch (error) {
    const message = error instanceof TomlError
      ? `The config file is neither a JSON object nor valid TOML: TOML error at line ${error.line}, column ${error.column}`
      : "The config file is neither a JSON object nor valid TOML";
    if (!/^[A-Za-z_][\w.-]*:(?:\s|$)/m.test(text)) throw new ConfigError(message);
    if (yaml === undefined) throw new YamlNeeded();
    try {
      return yamlDocument(text, path, yaml);
    } catch {
      throw new ConfigError(message);
    }
  }
}

function yamlDocument(text: string, path: string, yaml: YamlModule | undefined): ConfigDocument {
  if (yaml === undefined) throw new YamlNeeded();
  let root: unknown;
  try {
    // YAML 1.2 (its core schema), as both YAML clients read: Goose with Rust's serde_yaml,
    // Continue with the `yaml` package's default. So `off`, `yes` or `on` stay strings, keys
    // and values alike. The merge key (`<<: *anchor`) is applied as before; a repeated key
    // keeps the last, as the clients do; aliases are bounded.
    root = yaml.load(text, {
      schema: yaml.CORE_SCHEMA.withTags(yaml.mergeTag),
      json: true,
      maxAliases: 100,
    });
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error;
    const at = error.mark;
    throw new ConfigError(
      `The config file is not valid YAML${
        at ? ` at line ${at.line + 1}, column ${at.column + 1}` : ""
      }`,
    );
  }
  if (!isRecord(root)) throw new ConfigError("The config file is not a YAML map");
  return valueDocument("yaml", root, path);
}
