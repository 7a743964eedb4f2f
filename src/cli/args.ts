/**
 * argv of `mcpeval guidance` → validated {@linkcode GuidanceOptions}. Every rule of the
 * command line lives here; a broken rule is an {@linkcode InvocationError} naming the option.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { isToolName, SERVER_LABEL } from "../tool_name.ts";
import { CONCURRENCY, type IntegerRange, SETTLE_MS, TIMEOUT_MS } from "../limits.ts";
import {
  type Format,
  FORMATS,
  type GuidanceOptions,
  type ReportFile,
  type TargetOptions,
} from "../options.ts";
import { canonicalProfiles, isProfile, type Profile, PROFILES } from "../profiles.ts";
import { InvocationError } from "./errors.ts";

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Headers that mcpeval sets itself and that `--header` may not replace. */
const RESERVED_HEADERS = new Set([
  "accept",
  "content-type",
  "content-length",
  "host",
  "mcp-session-id",
  "mcp-protocol-version",
  "connection",
  "transfer-encoding",
]);

const OPTIONS = {
  server: { type: "string" },
  format: { type: "string" },
  profile: { type: "string", multiple: true },
  "require-tool": { type: "string", multiple: true },
  "settle-ms": { type: "string" },
  "timeout-ms": { type: "string" },
  concurrency: { type: "string" },
  url: { type: "string" },
  "allow-remote-http": { type: "boolean" },
  "server-stderr": { type: "string" },
  header: { type: "string", multiple: true },
  output: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

type OptionName = keyof typeof OPTIONS;

/** What the guidance command line asks for. */
export type GuidanceRequest =
  | { readonly help: true }
  | { readonly help: false; readonly options: GuidanceOptions };

/**
 * Parses the arguments that follow `guidance`. `env` resolves `--header NAME=ENV_VAR`.
 * Throws {@linkcode InvocationError} for any invalid invocation.
 */
export function parseGuidanceArgs(
  argv: readonly string[],
  env: (name: string) => string | undefined,
): GuidanceRequest {
  const terminator = argv.indexOf("--");
  const own = terminator === -1 ? argv : argv.slice(0, terminator);
  const command = terminator === -1 ? undefined : argv.slice(terminator + 1);
  const given = collect(own);
  if (given.has("help")) return { help: true };

  const server = single(given, "server");
  if (server === undefined) throw new InvocationError("--server is required");
  if (!SERVER_LABEL.test(server)) {
    throw new InvocationError(
      "--server must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    );
  }

  const format = single(given, "format") ?? "text";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new InvocationError(`--format must be one of: ${FORMATS.join(", ")}`);
  }

  const profileValues = given.get("profile") ?? [];
  if (profileValues.some((value) => !isProfile(value))) {
    throw new InvocationError(`--profile must be one of: ${PROFILES.join(", ")}`);
  }
  const profiles = profileValues.length === 0
    ? [...PROFILES]
    : canonicalProfiles(profileValues as Profile[]);

  const requireValues = given.get("require-tool") ?? [];
  if (requireValues.some((value) => !isToolName(value))) {
    throw new InvocationError(
      "--require-tool must be a tool name of 1 to 128 letters, digits, '_', '.', '/' or '-'",
    );
  }
  const requiredTools = [...new Set(requireValues)].sort();

  const settleMs = integer(given, "settle-ms", SETTLE_MS);
  const timeoutMs = integer(given, "timeout-ms", TIMEOUT_MS);
  const concurrency = integer(given, "concurrency", CONCURRENCY);
  const target = targetOf(given, command, env);
  const outputs = (given.get("output") ?? []).map(reportFileOf);
  if (new Set(outputs.map((output) => output.path)).size !== outputs.length) {
    throw new InvocationError("--output names the same file twice");
  }
  const stepSummary = format === "github" ? readOptional(env, "GITHUB_STEP_SUMMARY") : undefined;

  return {
    help: false,
    options: {
      server,
      format: format as Format,
      profiles,
      requiredTools,
      settleMs,
      timeoutMs,
      concurrency,
      target,
      outputs,
      ...(stepSummary ? { stepSummary } : {}),
    },
  };
}

/** Collects option values by name, rejecting unknown options, positionals and missing values. */
function collect(argv: readonly string[]): Map<OptionName, string[]> {
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const given = new Map<OptionName, string[]>();
  for (const token of tokens) {
    if (token.kind === "positional") {
      throw new InvocationError(
        "Unexpected argument: put the server command after '--', or use --url",
      );
    }
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(OPTIONS, token.name)) {
      throw new InvocationError(`Unknown option ${optionLabel(token.rawName)}`);
    }
    const name = token.name as OptionName;
    const spec = OPTIONS[name];
    const label = `--${name}`;
    if (spec.type === "boolean") {
      if (token.value !== undefined) throw new InvocationError(`${label} takes no value`);
      given.set(name, [""]);
      continue;
    }
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith("--"))) {
      throw new InvocationError(`${label} needs a value`);
    }
    const values = given.get(name) ?? [];
    if (values.length > 0 && !("multiple" in spec)) {
      throw new InvocationError(`${label} may be given only once`);
    }
    values.push(value);
    given.set(name, values);
  }
  return given;
}

