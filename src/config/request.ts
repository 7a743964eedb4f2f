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
  type DiscoverySettingsRequest,
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
   * The settings every server shares, validated once (client presets parsed once); each entry
   * validates only its target. Required tools are in `requirements`.
   */
  readonly settings: DiscoverySettingsRequest;
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
  /** The entries to check, by label or key; default every entry. */
  readonly servers?: readonly string[];
  /**
   * Tools a server must list in every selected profile, as `SERVER:TOOL` (split at the last
   * colon: see {@linkcode splitRequirement}).
   */
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

/** The rule for a VS Code input id. */
const INPUT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `id` is a VS Code input id mcpeval takes (and so may show). */
export const isInputId = (id: string): boolean => INPUT_ID.test(id);

/** The rule for an `inputs` entry (`--input ID=ENV_VAR`): its id and its variable. */
export const INPUT_RULE =
  "an input id (1 to 64 letters, digits, '.', '_' or '-') and an environment variable name";

/**
 * Whether `name` can select a config entry: a server label, or an entry's key as the file
 * writes it (which need not be a label: no control character, at most 256 characters).
 */
export function isEntryName(name: unknown): name is string {
  return typeof name === "string" &&
    // deno-lint-ignore no-control-regex -- control characters are what it refuses
    (SERVER_LABEL.test(name) || (name.length <= 256 && !/[\u0000-\u001f\u007f]/.test(name)));
}

/** The rule of {@linkcode isEntryName}. */
export const ENTRY_NAME_RULE = `${SERVER_RULE}, or an entry's key of the config file`;

/**
 * `SERVER:TOOL` of a config run's required tool, split at its **last** colon: a tool name has
 * no colon (`TOOL_NAME`), a server label has none either, and an entry's key may have some, so
 * the last colon is the only split that is never ambiguous. The problem (a rule, naming
 * fields as `{field}`) when it is not one; never the value.
 *
 * @example
 * ```ts
 * splitRequirement("memory:read_graph"); // { server: "memory", tool: "read_graph" }
 * splitRequirement("ns:memory:read_graph"); // { server: "ns:memory", tool: "read_graph" }
 * ```
 */
export function splitRequirement(
  spec: unknown,
): { readonly server: string; readonly tool: string } | { readonly problem: string } {
  const colon = typeof spec === "string" ? spec.lastIndexOf(":") : -1;
  if (colon === -1) {
    return { problem: "must be SERVER:TOOL in a config run: say which server must list the tool" };
  }
  const text = spec as string;
  const [server, tool] = [text.slice(0, colon), text.slice(colon + 1)];
  if (!isEntryName(server) || server === "") return { problem: `SERVER ${ENTRY_NAME_RULE}` };
  if (!isToolName(tool)) return { problem: `TOOL ${TOOL_RULE}` };
  return { server, tool };
}

/**
 * Validates a config run into a {@linkcode ConfigRequest} (no report files, no progress): the
 * one validator of its settings, for the library and the command line (which adds its
 * output options). Throws {@linkcode RequestError}, naming fields by `labels`.
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
  if (servers !== undefined && !servers.every(isEntryName)) fail("server", ENTRY_NAME_RULE);
  // (A key and its derived label name the same entry: that is checked with the file.)
  const selectsByLabel = servers?.every((name) => SERVER_LABEL.test(name)) === true;
  const requirements = new Map<string, string[]>();
  for (const spec of requiredTools ?? []) {
    const split = splitRequirement(spec);
    if ("problem" in split) return fail("requiredTools", split.problem);
    const { server, tool } = split;
    if (selectsByLabel && SERVER_LABEL.test(server) && !servers!.includes(server)) {
      fail("requiredTools", `names server ${server}, which no {server} selects`);
    }
    requirements.set(server, [...new Set([...(requirements.get(server) ?? []), tool])].sort());
  }
  const answers = new Map<string, string>();
  for (const [id, variable] of Object.entries(inputs ?? {})) {
    if (!INPUT_ID.test(id) || typeof variable !== "string" || !ENV_NAME.test(variable)) {
      fail("inputs", `must map ${INPUT_RULE}`);
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
  return {
    configPath: config,
    servers: servers && [...new Set(servers)],
    // Validated once, before the file is read; each entry then validates only its target.
    settings: validateSettings(settings, labels),
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
