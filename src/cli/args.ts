/**
 * argv of `mcpeval guidance` → a validated {@linkcode GuidanceRequest}. The command line's own
 * rules (option syntax, `--` or `--url`, `--header NAME=ENV_VAR`) live here; the rules of the
 * request itself are the shared validator's, named in the command line's terms.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { closest } from "../analysis/suggest.ts";
import type { ConfigRequest } from "../config/request.ts";
import { type Format, FORMATS, isFormat } from "../formats.ts";
import { JOBS, MAX_CONFIG_BYTES } from "../limits.ts";
import {
  type BaselineFile,
  type DiscoveryRequest,
  type FieldLabels,
  headerNameProblem,
  headerValueProblem,
  type OutputRequest,
  type ReportFile,
  RequestError,
  type SarifLocation,
  SERVER_RULE,
  type TargetInput,
  TOOL_RULE,
  validateDiscovery,
  validateSettings,
} from "../request.ts";
import { SERVER_STDERR_MODES, type ServerStderr } from "../target.ts";
import { isToolName, SERVER_LABEL } from "../tool_name.ts";
import { shown } from "../printable.ts";
import type { CliContext } from "./context.ts";
import { denoFlag, misplacedDenoFlag } from "./deno_flags.ts";
import { InvocationError } from "./errors.ts";
import { readProblem } from "./files.ts";

/** How the command line names the request's fields. */
export const CLI_LABELS: FieldLabels = {
  server: "--server",
  profiles: "--profile",
  requiredTools: "--require-tool",
  settleMs: "--settle-ms",
  timeoutMs: "--timeout-ms",
  concurrency: "--concurrency",
  command: "The server command after '--'",
  args: "The server command's arguments",
  env: "The server's environment",
  cwd: "The server's folder",
  stderr: "--server-stderr",
  url: "--url",
  allowRemoteHttp: "--allow-remote-http",
  headers: "--header",
  protocolVersion: "--protocol-version",
  clients: "--client",
  clientPresets: "--client-file",
  baseline: "--baseline",
  requireBaselineTools: "--require-baseline-tools",
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OPTIONS = {
  server: { type: "string", multiple: true },
  config: { type: "string" },
  jobs: { type: "string" },
  input: { type: "string", multiple: true },
  format: { type: "string" },
  profile: { type: "string", multiple: true },
  "require-tool": { type: "string", multiple: true },
  "settle-ms": { type: "string" },
  "timeout-ms": { type: "string" },
  concurrency: { type: "string" },
  client: { type: "string", multiple: true },
  "client-file": { type: "string" },
  "unknown-references": { type: "boolean" },
  "protocol-version": { type: "string" },
  url: { type: "string" },
  "allow-remote-http": { type: "boolean" },
  "server-stderr": { type: "string" },
  header: { type: "string", multiple: true },
  output: { type: "string", multiple: true },
  "sarif-location": { type: "string" },
  quiet: { type: "boolean", short: "q" },
  baseline: { type: "string" },
  "require-baseline-tools": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Every option's long name, for suggestions. */
const OPTION_NAMES = Object.keys(OPTIONS).map((name) => `--${name}`);

type OptionName = keyof typeof OPTIONS;

/**
 * A validated guidance run: what to discover, what to compare it with, where the reports go,
 * and what to show.
 */
export interface GuidanceRequest {
  readonly discovery: DiscoveryRequest;
  readonly output: OutputRequest;
  /** `--quiet`: no live progress on stderr, even on a terminal. */
  readonly quiet: boolean;
  /** `--baseline`: read and validated before discovery starts. */
  readonly baseline?: BaselineFile;
}

/** What the guidance command line asks for: help, one server, or the servers of a config file. */
export type GuidanceArgs =
  | { readonly help: true }
  | { readonly help: false; readonly request: GuidanceRequest }
  | { readonly help: false; readonly config: ConfigRequest };

/** The effects parsing needs: the environment, and reading `--client-file`. */
export type ArgsEffects = Pick<CliContext, "env" | "permission" | "readTextFile">;

/**
 * Parses the arguments that follow `guidance`. `env` resolves `--header NAME=ENV_VAR` and
 * `GITHUB_STEP_SUMMARY`; `--client-file` is read (after its permission is checked). Throws
 * {@linkcode InvocationError} for any invalid invocation.
 */
export async function parseGuidanceArgs(
  argv: readonly string[],
  { env, permission, readTextFile }: ArgsEffects,
): Promise<GuidanceArgs> {
  const terminator = argv.indexOf("--");
  const own = terminator === -1 ? argv : argv.slice(0, terminator);
  const command = terminator === -1 ? undefined : argv.slice(terminator + 1);
  const given = collect(own);
  if (given.has("help")) return { help: true };
  const clientPresetsOf = (): Promise<unknown> => {
    const clientFile = single(given, "client-file");
    return clientFile === undefined
      ? Promise.resolve(undefined)
      : readClientFile(clientFile, permission, readTextFile);
  };
  if (given.has("config")) {
    return { help: false, config: await configRequest(given, command, env, clientPresetsOf) };
  }
  for (const name of ["jobs", "input"] as const) {
    if (given.has(name)) throw new InvocationError(`--${name} applies only with --config`);
  }

  const servers = given.get("server");
  if (servers === undefined) throw new InvocationError("--server is required");
  if (servers.length > 1) throw new InvocationError("--server may be given only once");
  const server = servers[0];
  checkChoices(given);
  const clientPresets = await clientPresetsOf();
  let discovery: DiscoveryRequest;
  try {
    discovery = validateDiscovery({
      clients: given.get("client"),
      clientPresets,
      unknownReferences: given.has("unknown-references"),
      server,
      profiles: given.get("profile"),
      requiredTools: given.get("require-tool"),
      settleMs: integer(given, "settle-ms"),
      timeoutMs: integer(given, "timeout-ms"),
      concurrency: integer(given, "concurrency"),
      protocolVersion: single(given, "protocol-version"),
      target: targetOf(given, command, env),
    }, CLI_LABELS);
  } catch (error) {
    if (error instanceof RequestError) throw new InvocationError(error.message);
    throw error;
  }
  const baseline = baselineOf(given);
  return {
    help: false,
    request: {
      discovery,
      output: outputOf(given, env),
      quiet: given.has("quiet"),
      ...(baseline ? { baseline } : {}),
    },
  };
}

/** `--format` and `--server-stderr` are among their choices (with a suggestion when not). */
function checkChoices(given: Map<OptionName, string[]>): void {
  const formatGiven = single(given, "format");
  if (formatGiven !== undefined) oneOf("--format", formatGiven, FORMATS);
  const stderrMode = single(given, "server-stderr");
  if (stderrMode !== undefined) oneOf("--server-stderr", stderrMode, SERVER_STDERR_MODES);
}

function outputOf(
  given: Map<OptionName, string[]>,
  env: (name: string) => string | undefined,
): OutputRequest {
  const formatGiven = single(given, "format");
  const outputs = (given.get("output") ?? []).map(reportFileOf);
  if (new Set(outputs.map((file) => file.path)).size !== outputs.length) {
    throw new InvocationError("--output names the same file twice");
  }
  // `--output FORMAT=-` is the report on stdout, like --format.
  const toStdout = outputs.find((file) => file.path === STDOUT);
  if (toStdout && formatGiven !== undefined && formatGiven !== toStdout.format) {
    throw new InvocationError(
      "--format and --output FORMAT=- both choose the report on stdout: give one of them",
    );
  }
  const format: Format = toStdout?.format ?? (formatGiven as Format | undefined) ?? "text";
  const files = outputs.filter((file) => file.path !== STDOUT);
  const sarifLocationGiven = single(given, "sarif-location");
  if (
    sarifLocationGiven !== undefined && format !== "sarif" &&
    !files.some((file) => file.format === "sarif")
  ) {
    throw new InvocationError(
      "--sarif-location applies only to a SARIF report (--format sarif or --output sarif=PATH)",
    );
  }
  const sarifLocation = sarifLocationGiven === undefined
    ? undefined
    : sarifLocationOf(sarifLocationGiven);
  const stepSummary = format === "github" ? readOptional(env, "GITHUB_STEP_SUMMARY") : undefined;
  return {
    format,
    files,
    ...(stepSummary ? { stepSummary } : {}),
    ...(sarifLocation ? { sarifLocation } : {}),
  };
}

const INPUT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** `--config FILE` and the options that go with it. */
async function configRequest(
  given: Map<OptionName, string[]>,
  command: readonly string[] | undefined,
  env: (name: string) => string | undefined,
  clientPresetsOf: () => Promise<unknown>,
): Promise<ConfigRequest> {
  if (command !== undefined) {
    throw new InvocationError("Give either --config or a server command after '--', not both");
  }
  if (given.has("url")) throw new InvocationError("Give either --config or --url, not both");
  if (given.has("header")) {
    throw new InvocationError(
      "--header applies only to --url targets; with --config, headers come from the file",
    );
  }
  const configPath = single(given, "config")!;
  if (configPath === "") throw new InvocationError("--config needs a file");
  checkChoices(given);
  const servers = given.get("server");
  if (servers && !servers.every((name) => SERVER_LABEL.test(name))) {
    throw new InvocationError(`--server ${SERVER_RULE}`);
  }
  const requirements = new Map<string, string[]>();
  for (const spec of given.get("require-tool") ?? []) {
    const colon = spec.indexOf(":");
    if (colon === -1) {
      throw new InvocationError(
        "--require-tool with --config must be SERVER:TOOL: say which server must list the tool",
      );
    }
    const [server, tool] = [spec.slice(0, colon), spec.slice(colon + 1)];
    if (!SERVER_LABEL.test(server)) {
      throw new InvocationError(`--require-tool SERVER ${SERVER_RULE}`);
    }
    if (!isToolName(tool)) throw new InvocationError(`--require-tool TOOL ${TOOL_RULE}`);
    if (servers && !servers.includes(server)) {
      throw new InvocationError(
        `--require-tool names server ${server}, which no --server selects`,
      );
    }
    requirements.set(server, [...new Set([...(requirements.get(server) ?? []), tool])].sort());
  }
  const stderr = single(given, "server-stderr") ?? "discard";
  if (!(SERVER_STDERR_MODES as readonly string[]).includes(stderr)) {
    throw new InvocationError(`--server-stderr must be one of: ${SERVER_STDERR_MODES.join(", ")}`);
  }
  const jobs = integer(given, "jobs") ?? JOBS.default;
  if (!Number.isSafeInteger(jobs) || jobs < JOBS.min || jobs > JOBS.max) {
    throw new InvocationError(`--jobs must be an integer from ${JOBS.min} to ${JOBS.max}`);
  }
  const inputs = new Map<string, string>();
  for (const spec of given.get("input") ?? []) {
    const equals = spec.indexOf("=");
    const [id, variable] = [spec.slice(0, equals), spec.slice(equals + 1)];
    if (equals <= 0 || !INPUT_ID.test(id) || !ENV_NAME.test(variable)) {
      throw new InvocationError(
        "--input must be ID=ENV_VAR: an input id (1 to 64 letters, digits, '.', '_' or '-') and an environment variable name",
      );
    }
    if (inputs.has(id)) throw new InvocationError(`--input gives input ${id} twice`);
    inputs.set(id, variable);
  }
  const settingsInput = {
    clients: given.get("client"),
    clientPresets: await clientPresetsOf(),
    unknownReferences: given.has("unknown-references"),
    profiles: given.get("profile"),
    settleMs: integer(given, "settle-ms"),
    timeoutMs: integer(given, "timeout-ms"),
    concurrency: integer(given, "concurrency"),
    protocolVersion: single(given, "protocol-version"),
  };
  try {
    // Validated once here (exit 2); each entry of the file is validated with the same input.
    validateSettings(settingsInput, CLI_LABELS);
  } catch (error) {
    if (error instanceof RequestError) throw new InvocationError(error.message);
    throw error;
  }
  const baseline = baselineOf(given);
  return {
    configPath,
    servers: servers && [...new Set(servers)],
    settings: settingsInput,
    requirements,
    inputs,
    allowRemoteHttp: given.has("allow-remote-http"),
    stderr: stderr as ServerStderr,
    jobs,
    output: outputOf(given, env),
    ...(baseline ? { baseline } : {}),
  };
}

/** The `--output` path that means standard output. */
const STDOUT = "-";

/**
 * Checks that `value` is one of `choices`; otherwise throws, naming the option, the choices and,
 * when one is close, the likely one (never the value given).
 */
function oneOf(label: string, value: string, choices: readonly string[]): void {
  if (choices.includes(value)) return;
  const likely = closest(value, choices);
  throw new InvocationError(
    `${label} must be one of: ${choices.join(", ")}${likely ? `; did you mean ${likely}?` : ""}`,
  );
}

/** Reads and parses `--client-file` (JSON); its presets are validated with the request. */
async function readClientFile(
  path: string,
  permission: ArgsEffects["permission"],
  readTextFile: ArgsEffects["readTextFile"],
): Promise<unknown> {
  if (await permission({ name: "read", path }) !== "granted") {
    const value = shown(path);
    throw new InvocationError(
      `Permission to read the client file is missing: add --allow-read${
        value === undefined ? " (for a value that cannot be shown)" : `=${value}`
      }`,
    );
  }
  let text: string;
  try {
    text = await readTextFile(path, MAX_CONFIG_BYTES);
  } catch (error) {
    throw new InvocationError(
      `--client-file cannot be read (${readProblem(error, MAX_CONFIG_BYTES)})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvocationError("--client-file is not valid JSON");
  }
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
      const deno = denoFlag(token.rawName);
      if (deno) throw new InvocationError(misplacedDenoFlag(deno));
      const likely = token.rawName.startsWith("--")
        ? closest(token.rawName, OPTION_NAMES)
        : undefined;
      throw new InvocationError(
        `Unknown option ${optionLabel(token.rawName)}${likely ? `; did you mean ${likely}?` : ""}`,
      );
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

/** A numeric option as a number (NaN when it is not digits); the validator checks the range. */
function integer(given: Map<OptionName, string[]>, name: OptionName): number | undefined {
  const text = single(given, name);
  if (text === undefined) return undefined;
  return /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;
}

function targetOf(
  given: Map<OptionName, string[]>,
  command: readonly string[] | undefined,
  env: (name: string) => string | undefined,
): TargetInput {
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
    return {
      kind: "stdio",
      command: command[0] ?? "",
      args: command.slice(1),
      stderr: single(given, "server-stderr"),
    };
  }
  if (given.has("server-stderr")) {
    throw new InvocationError("--server-stderr applies only to stdio targets");
  }
  return {
    kind: "streamable-http",
    url: url!,
    allowRemoteHttp: given.has("allow-remote-http"),
    headers: (given.get("header") ?? []).map((spec) => headerOf(spec, env)),
  };
}

function headerOf(
  spec: string,
  env: (name: string) => string | undefined,
): readonly [string, string] {
  const equals = spec.indexOf("=");
  const name = spec.slice(0, equals);
  const variable = spec.slice(equals + 1);
  if (equals <= 0 || !ENV_NAME.test(variable)) {
    throw new InvocationError(
      "--header must be NAME=ENV_VAR: an HTTP header name and an environment variable name",
    );
  }
  const nameProblem = headerNameProblem(name);
  if (nameProblem) throw new InvocationError(`--header ${nameProblem}`);
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
  if (headerValueProblem(value)) {
    throw new InvocationError(
      `--header ${name}: environment variable ${variable} holds a value HTTP cannot carry (only visible ASCII, spaces and tabs, none at either end)`,
    );
  }
  return [name, value];
}

function baselineOf(given: Map<OptionName, string[]>): BaselineFile | undefined {
  const path = single(given, "baseline");
  const requireBaselineTools = given.has("require-baseline-tools");
  if (path === undefined) {
    if (requireBaselineTools) {
      throw new InvocationError("--require-baseline-tools needs --baseline");
    }
    return undefined;
  }
  if (path === "") throw new InvocationError("--baseline needs the path of a JSON report");
  return { path, requireBaselineTools };
}

function reportFileOf(spec: string): ReportFile {
  const equals = spec.indexOf("=");
  const format = spec.slice(0, equals);
  const path = spec.slice(equals + 1);
  if (equals <= 0 || !isFormat(format) || path === "") {
    const likely = equals > 0 ? closest(format, FORMATS) : undefined;
    throw new InvocationError(
      `--output must be FORMAT=PATH (PATH - for stdout) with FORMAT one of: ${FORMATS.join(", ")}${
        likely ? `; did you mean ${likely}?` : ""
      }`,
    );
  }
  return { format, path };
}

/** A relative path of `/`-separated segments, without `.` or `..` segments. */
const REPOSITORY_PATH = /^(?![A-Za-z][A-Za-z0-9+.-]*:)(?!\/)[\x21-\x7e]+$/;

/** `--sarif-location PATH[:LINE]`: a path relative to the repository root, and a line. */
function sarifLocationOf(spec: string): SarifLocation {
  const match = /^(.*?)(?::([1-9][0-9]{0,8}))?$/.exec(spec)!;
  const path = match[1];
  const segments = path.split("/");
  if (
    path.length > 200 || !REPOSITORY_PATH.test(path) || path.includes("\\") ||
    segments.some((segment) => segment === "" || segment === "." || segment === "..")
  ) {
    throw new InvocationError(
      "--sarif-location must be PATH or PATH:LINE, PATH relative to the repository root with '/' between folders (no '..', no spaces)",
    );
  }
  return { path, line: match[2] === undefined ? 1 : Number(match[2]) };
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
