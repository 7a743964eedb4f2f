/**
 * What a config entry says, in one shape for every client file: a stdio or Streamable HTTP
 * server whose strings may still hold `${...}` variables, or the fixed reason it cannot be
 * checked. Each format module turns its own fields into a {@linkcode WrittenEntry}; the rules
 * shared by every format are here. Pure.
 *
 * @module
 */
import type { ToolFilter, ToolFilterStep, ToolListStep } from "../analysis/tool_filters.ts";
import type { ConfigField, NotCheckedReason } from "../config_facts.ts";

/** What a stdio and an HTTP server spec share. */
interface SpecBase {
  /** The user's own tool filter from the file, in the order the client applies it. */
  readonly toolFilter?: ToolFilter;
}

/** A stdio server as written: every string may still hold variables. */
export interface StdioSpec extends SpecBase {
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** `env`, in file order. */
  readonly env: readonly (readonly [string, string])[];
  /** VS Code and Cursor: a dotenv file whose variables are set under `env`. */
  readonly envFile?: string;
  readonly cwd?: string;
}

/** A Streamable HTTP server as written. */
export interface HttpSpec extends SpecBase {
  readonly kind: "streamable-http";
  readonly url: string;
  /** Header names and value templates (Codex's env headers become `${VAR}` templates). */
  readonly headers: readonly (readonly [string, string])[];
}

/** A server as written. */
export type EntrySpec = StdioSpec | HttpSpec;

/** Why an entry is not checked; `field` names the config field an `invalid-entry` breaks. */
export interface NotChecked {
  readonly reason: NotCheckedReason;
  readonly field?: ConfigField;
  /** With `unset-variable`: the environment variables it needs that are not set (names only). */
  readonly variables?: readonly string[];
}

/** Whether an entry's spec is a reason it is not checked. */
export function isNotChecked(spec: EntrySpec | NotChecked): spec is NotChecked {
  return "reason" in spec;
}

/** Whether `value` is a plain object (a JSON object, a TOML table, a YAML map). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}

/** Null counts as absent: some clients write `"env": null`. */
export const given = (value: unknown): boolean => value !== undefined && value !== null;

/** An `invalid-entry` for `field`. */
export const invalid = (field: ConfigField): NotChecked => ({ reason: "invalid-entry", field });

/** An object of strings as pairs in order; absent is empty; anything else is undefined. */
export function stringPairs(value: unknown): [string, string][] | undefined {
  if (!given(value)) return [];
  if (!isRecord(value)) return undefined;
  const pairs = Object.entries(value);
  return pairs.every(([, v]) => typeof v === "string") ? pairs as [string, string][] : undefined;
}

/** A list of strings; absent is undefined; anything else is null. */
export function stringList(value: unknown): string[] | undefined | null {
  if (!given(value)) return undefined;
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : null;
}

/** The transports an entry can name, in mcpeval's terms. */
export type Transport = "stdio" | "streamable-http" | "sse" | "unsupported";

/** An entry in the shape every format is read into, before the shared rules check it. */
export interface WrittenEntry {
  /** Whether the file turns the entry off. */
  readonly disabled?: boolean;
  /** The transport the entry names; undefined: from `command` or `url`; null: not a string. */
  readonly transport?: Transport | null;
  readonly command?: unknown;
  readonly args?: unknown;
  /** `env` as pairs; undefined when it breaks a rule. */
  readonly env: readonly (readonly [string, string])[] | undefined;
  readonly envFile?: unknown;
  readonly cwd?: unknown;
  readonly url?: unknown;
  /** Headers as pairs; undefined when they break a rule. */
  readonly headers: readonly (readonly [string, string])[] | undefined;
  /** The tool filter; null when it breaks a rule. */
  readonly toolFilter?: ToolFilter | null;
  /** A server an editor extension provides: it has no command of its own. */
  readonly extension?: boolean;
}

/** The shared rules: a written entry → a server spec or the reason it is not checked. */
export function checkEntry(entry: WrittenEntry): EntrySpec | NotChecked {
  if (entry.disabled) return { reason: "disabled" };
  const { transport, command, url } = entry;
  if (transport === null) return invalid("type");
  if (transport === "sse") return { reason: "legacy-sse" };
  if (transport === "unsupported") return { reason: "unsupported-entry" };
  const kind = transport ??
    (given(command) ? "stdio" : given(url) ? "streamable-http" : undefined);
  if (kind === undefined) {
    return entry.extension ? { reason: "unsupported-entry" } : invalid("command");
  }
  if (entry.toolFilter === null) return invalid("tools");
  const filter = entry.toolFilter && entry.toolFilter.length > 0
    ? { toolFilter: entry.toolFilter }
    : {};
  if (kind === "streamable-http") {
    if (typeof url !== "string") return invalid("url");
    if (entry.headers === undefined) return invalid("headers");
    return { kind, url, headers: entry.headers, ...filter };
  }
  if (typeof command !== "string" || command === "") return invalid("command");
  const args = given(entry.args) ? entry.args : [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    return invalid("args");
  }
  if (entry.env === undefined) return invalid("env");
  const { envFile, cwd } = entry;
  if (given(envFile) && typeof envFile !== "string") return invalid("envFile");
  if (given(cwd) && typeof cwd !== "string") return invalid("cwd");
  return {
    kind,
    command,
    args,
    env: entry.env,
    ...(typeof envFile === "string" ? { envFile } : {}),
    ...(typeof cwd === "string" ? { cwd } : {}),
    ...filter,
  };
}

/** A `type` as a transport: `stdio`, the Streamable HTTP spellings, `sse`; others unsupported. */
export function transportOf(
  type: unknown,
  http: readonly string[] = HTTP_TYPES,
): Transport | undefined | null {
  if (!given(type)) return undefined;
  if (typeof type !== "string") return null;
  if (type === "stdio") return "stdio";
  if (type === "sse") return "sse";
  return http.includes(type) ? "streamable-http" : "unsupported";
}

/** The Streamable HTTP `type` spellings clients write. */
export const HTTP_TYPES: readonly string[] = [
  "http",
  "streamable-http",
  "streamableHttp",
  "streamable_http",
  "streamable",
];

/** A filter list as a step; an absent list is no step, a list that is not strings is null. */
export function filterStep(
  value: unknown,
  step: Omit<ToolListStep, "names">,
): ToolListStep | undefined | null {
  const names = stringList(value);
  if (names === null) return null;
  return names === undefined ? undefined : { ...step, names };
}

/** Steps in order; any step that breaks a rule makes the filter null. */
export function filterOf(
  steps: readonly (ToolFilterStep | undefined | null)[],
): ToolFilter | null {
  if (steps.includes(null)) return null;
  return steps.filter((step): step is ToolFilterStep => step !== undefined && step !== null);
}
