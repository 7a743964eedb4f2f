/**
 * mcpeval guidance as a library: discover a server's catalogs under the client capability
 * profiles and compare them with its instructions.
 *
 * @example
 * ```ts
 * import { runGuidance } from "jsr:@mcpeval/guidance/lib";
 *
 * const report = await runGuidance({
 *   server: "example",
 *   target: { kind: "stdio", command: "your-mcp-server" },
 * });
 * console.log(report.passed);
 * ```
 *
 * @module
 */
import type { FleetInput } from "./src/request/fleet.ts";
import type { FleetReport } from "./src/report/fleet/types.ts";
import type { GuidanceReport } from "./src/report/schema.ts";
import type { GuidanceInput } from "./src/request/request.ts";
import { type RunRequest, validateRun } from "./src/request/run.ts";
import { denoRunEffects } from "./src/run/files.ts";
import { executeRun, planRun, type RunOutcome } from "./src/run/run.ts";
import { passedValues } from "./src/run/plan.ts";
import { ServerStderrWriter } from "./src/run/server_stderr.ts";
import { SpawnError } from "./src/transport/stdio.ts";

// What a run takes.
export type {
  BaselineInput,
  GuidanceInput,
  HttpTargetInput,
  SettingsInput,
  StdioTargetInput,
  TargetInput,
} from "./src/request/request.ts";
export type { FleetInput } from "./src/request/fleet.ts";
// What it throws.
export { UserError } from "./src/errors.ts";
export { RequestError } from "./src/request/request.ts";
export { RunError } from "./src/run/errors.ts";
export { SpawnError } from "./src/transport/stdio.ts";
// What it gives: the reports, and their schemas.
export {
  type BaselineReport,
  type BaselineState,
  type BaselineToolDefectReport,
  type CandidateReport,
  type CapExceededCandidateReport,
  type ClientReport,
  type ComparedProfileDrift,
  type CompleteProfileReport,
  type DefectReport,
  type DisabledInConfigCandidateReport,
  type GuidanceReport,
  GuidanceReportSchema,
  type IncompleteDetailReport,
  type IncompleteProfileReport,
  type IncompleteReport,
  type KnownIds,
  type NotComparedProfileDrift,
  type ObservedReport,
  type PresetDisagreesCandidateReport,
  type ProfileDrift,
  type ProfileReport,
  type ProfilesDifferReport,
  type ReferenceCutCandidateReport,
  type ReferencedCandidateReport,
  type ReportIds,
  type ReportIssue,
  type ReportParseResult,
  type ReportSchema,
  type RequiredToolDefectReport,
  type ResolvedFindingReport,
  type UnknownFindingReport,
  type UnknownReferenceReport,
  type UnreachableCandidateReport,
} from "./src/report/schema.ts";
export {
  type CheckedServer,
  type FleetParseResult,
  type FleetReport,
  FleetReportSchema,
  type FleetSchema,
  type FleetServer,
  type FleetShardReport,
  type NotCheckedServer,
} from "./src/report/fleet/schema.ts";
// The facts a report's values come from: each id with its fixed phrase.
export {
  type ClientProfile,
  type ObservedLabel,
  type Profile,
  type ProfileLabel,
  PROFILES,
} from "./src/profiles.ts";
export type { ObservedRule } from "./src/analysis/observed.ts";
export {
  AUTO,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  type REVISIONS,
} from "./src/protocol/versions.ts";
export { FILTERED_REQUIRED_HINT, type FindingKind, RULES } from "./src/analysis/rules.ts";
export {
  DETAIL_PHRASES,
  type DetailCause,
  INCOMPLETE_HINTS,
  type IncompleteReason,
  type SignalName,
  SIGNALS,
} from "./src/protocol/incomplete.ts";
export {
  CONFIG_FIELDS,
  type ConfigField,
  type ConfigFormat,
  NOT_CHECKED_HINTS,
  type NotCheckedReason,
} from "./src/config_facts.ts";
export { RULE_KIND_IDS, type RULE_KINDS, type RuleKindId } from "./src/clients/rules/registry.ts";
export { TOOL_FILTER_RULE_IDS, type ToolFilterRuleId } from "./src/analysis/tool_filters.ts";

