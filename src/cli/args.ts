/**
 * argv of `mcpeval guidance` → a validated `RunRequest` (one server, or a config file's), built
 * once. The options, their labels, value parsers and the kinds of run each applies to are rows
 * of `options.ts`; what only the command line does (a header's value from the environment, an
 * input given twice, `--output`) lives here; the rules of the request itself are the shared
 * validator's, named in the command line's terms.
 *
 * @module
 */
import { closest } from "../analysis/suggest.ts";
import { type ArgsToken, argsTokens } from "./tokens.ts";
import { type FleetInput, isInputId } from "../request/fleet.ts";
import { type RunInput, type RunRequest, validateRun } from "../request/run.ts";
import {
  DEFAULT_FORMAT,
  type Format,
  FORMAT_OPTIONS,
  FORMATS,
  formatsTaking,
  formatTakes,
  isFormat,
  writesStepSummary,
} from "../report/formats/mod.ts";
import { MAX_CONFIG_BYTES } from "../limits.ts";
import {
  type FieldLabels,
  type GuidanceInput,
  headerNameProblem,
  headerValueProblem,
  type OutputRequest,
  type ReportFile,
  type TargetInput,
} from "../request/request.ts";
import { SERVER_LABEL } from "../tool_name.ts";
import { shown } from "../printable.ts";
import { defaultServerStderr, ENV_NAME } from "../target.ts";
import type { CliContext } from "./context.ts";
import { denoFlag, misplacedDenoFlag, whereFlagsGo } from "./deno_flags.ts";
import { InvocationError } from "./errors.ts";
import {
  checkModes,
  fieldInputs,
  fieldLabels,
  HEADER_VALUE_RULE,
  OPTION_ROWS,
  OPTION_TABLE,
  type OptionName,
  type ParseSpec,
  parseSpec,
  runModeOf,
  UNPRINTABLE_VALUE,
} from "./options.ts";
import { readProblem } from "../run/files.ts";

/** How the command line names the request's fields. */
export const CLI_LABELS: FieldLabels = fieldLabels();

const OPTIONS = parseSpec(OPTION_ROWS);

/** The options given, by long name: the table's and the formats' own. */
type Given = Map<string, string[]>;

