/**
 * The report's TypeScript types, spelled out for the public API. `schema.ts` proves at compile
 * time that its zod schema infers exactly these types, so the two cannot drift.
 *
 * @module
 */
import type { FILTERED_REQUIRED_HINT, RULES } from "../analysis/rules.ts";
import type {
  DetailCause,
  INCOMPLETE_HINTS,
  IncompleteReason,
  SignalName,
} from "../protocol/incomplete.ts";
import type { ClientRuleId } from "../clients/presets.ts";
import type { ToolFilterRuleId } from "../analysis/tool_filters.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { ProtocolSetting, ProtocolVersion } from "../protocol/versions.ts";

/** Why a profile is incomplete, with its fixed hint. */
export interface IncompleteReport {
  /** Why discovery stopped. */
  reason: IncompleteReason;
  /** The fixed hint of `reason` ({@linkcode INCOMPLETE_HINTS}). */
  hint: typeof INCOMPLETE_HINTS[IncompleteReason];
  /** The HTTP status behind an `http-status` reason. */
  http_status?: number;
  /**
   * With `protocol-version-mismatch`: the known revision the server answered or offered (absent
   * when it named none of them).
   */
  server_protocol_version?: ProtocolVersion;
  /** With `transport-lost` and `http-status`: the cause in mcpeval's words, when it is known. */
  detail?: IncompleteDetailReport;
}

/** The cause of an incomplete profile: a fixed phrase id and the numbers its phrase needs. */
export interface IncompleteDetailReport {
  /** A fixed phrase id (`DETAIL_PHRASES`). */
  cause: DetailCause;
  /** The server process's exit status (`exited-before-initialize`, `exited-after-initialize`). */
  exit_code?: number;
  /** The signal that ended the server process (`signal-before-initialize`, ...). */
  signal?: SignalName;
  /** `malformed-entry`: the entry's name, when it is a valid tool name. */
  tool?: string;
}

/** A profile whose discovery completed. */
export interface CompleteProfileReport {
  /** The client capability profile: one of the five, or `client:NAME` for a client preset. */
  profile: ProfileLabel;
  /** For a client preset's profile: the preset (absent for the five standard profiles). */
  client?: ClientReport;
  /** Always true here. */
  complete: true;
  /** Whether the InitializeResult carried `instructions`. */
  instructions_present: boolean;
  /** How many tools its catalog lists (the length of `tools`). */
  tool_count: number;
  /** Its catalog, sorted. */
  tools: string[];
  /** How many `tools/list` pages were read; 0 when the server declares no tools capability. */
  pages: number;
  /** Always null here. */
  incomplete: null;
  /**
   * With `--protocol-version auto`, or for a client preset that negotiates like its client:
   * the revision the profile negotiated (absent when the opening settled on none).
   */
  protocol_version?: ProtocolVersion;
}

/** A profile whose discovery did not complete. */
export interface IncompleteProfileReport {
  /** The client capability profile: one of the five, or `client:NAME` for a client preset. */
  profile: ProfileLabel;
  /** For a client preset's profile: the preset (absent for the five standard profiles). */
  client?: ClientReport;
  /** Always false here. */
  complete: false;
  /** Whether the InitializeResult carried `instructions`; null if initialization did not finish. */
  instructions_present: boolean | null;
  /** Always null: a partial catalog is not reported. */
  tool_count: null;
  /** Always null: a partial catalog is not reported. */
  tools: null;
  /** How many `tools/list` pages were accepted before discovery stopped. */
  pages: number;
  /** Why discovery stopped. */
  incomplete: IncompleteReport;
  /**
   * With `--protocol-version auto`, or for a client preset that negotiates like its client:
   * the revision the profile negotiated (absent when the opening settled on none).
   */
  protocol_version?: ProtocolVersion;
}

/** The client preset a `client:NAME` profile impersonated. */
export interface ClientReport {
  /** The preset's name. */
  name: string;
  /** The `clientInfo` it sent. */
  client_info: { name: string; version: string };
  /** Whether that client shows server instructions to its model (null: not known). */
  instructions_shown: boolean | null;
}

/** One profile's entry in a guidance report. */
export type ProfileReport = CompleteProfileReport | IncompleteProfileReport;

/**
 * With `--baseline` only: `unchanged` when the baseline has the same finding (kind, profile and
 * tool), else `new`.
 */
export type BaselineState = "new" | "unchanged";

/** A tool referenced by a profile's instructions that its catalog does not list. */
export interface ReferencedCandidateReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "referenced-tool-unavailable";
  /** The profile whose instructions name the tool. */
  profile: ProfileLabel;
  /** The tool name, as written in an inline code span. */
  tool: string;
  /** The selected profiles whose models see the tool, in report order; never empty. */
  available_in: ProfileLabel[];
  /** The rule's fixed hint. */
  hint: typeof RULES["referenced-tool-unavailable"]["hint"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: BaselineState;
}

