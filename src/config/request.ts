/**
 * A `--config` run as validated: which file, which of its servers, and the settings every
 * server shares. The command line builds it from its options; the library validates a
 * {@linkcode ConfigRunInput} into the same shape with {@linkcode validateConfigRun}.
 *
 * @module
 */
import { JOBS } from "../limits.ts";
import { DEFAULT_FORMAT } from "../report/formats/mod.ts";
import {
  type BaselineFile,
  type FieldLabels,
  type GuidanceInput,
  LIBRARY_LABELS,
  type OutputRequest,
  RequestError,
  type RequestField,
  SERVER_RULE,
  TOOL_RULE,
  validateSettings,
} from "../request/request.ts";
import { SERVER_STDERR_MODES, type ServerStderr } from "../target.ts";
import { isToolName, SERVER_LABEL } from "../tool_name.ts";

/** A baseline given as its parsed JSON (the library), not as a file to read. */
export interface BaselineValue {
  /** The earlier guidance or fleet report, parsed. */
  readonly value: unknown;
  /** Whether every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools: boolean;
}
import type { Shard } from "./shard.ts";

/** A validated `mcpeval guidance --config FILE` run. */
export interface ConfigRequest {
  /** The config file, as given. */
  readonly configPath: string;
  /** `--config-project PATH`: the project of a Claude Code user file whose servers are checked too. */
  readonly project?: string;
  /** The entries selected with `--server` (keys or labels), or undefined for every entry. */
  readonly servers: readonly string[] | undefined;
  /**
   * The settings every server shares, as given (already validated once; `validateDiscovery`
   * checks them again with each entry). Required tools are in `requirements`.
   */
  readonly settings: Omit<
    GuidanceInput,
    "server" | "target" | "requiredTools" | "baseline" | "requireBaselineTools"
  >;
  /** `--require-tool SERVER:TOOL`, by server, sorted. */
  readonly requirements: ReadonlyMap<string, readonly string[]>;
  /** `--input ID=ENV_VAR`: the variable that answers each VS Code input. */
  readonly inputs: ReadonlyMap<string, string>;
  /** `--allow-remote-http`. */
  readonly allowRemoteHttp: boolean;
  /** `--server-stderr`, for every stdio server. */
  readonly stderr: ServerStderr;
  /** `--jobs`: server connections live at once across the run. */
  readonly jobs: number;
  /** Where the reports go. */
  readonly output: OutputRequest;
  /** `--quiet`: no live progress on stderr, even on a terminal. */
  readonly quiet: boolean;
  /** `--baseline`: an earlier guidance or fleet report; each server is compared with its entry. */
  readonly baseline?: BaselineFile | BaselineValue;
  /** `--shard I/N`: check only the selected servers whose label falls to shard I of N. */
  readonly shard?: Shard;
}

/** A config run as the library gives it. */
export interface ConfigRunInput extends
  Omit<
    GuidanceInput,
    "server" | "target" | "requiredTools" | "baseline" | "requireBaselineTools"
  > {
  /** The client config file to read (Claude, Cursor, VS Code, Codex, ...). */
  readonly config: string;
  /** The entries to check, by key; default every entry. */
  readonly servers?: readonly string[];
  /** Tools a server must list in every selected profile, as `SERVER:TOOL`. */
  readonly requiredTools?: readonly string[];
  /** VS Code `${input:ID}` answers: the environment variable that holds each input's value. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Whether remote `https:` endpoints of the file may be reached. */
  readonly allowRemoteHttp?: boolean;
  /** What becomes of stdio servers' stderr: `"discard"` (default) or `"inherit"`. */
  readonly serverStderr?: string;
  /** Server connections live at once across the run (1 to 64, default 8). */
  readonly jobs?: number;
  /** An earlier guidance or fleet report (parsed JSON); each server is compared with its entry. */
  readonly baseline?: unknown;
  /** With `baseline`: every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools?: boolean;
}

const INPUT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates a library config run into a {@linkcode ConfigRequest} (no report files, no
 * progress). Throws {@linkcode RequestError}, naming fields by `labels`.
 *
 * @example
 * ```ts
 * const request = validateConfigRun({ config: ".mcp.json", requiredTools: ["memory:read_graph"] });
 * ```
 */
export function validateConfigRun(
  input: ConfigRunInput,
  labels: FieldLabels = LIBRARY_LABELS,
): ConfigRequest {
  const fail = (field: RequestField, rule: string): never => {
    throw new RequestError(field, rule, labels);
  };
  const {
    config,
    servers,
    requiredTools,
    inputs,
    allowRemoteHttp,
    serverStderr,
    jobs,
    baseline,
    requireBaselineTools,
    ...settings
  } = input;
  if (typeof config !== "string" || config === "") fail("config", "must be a file's path");
  if (servers !== undefined && !servers.every((name) => SERVER_LABEL.test(name))) {
    fail("server", SERVER_RULE);
  }
  const requirements = new Map<string, string[]>();
  for (const spec of requiredTools ?? []) {
    const colon = typeof spec === "string" ? spec.indexOf(":") : -1;
    if (colon === -1) fail("requiredTools", "must be SERVER:TOOL: say which server must list it");
    const [server, tool] = [spec.slice(0, colon), spec.slice(colon + 1)];
    if (!SERVER_LABEL.test(server)) fail("requiredTools", `SERVER ${SERVER_RULE}`);
    if (!isToolName(tool)) fail("requiredTools", `TOOL ${TOOL_RULE}`);
    if (servers && !servers.includes(server)) {
      fail("requiredTools", "names a server that {server} does not select");
    }
    requirements.set(server, [...new Set([...(requirements.get(server) ?? []), tool])].sort());
  }
  const answers = new Map<string, string>();
  for (const [id, variable] of Object.entries(inputs ?? {})) {
    if (!INPUT_ID.test(id) || typeof variable !== "string" || !ENV_NAME.test(variable)) {
      fail("inputs", "must map input ids to environment variable names");
    }
    answers.set(id, variable);
  }
  const stderr = serverStderr ?? "discard";
  if (!(SERVER_STDERR_MODES as readonly string[]).includes(stderr)) {
    fail("stderr", `must be one of: ${SERVER_STDERR_MODES.join(", ")}`);
  }
  const bound = jobs ?? JOBS.default;
  if (!Number.isSafeInteger(bound) || bound < JOBS.min || bound > JOBS.max) {
    fail("jobs", `must be an integer from ${JOBS.min} to ${JOBS.max}`);
  }
  if (requireBaselineTools !== undefined && typeof requireBaselineTools !== "boolean") {
    fail("requireBaselineTools", "must be true or false");
  }
  if (requireBaselineTools && baseline === undefined) {
    fail("requireBaselineTools", "needs {baseline}");
  }
  // The same rules as every entry's, checked once before the file is read.
  validateSettings(settings, labels);
  return {
    configPath: config,
    servers: servers && [...new Set(servers)],
    settings,
    requirements,
    inputs: answers,
    allowRemoteHttp: allowRemoteHttp === true,
    stderr: stderr as ServerStderr,
    jobs: bound,
    output: { format: DEFAULT_FORMAT, files: [] },
    quiet: true,
    ...(baseline === undefined
      ? {}
      : { baseline: { value: baseline, requireBaselineTools: requireBaselineTools === true } }),
  };
}