/** The name of an unknown option, safe to print (only option-like characters, bounded). */
function optionLabel(rawName: string): string {
  return /^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/.test(rawName) ? `'${rawName}'` : "(unprintable)";
}

function single(given: Map<OptionName, string[]>, name: OptionName): string | undefined {
  return given.get(name)?.[0];
}

function integer(given: Map<OptionName, string[]>, name: OptionName, range: IntegerRange): number {
  const text = single(given, name);
  if (text === undefined) return range.default;
  const value = /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw new InvocationError(
      `--${name} must be an integer from ${range.min} to ${range.max}`,
    );
  }
  return value;
}

function targetOf(
  given: Map<OptionName, string[]>,
  command: readonly string[] | undefined,
  env: (name: string) => string | undefined,
): TargetOptions {
  const url = single(given, "url");
  if (url !== undefined && command !== undefined) {
    throw new InvocationError("Give either a server command after '--' or --url, not both");
  }
  if (url === undefined && command === undefined) {
    throw new InvocationError("A target is required: a server command after '--', or --url");
  }
  if (command !== undefined) {
    for (const name of ["allow-remote-http", "header"] as const) {
      if (given.has(name)) {
        throw new InvocationError(`--${name} applies only to --url targets`);
      }
    }
    if (command.length === 0 || command[0] === "") {
      throw new InvocationError("The server command after '--' is empty");
    }
    const stderr = single(given, "server-stderr") ?? "discard";
    if (stderr !== "discard" && stderr !== "inherit") {
      throw new InvocationError("--server-stderr must be one of: discard, inherit");
    }
    return { kind: "stdio", command: command[0], args: command.slice(1), stderr };
  }
  if (given.has("server-stderr")) {
    throw new InvocationError("--server-stderr applies only to stdio targets");
  }
  return {
    kind: "streamable-http",
    url: endpointOf(url!, given.has("allow-remote-http")),
    headers: (given.get("header") ?? []).map((spec) => headerOf(spec, env)),
  };
}

function endpointOf(text: string, allowRemote: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvocationError("--url must be an absolute http: or https: URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvocationError("--url must be an absolute http: or https: URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw new InvocationError(
      "--url must not contain credentials; send them with --header NAME=ENV_VAR",
    );
  }
  if (!isLoopback(url.hostname) && (url.protocol !== "https:" || !allowRemote)) {
    throw new InvocationError(
      "--url to a host that is not loopback needs https: and --allow-remote-http",
    );
  }
  return url;
}

/** Whether `hostname` (as `URL` spells it) is `localhost`, in 127.0.0.0/8, or `[::1]`. */
export function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  const octets = hostname.split(".");
  return octets.length === 4 && octets[0] === "127" &&
    octets.every((octet) => /^[0-9]{1,3}$/.test(octet) && Number(octet) <= 255);
}

function headerOf(
  spec: string,
  env: (name: string) => string | undefined,
): readonly [string, string] {
  const equals = spec.indexOf("=");
  const name = spec.slice(0, equals);
  const variable = spec.slice(equals + 1);
  if (equals <= 0 || !HEADER_NAME.test(name) || !ENV_NAME.test(variable)) {
    throw new InvocationError(
      "--header must be NAME=ENV_VAR: an HTTP header name and an environment variable name",
    );
  }
  if (RESERVED_HEADERS.has(name.toLowerCase())) {
    throw new InvocationError(`--header may not set ${name}: mcpeval sets it itself`);
  }
  let value: string | undefined;
  try {
    value = env(variable);
  } catch {
    throw new InvocationError(
      `--header ${name} needs read access to its environment variable: add --allow-env=${variable}`,
    );
  }
  if (value === undefined) {
    throw new InvocationError(`--header ${name}: environment variable ${variable} is not set`);
  }
  if (/[\r\n\0]/.test(value)) {
    throw new InvocationError(
      `--header ${name}: environment variable ${variable} holds a character not allowed in headers`,
    );
  }
  return [name, value];
}

function reportFileOf(spec: string): ReportFile {
  const equals = spec.indexOf("=");
  const format = spec.slice(0, equals);
  const path = spec.slice(equals + 1);
  if (equals <= 0 || !(FORMATS as readonly string[]).includes(format) || path === "") {
    throw new InvocationError(
      `--output must be FORMAT=PATH with FORMAT one of: ${FORMATS.join(", ")}`,
    );
  }
  return { format: format as Format, path };
}

/** An environment variable, or undefined when it is unset or not readable. */
function readOptional(
  env: (name: string) => string | undefined,
  name: string,
): string | undefined {
  try {
    return env(name) || undefined;
  } catch {
    return undefined;
  }
}
