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
import { validateComparison } from "./src/comparison.ts";
import { discoverAll } from "./src/discovery/discover.ts";
import { buildReport } from "./src/report/build.ts";
import type { GuidanceReport } from "./src/report/schema.ts";
import { type GuidanceInput, validateDiscovery } from "./src/request.ts";
import { openTransport } from "./src/transport/open.ts";

export type { ClientProfile, Profile, ProfileLabel } from "./src/profiles.ts";
export { PROFILES } from "./src/profiles.ts";
export { PROTOCOL_VERSIONS, type ProtocolVersion } from "./src/protocol/versions.ts";
export { type FindingClass, type FindingKind, type Rule, RULES } from "./src/analysis/rules.ts";
export {
  DETAIL_PHRASES,
  type DetailCause,
  INCOMPLETE_HINTS,
  type IncompleteReason,
  type SignalName,
  SIGNALS,
} from "./src/protocol/incomplete.ts";
export {
  type DiscoveryRequest,
  type FieldLabels,
  type GuidanceInput,
  type HttpTargetInput,
  RequestError,
  type RequestField,
  type StdioTargetInput,
  type TargetInput,
  validateDiscovery,
} from "./src/request.ts";
export {
  type BaselineDocument,
  comparisonIn,
  type ComparisonRequest,
  validateBaselineDocument,
  validateComparison,
} from "./src/comparison.ts";
export type { Baseline } from "./src/analysis/baseline.ts";
export type { Finding } from "./src/analysis/findings.ts";
export type { HttpTarget, ServerStderr, StdioTarget, Target } from "./src/target.ts";
export { SpawnError } from "./src/transport/stdio.ts";
export {
  type BaselineReport,
  type BaselineState,
  type BaselineToolDefectReport,
  type CandidateReport,
  type ClientReport,
  type ComparedProfileDrift,
  type CompleteProfileReport,
  type DefectReport,
  type GuidanceReport,
  GuidanceReportSchema,
  type IncompleteDetailReport,
  type IncompleteProfileReport,
  type IncompleteReport,
  type NotComparedProfileDrift,
  type ProfileDrift,
  type ProfileReport,
  type ReferencedCandidateReport,
  type ReportIssue,
  reportJsonSchema,
  type ReportParseResult,
  type ReportSchema,
  type RequiredToolDefectReport,
  type ResolvedFindingReport,
  type UnknownReferenceReport,
  type UnreachableCandidateReport,
} from "./src/report/schema.ts";
export {
  type CheckedServer,
  fleetJsonSchema,
  type FleetParseResult,
  type FleetReport,
  FleetReportSchema,
  type FleetSchema,
  type FleetServer,
  type NotCheckedServer,
} from "./src/report/fleet/schema.ts";
export {
  CONFIG_FIELDS,
  CONFIG_FORMATS,
  type ConfigField,
  type ConfigFormat,
  NOT_CHECKED_HINTS,
  NOT_CHECKED_REASONS,
  type NotCheckedReason,
} from "./src/config_facts.ts";
export {
  CLIENT_RULE_IDS,
  type ClientPreset,
  type ClientRule,
  type ClientRuleId,
  parsePresets,
} from "./src/clients/presets.ts";
export { renderGithub, renderGithubSummary } from "./src/report/github.ts";
export { renderJson } from "./src/report/json.ts";
export { renderJunit } from "./src/report/junit.ts";
export { renderSarif, type SarifLocation, type SarifOptions } from "./src/report/sarif.ts";
export { renderText, TEXT_WIDTH, type TextStyle } from "./src/report/text.ts";

/** What {@linkcode runGuidance} takes: a run as given, and a signal that aborts it. */
export interface RunGuidanceOptions extends GuidanceInput {
  /** Aborts discovery: every connection is closed and the run ends incomplete. */
  readonly signal?: AbortSignal;
}

/**
 * Validates `options`, runs discovery for the selected profiles and returns the validated
 * report. Invalid options (a `baseline` that is not a complete report of the same server
 * included) throw {@linkcode RequestError} before anything starts; a command that cannot be
 * started throws {@linkcode SpawnError}.
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
  const request = validateDiscovery(options);
  const comparison = validateComparison(options, request.server);
  return buildReport(
    { ...request, ...comparison },
    await discoverAll(request, (target, version) => openTransport(target, version), options.signal),
  );
}
