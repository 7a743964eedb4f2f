/**
 * A parsed config's entries → named entries, each either a server to resolve (its values still
 * holding `${...}` variables) or the fixed reason it cannot be checked. Pure.
 *
 * @module
 */
import type { ConfigField, ConfigFormat, NotCheckedReason } from "../config_facts.ts";
import { SERVER_LABEL } from "../tool_name.ts";
import { isRecord, type ParsedConfig } from "./parse.ts";

/** A stdio server as written: every string may still hold variables. */
export interface StdioSpec {
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
export interface HttpSpec {
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
}

/** One entry of the file under the name the reports use. */
export interface ConfigEntry {
  /** The key when it is a valid, unique server label; else `entry-N` (N its position). */
  readonly name: string;
  readonly spec: EntrySpec | NotChecked;
}

/** Whether an entry's spec is a reason it is not checked. */
export function isNotChecked(spec: EntrySpec | NotChecked): spec is NotChecked {
  return "reason" in spec;
}

/**
 * The entries of a parsed config, named. A key that is not a valid server label is listed as
 * `entry-N`; so is an earlier entry whose key a later one repeats (clients keep the last).
 */
export function configEntries(config: ParsedConfig): ConfigEntry[] {
  const { entries, format } = config;
  const lastIndex = new Map(entries.map(({ key }, index) => [key, index]));
  const valid = (key: string, index: number) =>
    SERVER_LABEL.test(key) && lastIndex.get(key) === index;
  const used = new Set(entries.filter(({ key }, index) => valid(key, index)).map(({ key }) => key));
  return entries.map(({ key, value }, index) => {
    if (valid(key, index)) return { name: key, spec: specOf(format, value) };
    let name = `entry-${index + 1}`;
    for (let n = 2; used.has(name); n++) name = `entry-${index + 1}-${n}`;
    used.add(name);
    return { name, spec: { reason: "invalid-name" } };
  });
}

const HTTP_TYPES = ["http", "streamable-http", "streamableHttp", "streamable_http", "streamable"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const invalid = (field: ConfigField): NotChecked => ({ reason: "invalid-entry", field });

/** Null counts as absent: some clients write `"env": null`. */
const given = (value: unknown) => value !== undefined && value !== null;

function specOf(format: ConfigFormat, value: unknown): EntrySpec | NotChecked {
  if (!isRecord(value)) return invalid("entry");
  if (value.disabled === true || value.enabled === false) return { reason: "disabled" };
  let { command, args, env } = value;
  // Zed's older form: "command": { "path", "args", "env" }.
  if (format === "context_servers" && isRecord(command)) {
    ({ args = args, env = env } = command);
    command = command.path;
  }
  const type = value.type ?? value.transportType;
  if (given(type) && typeof type !== "string") return invalid("type");
  if (type === "sse") return { reason: "legacy-sse" };
  const url = [value.url, value.serverUrl, value.httpUrl].find(given);
  let kind: EntrySpec["kind"] | undefined;
  if (!given(type)) kind = given(command) ? "stdio" : given(url) ? "streamable-http" : undefined;
  else if (type === "stdio") kind = "stdio";
  else if (HTTP_TYPES.includes(type as string)) kind = "streamable-http";
  else return { reason: "unsupported-entry" };
  if (kind === undefined) {
    // A Zed extension's server has no command of its own.
    return value.source === "extension" ? { reason: "unsupported-entry" } : invalid("command");
  }
  return kind === "stdio" ? stdioSpec(value, command, args, env) : httpSpec(format, value, url);
}

function stdioSpec(
  value: Record<string, unknown>,
  command: unknown,
  args: unknown,
  env: unknown,
): StdioSpec | NotChecked {
  if (typeof command !== "string" || command === "") return invalid("command");
  const argList = given(args) ? args : [];
  if (!Array.isArray(argList) || !argList.every((arg) => typeof arg === "string")) {
    return invalid("args");
  }
  const envPairs = stringPairs(env);
  if (envPairs === undefined) return invalid("env");
  const { envFile, cwd } = value;
  if (given(envFile) && typeof envFile !== "string") return invalid("envFile");
  if (given(cwd) && typeof cwd !== "string") return invalid("cwd");
  return {
    kind: "stdio",
    command,
    args: argList,
    env: envPairs,
    ...(typeof envFile === "string" ? { envFile } : {}),
    ...(typeof cwd === "string" ? { cwd } : {}),
  };
}

function httpSpec(
  format: ConfigFormat,
  value: Record<string, unknown>,
  url: unknown,
): HttpSpec | NotChecked {
  if (typeof url !== "string") return invalid("url");
  if (format !== "mcp_servers") {
    const headers = stringPairs(value.headers);
    return headers === undefined ? invalid("headers") : { kind: "streamable-http", url, headers };
  }
  // Codex: literal http_headers, env_http_headers (name → variable), bearer_token_env_var.
  const literal = stringPairs(value.http_headers);
  const fromEnv = stringPairs(value.env_http_headers);
  const bearer = value.bearer_token_env_var;
  if (literal === undefined || fromEnv === undefined) return invalid("headers");
  if (!fromEnv.every(([, name]) => ENV_NAME.test(name))) return invalid("headers");
  if (given(bearer) && (typeof bearer !== "string" || !ENV_NAME.test(bearer))) {
    return invalid("headers");
  }
  return {
    kind: "streamable-http",
    url,
    headers: [
      ...literal,
      ...fromEnv.map(([name, variable]) => [name, `\${${variable}}`] as const),
      ...(typeof bearer === "string" ? [["Authorization", `Bearer \${${bearer}}`] as const] : []),
    ],
  };
}

/** An object of strings as pairs in order; absent is empty; anything else is undefined. */
function stringPairs(value: unknown): [string, string][] | undefined {
  if (!given(value)) return [];
  if (!isRecord(value)) return undefined;
  const pairs = Object.entries(value);
  return pairs.every(([, v]) => typeof v === "string") ? pairs as [string, string][] : undefined;
}
