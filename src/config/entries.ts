/**
 * A parsed config's entries → named entries, each either a server to resolve (its values still
 * holding `${...}` variables) or the fixed reason it cannot be checked. A key that is not a
 * server label is checked under a derived label; the key itself is never shown. Pure.
 *
 * @module
 */
import { lookupHint } from "../analysis/suggest.ts";
import { UserError } from "../errors.ts";
import { SERVER_LABEL } from "../tool_name.ts";
import type { ParsedConfig } from "./parse.ts";
import { type EntrySpec, isNotChecked, type NotChecked } from "./spec.ts";

export { isNotChecked };
export type { EntrySpec, HttpSpec, NotChecked, StdioSpec } from "./spec.ts";

/** One entry of the file under the name the reports use. */
export interface ConfigEntry {
  /**
   * The key when it is a valid server label; else a label derived from it; `entry-N` (N its
   * position) for an earlier entry whose key a later one repeats (clients keep the last).
   */
  readonly name: string;
  /** The key as written (never shown unless it is `name`): `--server` may name it. */
  readonly key: string;
  readonly spec: EntrySpec | NotChecked;
}

/** The longest a label is. */
const MAX_LABEL = 64;

/**
 * A server label for a key that is not one: every character outside the label alphabet
 * replaced by `_`, leading `.`, `_` and `-` dropped (a label starts with a letter or digit),
 * `server` when nothing is left, cut to 64 characters.
 *
 * @example
 * ```ts
 * derivedLabel("github.com/upstash/context7-mcp"); // "github.com_upstash_context7-mcp"
 * ```
 */
export function derivedLabel(key: string): string {
  const replaced = Array.from(key, (char) => /^[A-Za-z0-9._-]$/.test(char) ? char : "_").join("")
    .replace(/^[._-]+/, "");
  return (replaced === "" ? "server" : replaced).slice(0, MAX_LABEL);
}

/** `base` with the first suffix `-2`, `-3`, ... that `used` does not hold, within 64 characters. */
function unique(base: string, used: ReadonlySet<string>): string {
  if (!used.has(base)) return base;
  for (let n = 2;; n++) {
    const suffix = `-${n}`;
    const name = base.slice(0, MAX_LABEL - suffix.length) + suffix;
    if (!used.has(name)) return name;
  }
}

/**
 * The entries of a parsed config, named. A valid key is its own name; a key that is not a
 * label gets a derived one, unique in the file; an earlier entry whose key a later one repeats
 * is listed as `entry-N` (`invalid-name`), since clients run the last.
 */
export function configEntries(config: ParsedConfig): ConfigEntry[] {
  const { entries } = config;
  const lastIndex = new Map(entries.map(({ key }, index) => [key, index]));
  const last = (key: string, index: number) => lastIndex.get(key) === index;
  const used = new Set(
    entries.filter(({ key }, index) => SERVER_LABEL.test(key) && last(key, index)).map((e) =>
      e.key
    ),
  );
  return entries.map(({ key, value }, index) => {
    if (!last(key, index)) {
      const name = unique(`entry-${index + 1}`, used);
      used.add(name);
      return { name, key, spec: { reason: "invalid-name" } };
    }
    const spec = config.spec(value, key);
    if (SERVER_LABEL.test(key)) return { name: key, key, spec };
    const name = unique(derivedLabel(key), used);
    used.add(name);
    return { name, key, spec };
  });
}

/** The error of a `--server` or `--require-tool` that names no entry (it never shows a key). */
export class SelectionError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "SelectionError";
  }
}

/**
 * The entries `--server` selects (all without it), in file order, and `--require-tool`'s
 * requirements by entry name. Each may name an entry by its key or by its name.
 */
export function selectEntries(
  entries: readonly ConfigEntry[],
  servers: readonly string[] | undefined,
  requirements: ReadonlyMap<string, readonly string[]>,
): { entries: ConfigEntry[]; requirements: Map<string, readonly string[]> } {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  // A key names its entry unless it is another entry's name; keys of `entry-N` repeats do not.
  for (const entry of entries) {
    if (!byName.has(entry.key) && !isRepeat(entry)) byName.set(entry.key, entry);
  }
  const shown = (name: string) => SERVER_LABEL.test(name) ? ` ${name}` : "";
  // A likely name, or the names (labels, never a key that is not one: that is the file's text).
  const names = entries.map((entry) => entry.name);
  const hint = (name: string) =>
    lookupHint(name, names, "it lists:", "; it lists no server with a valid label");
  const chosen = new Set<ConfigEntry>();
  for (const name of servers ?? []) {
    const entry = byName.get(name);
    if (!entry) {
      throw new SelectionError(
        `--server${shown(name)} names no server of the config file${hint(name)}`,
      );
    }
    chosen.add(entry);
  }
  const required = new Map<string, readonly string[]>();
  for (const [name, tools] of requirements) {
    const entry = byName.get(name);
    if (!entry) {
      throw new SelectionError(
        `--require-tool names server${shown(name)}, which the config file does not list${
          hint(name)
        }`,
      );
    }
    if (servers && !chosen.has(entry)) {
      throw new SelectionError(
        `--require-tool names server${shown(name)}, which no --server selects`,
      );
    }
    required.set(entry.name, [...new Set([...(required.get(entry.name) ?? []), ...tools])].sort());
  }
  return {
    entries: servers ? entries.filter((entry) => chosen.has(entry)) : [...entries],
    requirements: required,
  };
}

function isRepeat(entry: ConfigEntry): boolean {
  return isNotChecked(entry.spec) && entry.spec.reason === "invalid-name";
}
