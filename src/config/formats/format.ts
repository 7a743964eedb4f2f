/**
 * What a config format module is: how it recognises its client's file, where its server table
 * is, and how one entry of it reads. Modules are registered in `registry.ts`; the document they
 * read is the same for JSON, TOML and YAML.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import type { ConfigFormat } from "../../config_facts.ts";
import type { EntrySpec, NotChecked } from "../spec.ts";

/** The syntaxes a config file can be written in. */
export type Syntax = "json" | "toml" | "yaml";

/** One server entry as written: its key and its value. */
export interface RawEntry {
  readonly key: string;
  readonly value: unknown;
}

/** A config file that cannot be read as a client config. The message holds no file content. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** A parsed config file, the same for every syntax. */
export interface ConfigDocument {
  readonly syntax: Syntax;
  /** The file's path as given ("" when unknown): some clients' files differ only by name. */
  readonly path: string;
  /** The value at `path` (the last of duplicate keys), or undefined. */
  value(path: readonly string[]): unknown;
  /**
   * The properties of the object at `path` in file order, duplicates included: undefined when
   * absent, null when it is not an object.
   */
  properties(path: readonly string[]): RawEntry[] | undefined | null;
}

/** What reading entries may need besides the document. */
export interface ReadOptions {
  /** `--config-project`: the project whose servers a user file also lists. */
  readonly project?: string;
  /** With `project`: the folder mcpeval runs in. */
  readonly cwd?: string;
}

/** What reading one entry may need: the config file's path as given, the entry's key, the file. */
export interface EntryContext {
  readonly path: string;
  /** The entry's key as written. */
  readonly key: string;
  /** The whole file: some clients' settings outside the server table apply to every server. */
  readonly document: ConfigDocument;
}

/** One client file shape. */
export interface FormatModule {
  /** The clients that write this shape (for messages and docs). */
  readonly clients: string;
  /** The config format the report names (by the key that holds the servers). */
  readonly format: ConfigFormat;
  /**
   * Its server table as a file with none is told it was expected (`servers (VS Code)`), for a
   * shape whose table no other row names; none for a shape told apart by its claim alone.
   */
  readonly expected?: string;
  /** The syntaxes this shape is written in. */
  readonly syntax: readonly Syntax[];
  /** The name of its server table when the document has one, else undefined. */
  table(document: ConfigDocument): string | undefined;
  /**
   * Shapes with more than one place for servers: every server table the document has, by the
   * name the messages give it. Its client reads one table of a file, so more than one is an
   * error ({@linkcode moreThanOneTable}), never a table silently left out.
   */
  tables?(document: ConfigDocument): string[];
  /**
   * A sure sign of this client (its file name or a field only it writes): the module then wins
   * over those that only share its table. Modules without it are chosen by their table alone.
   */
  claims?(document: ConfigDocument): boolean;
  /** The server entries in file order. Throws {@linkcode ConfigError}. */
  entries(document: ConfigDocument, options: ReadOptions): RawEntry[];
  /** Whether the file also lists projects' servers, one of which `--config-project` selects. */
  readonly projects?: boolean;
  /** The ids of the inputs the file declares (VS Code). */
  inputs?(document: ConfigDocument): Set<string>;
  /** One entry's spec, or why it is not checked; `value` is an object. */
  entry(value: Readonly<Record<string, unknown>>, context: EntryContext): EntrySpec | NotChecked;
}

/** The error for a file with more than one table of servers (`tables`, their names). */
export function moreThanOneTable(tables: readonly string[]): ConfigError {
  return new ConfigError(
    `The config file has more than one table of servers (${tables.join(", ")}): keep one per file`,
  );
}

/** The properties of the object at `path`, or a {@linkcode ConfigError} naming `where`. */
export function tableEntries(
  document: ConfigDocument,
  path: readonly string[],
  where: string,
): RawEntry[] {
  const entries = document.properties(path);
  if (entries === null) throw new ConfigError(`The config file's ${where} is not an object`);
  return entries ?? [];
}

/** The file's name and the names of the two folders above it (for clients told apart by them). */
export function placeOf(path: string): { name: string; folder: string; parent: string } {
  const folder = dirname(path);
  return { name: basename(path), folder: basename(folder), parent: basename(dirname(folder)) };
}

/** Whether any entry of the table at `path` is an object with one of `fields`. */
export function anyEntryHas(
  document: ConfigDocument,
  path: readonly string[],
  fields: readonly string[],
): boolean {
  const entries = document.properties(path);
  return (entries ?? []).some(({ value }) =>
    typeof value === "object" && value !== null && fields.some((field) => field in value)
  );
}

/** Every string in `value` (objects and arrays included) rewritten by `rewrite`. */
export function mapStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === "string") return rewrite(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, rewrite));
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, rewrite)]),
    );
  }
  return value;
}