/** Every option's long name: suggestions, and the test that help and docs/reference.md list them. */
export const OPTION_NAMES: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`);

/** What the guidance command line asks for: its help, or a run of one server or of a config file's. */
export type GuidanceArgs =
  | { readonly help: true }
  | {
    readonly help: false;
    /** The run, with where its reports go. */
    readonly request: RunRequest & { readonly output: OutputRequest };
    /** No live progress on stderr, even on a terminal. */
    readonly quiet: boolean;
  };

/** The effects parsing needs: the environment, and reading `--client-file`. */
export type ArgsEffects = Pick<
  CliContext,
  "env" | "permission" | "readTextFile" | "launch" | "stderrTerminal"
>;

/**
 * Parses the arguments that follow `guidance`. `env` resolves `--header NAME=ENV_VAR` and
 * `GITHUB_STEP_SUMMARY`; `--client-file` is read (after its permission is checked). Throws
 * {@linkcode InvocationError} for any invalid invocation.
 */
export async function parseGuidanceArgs(
  argv: readonly string[],
  { env, permission, readTextFile, launch, stderrTerminal }: ArgsEffects,
): Promise<GuidanceArgs> {
  const terminator = argv.indexOf("--");
  const own = terminator === -1 ? argv : argv.slice(0, terminator);
  const command = terminator === -1 ? undefined : argv.slice(terminator + 1);
  const given = collect(own, launch);
  if (given.has("help")) return { help: true };
  const clientPresetsOf = (): Promise<unknown> => {
    const clientFile = single(given, "client-file");
    return clientFile === undefined
      ? Promise.resolve(undefined)
      : readClientFile(clientFile, permission, readTextFile, launch);
  };
  const mode = runModeOf({
    config: given.has("config"),
    stdio: command !== undefined,
    http: given.has("url"),
  });
  // Before any value is validated: each option given applies to this kind of run.
  checkModes(given, mode === undefined ? ["stdio", "http"] : [mode]);
  // Not named: a stdio server's last lines where a person watches the run (not with --quiet).
  if (mode !== "http" && !given.has("server-stderr")) {
    given.set("server-stderr", [
      defaultServerStderr(stderrTerminal !== undefined, given.has("quiet")),
    ]);
  }
  // The options given as they are, each read by its row of the option table (its value
  // parser), and those the command line builds the input from; the shared validator checks them
  // all, named by the options.
  const fields = fieldInputs(given);
  let input: RunInput;
  if (mode === "config") {
    const servers = given.get("server");
    input = {
      ...fields,
      ...(servers ? { servers } : {}),
      inputs: inputsOf(fieldInputs(given, ["inputs"]).inputs as Pairs | undefined),
      allowRemoteHttp: given.has("allow-remote-http"),
      serverStderr: single(given, "server-stderr"),
      clientPresets: await clientPresetsOf(),
    } as FleetInput;
  } else {
    const server = single(given, "server") ?? defaultServer(command, mode === "http");
    input = {
      ...fields,
      clientPresets: await clientPresetsOf(),
      server,
      target: targetOf(given, command, env),
    } as GuidanceInput;
  }
  const output = outputOf(given, env);
  const baselineFile = baselineOf(given);
  return {
    help: false,
    request: validateRun(input, CLI_LABELS, {
      output,
      ...(baselineFile === undefined ? {} : { baselineFile }),
    }),
    quiet: given.has("quiet"),
  };
}

/** `NAME=VALUE` options, split by their rows' parsers. */
type Pairs = readonly (readonly [string, string])[];

/**
 * The label of a stdio server without `--server`: the program's name (`node` for
 * `node dist/server.js`, `my_server` for `./my_server.py`) when it is a valid label. Throws when
 * there is none: with `--url`, or a program whose name is not a label.
 */
function defaultServer(command: readonly string[] | undefined, url: boolean): string {
  if (url || command === undefined) {
    throw new InvocationError(
      url ? "--server is required with --url: it labels the report" : "--server is required",
    );
  }
  const program = programName(command[0] ?? "");
  if (program === undefined) {
    throw new InvocationError(
      "--server is required: the program name of the command after '--' is not a server label, which --server otherwise defaults to",
    );
  }
  return program;
}

/**
 * A command's program name as a server label: its last path segment without its extension,
 * or undefined when that is not a valid label. Pure.
 *
 * @example
 * ```ts
 * programName("/usr/local/bin/my-server.js"); // "my-server"
 * ```
 */
export function programName(command: string): string | undefined {
  const base = command.split(/[\\/]/).pop() ?? "";
  const name = base.replace(/(?<=.)\.[A-Za-z0-9]{1,8}$/, "");
  return SERVER_LABEL.test(name) ? name : undefined;
}

/**
 * An option with choices that the request does not validate (`--format`) has one of them, else
 * a suggestion (the request's validator checks its own fields' choices: `--server-stderr`).
 */
function checkChoices(given: Given): void {
  for (const row of OPTION_TABLE) {
    if (!("choices" in row) || "field" in row) continue;
    const value = single(given, row.name);
    if (value !== undefined) oneOf(`--${row.name}`, value, row.choices);
  }
}

/** `--format`, `--output` and the formats' own options of a command that only renders (`merge`). */
export function reportOutputOf(
  given: Given,
  env: (name: string) => string | undefined,
): OutputRequest {
  return outputOf(given, env);
}

function outputOf(given: Given, env: (name: string) => string | undefined): OutputRequest {
  checkChoices(given);
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
  const format: Format = toStdout?.format ?? (formatGiven as Format | undefined) ??
    DEFAULT_FORMAT;
  const files = outputs.filter((file) => file.path !== STDOUT);
  const options = formatValuesOf(given, [format, ...files.map((file) => file.format)]);
  const stepSummary = writesStepSummary(format)
    ? readOptional(env, "GITHUB_STEP_SUMMARY")
    : undefined;
  return {
    format,
    files,
    ...(stepSummary ? { stepSummary } : {}),
    ...(options ? { options } : {}),
  };
}

/**
 * The formats' own options given, each read by its declaration; refused (exit 2) when no report
 * written (`written`) is of a format that takes it, or when its value is not one it takes.
 */
function formatValuesOf(
  given: Given,
  written: readonly Format[],
): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {};
  for (const option of FORMAT_OPTIONS) {
    const text = given.get(option.name)?.[0];
    if (text === undefined) continue;
    if (!written.some((format) => formatTakes(format, option))) {
      const formats = formatsTaking(option);
      throw new InvocationError(
        `--${option.name} applies only to ${option.report} (${
          formats.map((format) => `--format ${format} or --output ${format}=PATH`).join(", ")
        })`,
      );
    }
    const read = option.parse(text);
    if ("problem" in read) throw new InvocationError(`--${option.name} ${read.problem}`);
    values[option.name] = read.value;
  }
  return Object.keys(values).length === 0 ? undefined : values;
}

/** `--input ID=ENV_VAR`, each id once (the ids and names are the validator's to check). */
function inputsOf(pairs: Pairs | undefined): Record<string, string> {
  const inputs = new Map<string, string>();
  for (const [id, variable] of pairs ?? []) {
    if (inputs.has(id)) {
      throw new InvocationError(`--input gives input${isInputId(id) ? ` ${id}` : ""} twice`);
    }
    inputs.set(id, variable);
  }
  return Object.fromEntries(inputs);
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
  launch: ArgsEffects["launch"],
): Promise<unknown> {
  if (await permission({ name: "read", path }) !== "granted") {
    const value = shown(path);
    const flag = `--allow-read${
      value === undefined ? " (for a value that cannot be shown)" : `=${value}`
    }`;
    throw new InvocationError(
      `Permission to read the client file is missing: add ${flag}${whereFlagsGo(flag, launch)}`,
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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvocationError("--client-file is not valid JSON");
  }
  // An observation file (`mcpeval lab`'s): the preset derived from it, checked against it.
  if ((value as { schema?: unknown } | null)?.schema === OBSERVATION_FILE) {
    const { observationAsPresets } = await import("../lab/presets_file.ts");
    const presets = await observationAsPresets(value);
    if ("problem" in presets) throw new InvocationError(`--client-file ${presets.problem}`);
    return presets.document;
  }
  return value;
}

/** The schema id of an observation file, which `--client-file` also reads. */
const OBSERVATION_FILE = "mcpeval.client-observation/v1";

/** Collects option values by name, rejecting unknown options, positionals and missing values. */
function collect(argv: readonly string[], launch: ArgsEffects["launch"]): Given {
  const tokens = argsTokens(argv, OPTIONS);
  const given: Given = new Map();
  for (const [at, token] of tokens.entries()) {
    if (token.kind === "positional") throw unexpected(token.index, tokens.slice(0, at));
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(OPTIONS, token.name)) {
      const deno = denoFlag(token.rawName);
      if (deno) throw new InvocationError(misplacedDenoFlag(deno, launch));
      throw unknownOption(token.rawName, OPTION_NAMES);
    }
    takeOption(given, token.name, OPTIONS[token.name], token);
  }
  return given;
}

/** An option token of the command line. */
type OptionToken = Extract<ArgsToken, { kind: "option" }>;

/**
 * Adds a known option's value to `given`: a flag takes no value, any other option needs one
 * (not the next option), and only a `multiple` option may be given twice. Throws
 * {@linkcode InvocationError} naming the option. Shared by every command's parser.
 */
export function takeOption<N extends string>(
  given: Map<N, string[]>,
  name: N,
  spec: ParseSpec,
  token: OptionToken,
): void {
  const label = `--${name}`;
  if (spec.type === "boolean") {
    if (token.value !== undefined) throw new InvocationError(`${label} takes no value`);
    given.set(name, [""]);
    return;
  }
  const value = token.value;
  if (value === undefined || (!token.inlineValue && value.startsWith("--"))) {
    throw new InvocationError(`${label} needs a value`);
  }
  if (spec.reported && UNPRINTABLE_VALUE.test(value)) {
    throw new InvocationError(
      `${label} holds a line break, a control or an invisible format character`,
    );
  }
  const values = given.get(name) ?? [];
  if (values.length > 0 && !spec.multiple) {
    throw new InvocationError(`${label} may be given only once`);
  }
  values.push(value);
  given.set(name, values);
}

/**
 * A word that is not an option, most often a server command without `--` before it: named by
 * its place (never by its value, which may be a secret) and the option before it.
 */
function unexpected(index: number, before: readonly ArgsToken[]): InvocationError {
  const option = before.findLast((token) => token.kind === "option");
  const place = option?.kind === "option"
    ? `the word after ${optionLabel(option.rawName)}${
      option.value !== undefined && !option.inlineValue ? " and its value" : ""
    }`
    : "the first word after 'guidance'";
  return new InvocationError(
    `Unexpected argument ${
      index + 1
    } (${place}): put the server command after '--' (mcpeval guidance [options] -- COMMAND [ARG...]), or use --url`,
  );
}

/**
 * An option no command takes, with the closest of `names` when it is a long one; `after`: what
 * follows its name (which command). Shared by every command's parser.
 */
export function unknownOption(
  rawName: string,
  names: readonly string[],
  after = "",
): InvocationError {
  const likely = rawName.startsWith("--") ? closest(rawName, names) : undefined;
  return new InvocationError(
    `Unknown option ${optionLabel(rawName)}${after}${likely ? `; did you mean ${likely}?` : ""}`,
  );
}

/** The name of an unknown option, safe to print (only option-like characters, bounded). */
export function optionLabel(rawName: string): string {
  return /^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/.test(rawName) ? `'${rawName}'` : "(unprintable)";
}

function single(given: Given, name: OptionName): string | undefined {
  return given.get(name)?.[0];
}

/** The target of a server run (its options already checked against it). */
function targetOf(
  given: Given,
  command: readonly string[] | undefined,
  env: (name: string) => string | undefined,
): TargetInput {
  if (command !== undefined) {
    return {
      kind: "stdio",
      command: command[0] ?? "",
      args: command.slice(1),
      stderr: single(given, "server-stderr"),
    };
  }
  const url = single(given, "url");
  if (url === undefined) {
    throw new InvocationError("A target is required: a server command after '--', or --url");
  }
  return {
    kind: "streamable-http",
    url,
    allowRemoteHttp: given.has("allow-remote-http"),
    headers: (fieldInputs(given, ["headers"]).headers as Pairs ?? []).map((pair) =>
      headerOf(pair, env)
    ),
  };
}

/**
 * `--header NAME=ENV_VAR` (split by its row's parser) → the header, read from the environment.
 * The request's validator checks the header; a variable that gives no value is refused here,
 * naming the header, once the validator's rule for its name holds.
 */
function headerOf(
  [name, variable]: readonly [string, string],
  env: (name: string) => string | undefined,
): readonly [string, string] {
  if (!ENV_NAME.test(variable)) throw new InvocationError(HEADER_VALUE_RULE);
  const refuse = (problem: string): never => {
    // Named in the message: a name the validator refuses is refused first, as it would be.
    const nameProblem = headerNameProblem(name);
    throw new InvocationError(
      nameProblem ? `--header ${nameProblem}` : `--header ${name}${problem}`,
    );
  };
  let value: string | undefined;
  try {
    value = env(variable);
  } catch {
    return refuse(` needs read access to its environment variable: add --allow-env=${variable}`);
  }
  if (value === undefined) return refuse(`: environment variable ${variable} is not set`);
  if (headerValueProblem(value)) {
    refuse(
      `: environment variable ${variable} holds a value HTTP cannot carry (only visible ASCII, spaces and tabs, none at either end)`,
    );
  }
  return [name, value];
}

/** `--baseline FILE`, read when the run is planned. */
function baselineOf(given: Given): string | undefined {
  const path = single(given, "baseline");
  if (path === "") throw new InvocationError("--baseline needs the path of a JSON report");
  return path;
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
