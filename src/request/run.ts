/**
 * The one request of a run, for one server or for the servers of a config file, from a command
 * line or a library call alike: {@linkcode validateRun} validates the settings every server shares
 * once, then what the run checks. The command line adds where the reports go.
 *
 * @module
 */
import { type ConfigRunInput, type ConfigSelection, validateConfigSelection } from "./fleet.ts";
import { DEFAULT_FORMAT } from "../report/formats/mod.ts";
import {
  type BaselineFile,
  type BaselineValue,
  type FieldLabels,
  type GuidanceInput,
  LIBRARY_LABELS,
  type OutputRequest,
  RequestError,
  type RequestField,
  type RunSettings,
  validateDiscovery,
  validateSettings as validateRunSettings,
} from "./request.ts";
import type { Target } from "../target.ts";

/** The one server of a run of one server, validated. */
export interface ServerSelection {
  /** Selects a run of one server. */
  readonly kind: "server";
  /** The report's server label. */
  readonly server: string;
  /** Where the server is. */
  readonly target: Target;
  /** Required tools, sorted, without duplicates. */
  readonly requiredTools: readonly string[];
}

/** A validated run: what it checks, the settings its servers share, and where its report goes. */
export interface RunRequest {
  /** What the run checks: one server, or a config file's servers. */
  readonly servers: ServerSelection | ConfigSelection;
  /** The settings every server of the run shares, validated once. */
  readonly settings: RunSettings;
  /** How many server connections are live at once across the run. */
  readonly jobs: number;
  /** An earlier report to compare with: a file to read (the CLI) or its parsed value. */
  readonly baseline?: BaselineFile | BaselineValue;
  /** Where the reports go (the library: none but the value returned). */
  readonly output: OutputRequest;
  /** No live progress on stderr, even on a terminal. */
  readonly quiet: boolean;
}

/** A run as given: one server ({@linkcode GuidanceInput}) or a config file's ({@linkcode ConfigRunInput}). */
export type RunInput = GuidanceInput | ConfigRunInput;

/** Whether `input` asks for a config run. */
const isConfigInput = (input: RunInput): input is ConfigRunInput => "config" in input;

/**
 * Validates a run (the library's and the command line's one validator): the shared settings
 * once, then the one server (label, target, required tools) or the config file's selection,
 * and the baseline's flags. No report files, no progress. Throws {@linkcode RequestError}, naming
 * fields by `labels`.
 *
 * @example
 * ```ts
 * const server = validateRun({ server: "example", target: { kind: "stdio", command: "srv" } });
 * const config = validateRun({ config: ".mcp.json", requiredTools: ["memory:read_graph"] });
 * ```
 */
export function validateRun(input: RunInput, labels: FieldLabels = LIBRARY_LABELS): RunRequest {
  const fail = (field: RequestField, rule: string): never => {
    throw new RequestError(field, rule, labels);
  };
  const { baseline, requireBaselineTools } = input;
  if (requireBaselineTools !== undefined && typeof requireBaselineTools !== "boolean") {
    fail("requireBaselineTools", "must be true or false");
  }
  if (requireBaselineTools && baseline === undefined) {
    fail("requireBaselineTools", "needs {baseline}");
  }
  const common = {
    output: { format: DEFAULT_FORMAT, files: [] },
    quiet: true,
    ...(baseline === undefined
      ? {}
      : { baseline: { value: baseline, requireBaselineTools: requireBaselineTools === true } }),
  };
  if (isConfigInput(input)) {
    // The selection first: a config run's mistakes are named before its settings'.
    const { selection, jobs } = validateConfigSelection(input, fail);
    return { servers: selection, settings: validateSettings(input, labels), jobs, ...common };
  }
  const settings = validateSettings(input, labels);
  const { server, target, requiredTools } = validateDiscovery(input, settings, labels);
  return {
    servers: { kind: "server", server, target, requiredTools },
    settings,
    jobs: settings.concurrency,
    ...common,
  };
}

/** Only the settings' own fields of a run's input. */
function validateSettings(input: RunInput, labels: FieldLabels): RunSettings {
  const { profiles, clients, clientPresets, unknownReferences, settleMs, timeoutMs } = input;
  const { concurrency, protocolVersion, observe } = input;
  return validateRunSettings({
    profiles,
    clients,
    clientPresets,
    observe,
    unknownReferences,
    settleMs,
    timeoutMs,
    concurrency,
    protocolVersion,
  }, labels);
}