/** What {@linkcode runGuidance} takes: a run as given, and a signal that aborts it. */
export interface RunGuidanceOptions extends GuidanceInput {
  /** Aborts discovery: every connection is closed and the run ends incomplete. */
  readonly signal?: AbortSignal;
}

/**
 * Validates `options` (with {@linkcode validateRun}, as the command line does), runs discovery
 * for the selected profiles and returns the validated report. Invalid options (a `baseline`
 * that is not a complete report of the same server included) throw {@linkcode RequestError},
 * and a permission this process lacks (the server command, its host; one Deno would prompt for
 * counts as lacking: grant it with `--allow-run` or `--allow-net`) {@linkcode RunError},
 * before anything starts; a command that cannot be started throws {@linkcode SpawnError}.
 *
 * @example
 * ```ts
 * const report = await runGuidance({
 *   server: "example",
 *   target: { kind: "streamable-http", url: "http://127.0.0.1:3001/mcp" },
 *   profiles: ["none", "roots"],
 *   settleMs: 500,
 * });
 * ```
 */
export async function runGuidance(options: RunGuidanceOptions): Promise<GuidanceReport> {
  const { signal, ...input } = options;
  const run = await execute(validateRun(input), signal);
  if (run.kind === "not-started") throw new SpawnError(run.failure);
  if (run.kind !== "server") throw new Error("a run of one server gave a fleet report");
  return run.report;
}

/**
 * Plans and executes a validated run with Deno's own effects. A stdio server's stderr with
 * `tail` or `inherit` goes to this process's stderr, masked and escaped, never as it is.
 */
async function execute(request: RunRequest, signal?: AbortSignal): Promise<RunOutcome> {
  const effects = denoRunEffects();
  const plan = await planRun(request, effects);
  const encoder = new TextEncoder();
  const words = new ServerStderrWriter({
    servers: plan.servers.flatMap((server) =>
      "request" in server ? [{ server: server.name, target: server.request.target }] : []
    ),
    masked: passedValues(plan),
    write: async (text) => {
      const bytes = encoder.encode(text);
      for (let written = 0; written < bytes.length;) {
        written += await Deno.stderr.write(bytes.subarray(written));
      }
    },
  });
  const run = await executeRun(
    plan,
    (target, version, hooks) => effects.openTransport(target, version, hooks),
    { signal, observe: words.observe, stderrEvents: words.heard },
  );
  await words.finish(
    run.kind === "server"
      ? [{ name: run.report.server, outcomes: run.report.profiles }]
      : run.kind === "fleet"
      ? run.fleet.servers.flatMap((server) =>
        server.checked ? [{ name: server.name, outcomes: server.report.profiles }] : []
      )
      : [],
  );
  return run;
}

/** What {@linkcode runConfig} takes: a fleet as given, and a signal that aborts it. */
export interface RunConfigOptions extends FleetInput {
  /** Aborts discovery: every connection is closed and the run ends incomplete. */
  readonly signal?: AbortSignal;
}

/**
 * Reads a client's config file (Claude, Cursor, VS Code, Windsurf, Codex, Gemini, Zed, ...),
 * discovers every selected server like `mcpeval guidance --config` and returns the validated
 * fleet report. Invalid options throw {@linkcode RequestError}; a file that cannot be used, a
 * selection that names nothing or a permission this process lacks (config, env files,
 * variables, server commands, endpoints) throws {@linkcode RunError}, all before anything
 * starts. A server whose command cannot be started is its `spawn-failed` entry.
 *
 * @example
 * ```ts
 * const fleet = await runConfig({
 *   config: ".mcp.json",
 *   requiredTools: ["memory:read_graph"],
 *   profiles: ["none", "all"],
 * });
 * console.log(fleet.passed, fleet.servers.map((server) => server.name));
 * ```
 */
export async function runConfig(options: RunConfigOptions): Promise<FleetReport> {
  const { signal, ...input } = options;
  // A fleet even when `config` is missing: the validator then names it.
  const run = await execute(validateRun({ ...input, config: input.config }), signal);
  if (run.kind !== "fleet") throw new Error("a config run gave a single-server report");
  return run.fleet;
}