/** A listed tool that a client preset's own rules hide from its model (`--client`). */
export interface UnreachableCandidateReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "tool-unreachable-in-client";
  /** The client preset's profile. */
  profile: ProfileLabel;
  /**
   * The tool its server listed; a name that is not a valid tool identifier is never shown:
   * `(tool #N: name not a valid tool identifier)`, N its position in the catalog (1 = first).
   */
  tool: string;
  /** The client rule that hides it. */
  rule: ClientRuleId;
  /** A whole-server effect: every tool of the server is hidden, reported once on this tool. */
  effect?: "drop-server" | "reject-request" | "refuse-server";
  /** The selected profiles whose models see the tool, in report order; may be empty. */
  available_in: ProfileLabel[];
  /** The rule's fixed hint. */
  hint: typeof RULES["tool-unreachable-in-client"]["hint"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: BaselineState;
}

/** A catalog over a client's tool cap whose effect is `warn`: nothing hidden (`--client`). */
export interface CapExceededCandidateReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "tool-cap-exceeded-in-client";
  /** The client preset's profile. */
  profile: ProfileLabel;
  /** The first tool past the cap, in listing order. */
  tool: string;
  /** The cap rule. */
  rule: ClientRuleId;
  /** The selected profiles whose models see the tool, in report order. */
  available_in: ProfileLabel[];
  /** The rule's fixed hint. */
  hint: typeof RULES["tool-cap-exceeded-in-client"]["hint"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: BaselineState;
}

/** A config run: a tool the instructions name that the config file's own tool filter hides. */
export interface DisabledInConfigCandidateReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "tool-disabled-in-config";
  /** The profile whose instructions name the tool. */
  profile: ProfileLabel;
  /** The tool, listed by the server and hidden by the filter. */
  tool: string;
  /** The config file's filter that hides it (a fixed id, never the file's text). */
  rule: ToolFilterRuleId;
  /** Always empty: the filter applies in every profile of the server. */
  available_in: ProfileLabel[];
  /** The rule's fixed hint. */
  hint: typeof RULES["tool-disabled-in-config"]["hint"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: BaselineState;
}

/** A backticked identifier that no selected catalog lists (`--unknown-references`). */
export interface UnknownReferenceReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "referenced-tool-unknown";
  /** The profile whose instructions name it. */
  profile: ProfileLabel;
  /** The identifier, as written in an inline code span. */
  tool: string;
  /** Always empty: no selected catalog lists it. */
  available_in: ProfileLabel[];
  /** The closest listed tool name, when one is within two edits. */
  suggestion?: string;
  /** The rule's fixed hint. */
  hint: typeof RULES["referenced-tool-unknown"]["hint"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: BaselineState;
}

/** A review candidate: it never fails the run. */
export type CandidateReport =
  | ReferencedCandidateReport
  | UnreachableCandidateReport
  | CapExceededCandidateReport
  | DisabledInConfigCandidateReport
  | UnknownReferenceReport;

/** A required tool missing from a profile's catalog. */
export interface RequiredToolDefectReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "required-tool-unavailable";
  /** The profile whose catalog lacks the tool (or whose client hides it). */
  profile: ProfileLabel;
  /** The required tool (`--require-tool`, or `requiredTools` in the library). */
  tool: string;
  /** The selected profiles whose models see the tool, in report order; may be empty. */
  available_in: ProfileLabel[];
  /**
   * Added in 0.3.0, a config run only: the config file's own tool filter that hides the tool,
   * which the profile lists, in every profile of the server (a fixed id, never the file's text);
   * absent when the catalog lacks the tool.
   */
  rule?: ToolFilterRuleId;
  /** The rule's fixed hint; with `rule`, {@linkcode FILTERED_REQUIRED_HINT}. */
  hint:
    | typeof RULES["required-tool-unavailable"]["hint"]
    | typeof FILTERED_REQUIRED_HINT;
  /** With `--baseline` only: whether the baseline has this defect too. */
  baseline_state?: BaselineState;
}

/** With `--require-baseline-tools`: a tool of a profile's baseline catalog that it lost. */
export interface BaselineToolDefectReport {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "baseline-tool-unavailable";
  /** The profile whose catalog no longer lists the tool. */
  profile: ProfileLabel;
  /** The tool its baseline catalog listed. */
  tool: string;
  /** The selected profiles whose models see the tool now, in report order; may be empty. */
  available_in: ProfileLabel[];
  /** The rule's fixed hint. */
  hint: typeof RULES["baseline-tool-unavailable"]["hint"];
  /** Whether the baseline has this defect too (only when it was itself compared). */
  baseline_state?: BaselineState;
}

/** A finding that fails the run. */
export type DefectReport = RequiredToolDefectReport | BaselineToolDefectReport;

