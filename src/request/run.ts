/**
 * The one request of a run, for one server or for the servers of a config file (a fleet), from
 * a command line or a library call alike: {@linkcode validateRun} validates the settings every
 * server shares once, then what the run checks and its baseline, and builds the request once.
 * The command line gives what only it has (where the reports go, a baseline file) to the same
 * call.
 *
 * @module
 */
import { type FleetInput, type FleetSelection, validateFleetSelection } from "./fleet.ts";
import {
  type BaselineFile,
  type BaselineInput,
  type BaselineValue,
  type Fail,
  failWith,
  type FieldLabels,
  type GuidanceInput,
  LIBRARY_LABELS,
  type OutputRequest,
  type RunSettings,
  type ServerRequest,
  validateDiscovery,
  validateSettings,
} from "./request.ts";

/** The one server of a run of one server, validated. */
export interface ServerSelection extends ServerRequest {
  /** Selects a run of one server. */
  readonly kind: "server";
}

/** A validated run: what it checks, the settings its servers share, its baseline. */
export interface RunRequest {
  /** What the run checks: one server, or a config file's servers. */
  readonly servers: ServerSelection | FleetSelection;
  /** The settings every server of the run shares, validated once. */
  readonly settings: RunSettings;
  /** How many server connections are live at once across the run. */
  readonly jobs: number;
  /** An earlier report to compare with: a file to read (the CLI) or its parsed value. */
  readonly baseline?: BaselineFile | BaselineValue;
  /** Where the command line writes its reports (a library run has none: it returns its report). */
  readonly output?: OutputRequest;
}

/** A run as given: one server ({@linkcode GuidanceInput}) or a config file's ({@linkcode FleetInput}). */
export type RunInput = GuidanceInput | FleetInput;

/** What only the command line gives a run: where its reports go, and a baseline file to read. */
export interface CommandLineInput {
  /** The report on stdout, the report files, the step summary. */
  readonly output: OutputRequest;
  /** `--baseline FILE` (`-`: standard input), read when the run is planned. */
  readonly baselineFile?: string;
}

/** Whether `input` asks for a fleet. */
const isFleetInput = (input: RunInput): input is FleetInput => "config" in input;

/**
 * Validates a run (the library's and the command line's one validator): the baseline's flags,
 * then the fleet's selection or the settings, then the other; each rule once. No files are read,
 * no progress shown. Throws {@linkcode RequestError}, naming fields by `labels`.
 *
 * @example
 * ```ts
 * const server = validateRun({ server: "example", target: { kind: "stdio", command: "srv" } });
 * const config = validateRun({ config: ".mcp.json", requiredTools: ["memory:read_graph"] });
 * ```
 */
export function validateRun(input: RunInput, labels?: FieldLabels): RunRequest;
/** The command line's run: the same request, with where its reports go. */
export function validateRun(
  input: RunInput,
  labels: FieldLabels,
  commandLine: CommandLineInput,
): RunRequest & { readonly output: OutputRequest };
export function validateRun(
  input: RunInput,
  labels: FieldLabels = LIBRARY_LABELS,
  commandLine?: CommandLineInput,
): RunRequest {
  const fail = failWith(labels);
  const baseline = baselineOf(input, commandLine?.baselineFile, fail);
  const rest = {
    ...(baseline === undefined ? {} : { baseline }),
    ...(commandLine === undefined ? {} : { output: commandLine.output }),
  };
  if (isFleetInput(input)) {
    // The selection first: a fleet's mistakes are named before its settings'.
    const { selection, jobs } = validateFleetSelection(input, fail);
    return { servers: selection, settings: validateSettings(input, labels), jobs, ...rest };
  }
  const settings = validateSettings(input, labels);
  return {
    servers: { kind: "server", ...validateDiscovery(input, settings, labels) },
    settings,
    jobs: settings.concurrency,
    ...rest,
  };
}

/** The baseline given (a file, or a parsed value), with whether its tools are required. */
function baselineOf(
  { baseline, requireBaselineTools }: BaselineInput,
  file: string | undefined,
  fail: Fail,
): BaselineFile | BaselineValue | undefined {
  if (requireBaselineTools !== undefined && typeof requireBaselineTools !== "boolean") {
    fail("requireBaselineTools", "must be true or false");
  }
  const required = requireBaselineTools === true;
  if (file !== undefined) return { path: file, requireBaselineTools: required };
  if (baseline !== undefined) return { value: baseline, requireBaselineTools: required };
  if (required) fail("requireBaselineTools", "needs {baseline}");
  return undefined;
}