/** A finding of the baseline that the run no longer produces, as the baseline recorded it. */
export type ResolvedFindingReport =
  | Omit<ReferencedCandidateReport, "baseline_state">
  | Omit<UnreachableCandidateReport, "baseline_state">
  | Omit<CapExceededCandidateReport, "baseline_state">
  | Omit<DisabledInConfigCandidateReport, "baseline_state">
  | Omit<UnknownReferenceReport, "baseline_state">
  | Omit<RequiredToolDefectReport, "baseline_state">
  | Omit<BaselineToolDefectReport, "baseline_state">;

/** A profile compared with its baseline catalog. */
export interface ComparedProfileDrift {
  /** The profile. */
  profile: ProfileLabel;
  /** Always true here. */
  compared: true;
  /** Tools this profile lists now that its baseline catalog did not, sorted. */
  added: string[];
  /** Tools of this profile's baseline catalog that it no longer lists, sorted. */
  removed: string[];
}

/** A profile that was not compared with the baseline. */
export interface NotComparedProfileDrift {
  /** The profile. */
  profile: ProfileLabel;
  /** Always false here. */
  compared: false;
  /**
   * `incomplete`: this profile's discovery did not complete now; `not-in-baseline`: the baseline
   * did not select this profile.
   */
  reason: "incomplete" | "not-in-baseline";
}

/** One profile's catalog against its baseline catalog. */
export type ProfileDrift = ComparedProfileDrift | NotComparedProfileDrift;

/** With `--baseline` only: the run compared with an earlier report of the same server. */
export interface BaselineReport {
  /** Whether `--require-baseline-tools` made every baseline tool required in its profile. */
  require_baseline_tools: boolean;
  /** One entry per selected profile, in report order: its catalog drift. */
  profiles: ProfileDrift[];
  /**
   * Findings of the baseline that this run no longer produces, in profiles it compared, as the
   * baseline recorded them; empty when the run is incomplete.
   */
  resolved: ResolvedFindingReport[];
  /** How many more resolved findings there are than the listed ones; absent when all are. */
  resolved_not_listed?: number;
  /** Only when the profiles run are not the baseline's. */
  profiles_differ?: ProfilesDifferReport;
}

/** The profiles run are not the baseline's: what was not compared. */
export interface ProfilesDifferReport {
  /** The baseline's profiles that this run did not select. */
  not_run: ProfileLabel[];
  /** The profiles of this run that the baseline did not select. */
  not_in_baseline: ProfileLabel[];
  /**
   * How many findings of the baseline this run neither produces nor calls resolved, because a
   * profile they concern (their own, or one that listed the tool) was not compared.
   */
  not_judged: number;
}

/** The identifier of the guidance report's format. */
export const REPORT_SCHEMA_ID = "mcpeval.guidance-report/v1";

/** The `mcpeval.guidance-report/v1` report. */
export interface GuidanceReport {
  /** The report format's identifier. */
  schema: "mcpeval.guidance-report/v1";
  /** The version of mcpeval that wrote the report. */
  mcpeval_version: string;
  /** The server label the run was given (`--server`, or `server` in the library). */
  server: string;
  /** How the server was reached. */
  transport: "stdio" | "streamable-http";
  /**
   * The MCP revision discovery spoke and required, or `auto` (`--protocol-version auto`: each
   * profile negotiated, and records its revision).
   */
  protocol_version: ProtocolSetting;
  /**
   * What counts as a reference: a CommonMark inline code span that equals a tool name in some
   * selected catalog; with `--unknown-references`, every inline code span that is a valid tool
   * identifier.
   */
  reference_detection: "inline-code-known-tools" | "inline-code-identifiers";
  /**
   * The run's `settle_ms` and `timeout_ms` (milliseconds), and the fixed bounds that shaped what
   * was observed: pages and tools per profile, `roots/list` requests per client request, and
   * bytes per incoming message.
   */
  settings: {
    settle_ms: number;
    timeout_ms: number;
    max_pages: 20;
    max_tools: 10000;
    max_roots_requests_per_client_request: 8;
    max_message_bytes: 67108864;
  };
  /** The required tools, sorted, without duplicates. */
  required_tools: string[];
  /** One entry per selected profile: the five in canonical order, then client presets. */
  profiles: ProfileReport[];
  /** Review candidates; they never fail the run. Empty when the run is incomplete. */
  candidates: CandidateReport[];
  /**
   * Missing required tools (and, with `--require-baseline-tools`, missing baseline tools); any
   * one fails the run. Empty when the run is incomplete.
   */
  defects: DefectReport[];
  /** Whether every profile completed discovery. */
  complete: boolean;
  /** True with no defect, false with one, null when the run is incomplete. */
  passed: boolean | null;
  /** With `--baseline` only: the run compared with an earlier report of the same server. */
  baseline?: BaselineReport;
}
