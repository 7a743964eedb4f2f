/**
 * The report's TypeScript types, spelled out for the public API. Each is generic in the
 * vocabulary of its ids ({@linkcode ReportIds}): by default the ids this version writes
 * ({@linkcode KnownIds}); `GuidanceReport<ReportIds>` is a report read, whose ids may be a later
 * version's (SPEC 10). `schema.ts` proves at compile time that its zod schema infers exactly the
 * types of a report read, so the two cannot drift.
 *
 * @module
 */
import type { FILTERED_REQUIRED_HINT, FindingKind, RULES } from "../analysis/rules.ts";
import type {
  DetailCause,
  INCOMPLETE_HINTS,
  IncompleteReason,
  SignalName,
} from "../protocol/incomplete.ts";
import type { RuleKindId } from "../clients/rules/registry.ts";
import type { ToolFilterRuleId } from "../analysis/tool_filters.ts";
import type { ObservedRule } from "../analysis/observed.ts";
import type { ConfigField, NOT_CHECKED_HINTS, NotCheckedReason } from "../config_facts.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { AUTO, ProtocolVersion } from "../protocol/versions.ts";

/**
 * The vocabulary of a report's ids, each a pattern in the schema: any id a report read may hold,
 * a later version's included, which a reader keeps without interpreting it. {@linkcode KnownIds}
 * narrows each to the values this version writes.
 */
export interface ReportIds {
  /** A profile label: one of the five, `client:NAME`, or a later version's form. */
  readonly profile: string;
  /** A protocol revision, by its date. */
  readonly revision: string;
  /** How the server was reached. */
  readonly transport: string;
  /** What counts as a reference. */
  readonly referenceDetection: string;
  /** Why a profile's discovery is incomplete. */
  readonly reason: string;
  /** The hint of an incomplete reason. */
  readonly reasonHint: string;
  /** A cause of an incomplete profile, in mcpeval's words. */
  readonly cause: string;
  /** A signal that ended a server process. */
  readonly signal: string;
  /** Each finding kind's hint. */
  readonly findingHints: { readonly [K in FindingKind]: string };
  /** A client rule kind's id. */
  readonly clientRule: string;
  /** A config file's tool filter. */
  readonly filterRule: string;
  /** The hint of a required tool that a config file's tool filter hides. */
  readonly filteredRequiredHint: string;
  /** A client rule's whole-server effect. */
  readonly effect: string;
  /** A finding's state against the baseline. */
  readonly baselineState: string;
  /** Why a profile was not compared with the baseline. */
  readonly notCompared: string;
  /** How a client profile's references are read from its instructions. */
  readonly referenceReading: string;
  /** Whether a client shows its model only tool names behind a search tool. */
  readonly deferral: string;
  /** A finding of a kind outside the known ones (none in what this version writes). */
  readonly otherFinding: UnknownFindingReport;
  /** A resolved finding of a kind outside the known ones. */
  readonly otherResolved: Omit<UnknownFindingReport, "baseline_state">;
  /** Why a configured server was not checked. */
  readonly notChecked: string;
  /** The hint of a not-checked reason. */
  readonly notCheckedHint: string;
  /** The config field an `invalid-entry` names. */
  readonly configField: string;
}

/** The ids this version writes: each of {@linkcode ReportIds} as the union of its values. */
export interface KnownIds extends ReportIds {
  /** One of the five, or `client:NAME`. */
  readonly profile: ProfileLabel;
  /** A revision this version speaks. */
  readonly revision: ProtocolVersion;
  /** stdio or Streamable HTTP. */
  readonly transport: "stdio" | "streamable-http";
  /** Known tools, or every identifier (`--unknown-references`). */
  readonly referenceDetection: "inline-code-known-tools" | "inline-code-identifiers";
  /** {@linkcode IncompleteReason}. */
  readonly reason: IncompleteReason;
  /** {@linkcode INCOMPLETE_HINTS}. */
  readonly reasonHint: typeof INCOMPLETE_HINTS[IncompleteReason];
  /** {@linkcode DetailCause}. */
  readonly cause: DetailCause;
  /** {@linkcode SignalName}. */
  readonly signal: SignalName;
  /** The hints of {@linkcode RULES}. */
  readonly findingHints: { readonly [K in FindingKind]: typeof RULES[K]["hint"] };
  /** {@linkcode RuleKindId}, or `observed` (an observed profile's model did not receive it). */
  readonly clientRule: RuleKindId | ObservedRule;
  /** {@linkcode ToolFilterRuleId}. */
  readonly filterRule: ToolFilterRuleId;
  /** {@linkcode FILTERED_REQUIRED_HINT}. */
  readonly filteredRequiredHint: typeof FILTERED_REQUIRED_HINT;
  /** The effects that hide every tool of the server. */
  readonly effect: "drop-server" | "reject-request" | "refuse-server";
  /** New or unchanged. */
  readonly baselineState: BaselineState;
  /** The profile's discovery did not complete now, or the baseline did not select it. */
  readonly notCompared: "incomplete" | "not-in-baseline";
  /** As its client shows them, none (not shown), or as given (not known). */
  readonly referenceReading: "as-shown" | "not-shown" | "as-given";
  /** Every tool deferred by default, none, or some. */
  readonly deferral: "all" | "none" | "some";
  /** None: this version writes only the kinds it knows. */
  readonly otherFinding: never;
  /** None. */
  readonly otherResolved: never;
  /** {@linkcode NotCheckedReason}. */
  readonly notChecked: NotCheckedReason;
  /** {@linkcode NOT_CHECKED_HINTS}. */
  readonly notCheckedHint: typeof NOT_CHECKED_HINTS[NotCheckedReason];
  /** {@linkcode ConfigField}. */
  readonly configField: ConfigField;
}

/**
 * A finding of a kind this version does not know, as a report read holds it: kept, shown by
 * its id with a fixed phrase, never interpreted. Its fields are those the known kinds have.
 */
export interface UnknownFindingReport {
  /** The finding kind: none of {@linkcode RULES}. */
  kind: string;
  /** The profile it concerns. */
  profile: string;
  /** The tool (a name, or a client profile's fixed phrase for an invalid one). */
  tool: string;
  /** The profiles whose models see the tool. */
  available_in: string[];
  /** A rule id, when its kind has one. */
  rule?: string;
  /** An effect, when its kind has one. */
  effect?: string;
  /** An observed profile, when its kind names one. */
  observed_profile?: string;
  /** A suggested tool name, when its kind has one. */
  suggestion?: string;
  /** A cut, when its kind has one. */
  cut?: number;
  /** Its kind's hint, as the report's writer worded it. */
  hint: string;
  /** With `--baseline`: its state against the baseline. */
  baseline_state?: string;
}

/** Why a profile is incomplete, with its fixed hint. */
export interface IncompleteReport<V extends ReportIds = KnownIds> {
  /** Why discovery stopped. */
  reason: V["reason"];
  /** The fixed hint of `reason` ({@linkcode INCOMPLETE_HINTS}). */
  hint: V["reasonHint"];
  /** The HTTP status behind an `http-status` reason. */
  http_status?: number;
  /**
   * With `protocol-version-mismatch`: the known revision the server answered or offered (absent
   * when it named none of them).
   */
  server_protocol_version?: V["revision"];
  /** With `transport-lost` and `http-status`: the cause in mcpeval's words, when it is known. */
  detail?: IncompleteDetailReport<V>;
}

/** The cause of an incomplete profile: a fixed phrase id and the numbers its phrase needs. */
export interface IncompleteDetailReport<V extends ReportIds = KnownIds> {
  /** A fixed phrase id (`DETAIL_PHRASES`). */
  cause: V["cause"];
  /** The server process's exit status (`exited-before-initialize`, `exited-after-initialize`). */
  exit_code?: number;
  /** The signal that ended the server process (`signal-before-initialize`, ...). */
  signal?: V["signal"];
  /** `malformed-entry`: the entry's name, when it is a valid tool name. */
  tool?: string;
}

/** A profile whose discovery completed. */
export interface CompleteProfileReport<V extends ReportIds = KnownIds> {
  /** The client capability profile: one of the five, or `client:NAME` for a client preset. */
  profile: V["profile"];
  /** For a client preset's profile: the preset (absent for the five standard profiles). */
  client?: ClientReport<V>;
  /** For an observed profile (`--observe`): the real client and what its model received. */
  observed?: ObservedReport<V>;
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
  protocol_version?: V["revision"];
}

/** A profile whose discovery did not complete. */
export interface IncompleteProfileReport<V extends ReportIds = KnownIds> {
  /** The client capability profile: one of the five, or `client:NAME` for a client preset. */
  profile: V["profile"];
  /** For a client preset's profile: the preset (absent for the five standard profiles). */
  client?: ClientReport<V>;
  /** For an observed profile (`--observe`): the real client and what its model received. */
  observed?: ObservedReport<V>;
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
  incomplete: IncompleteReport<V>;
  /**
   * With `--protocol-version auto`, or for a client preset that negotiates like its client:
   * the revision the profile negotiated (absent when the opening settled on none).
   */
  protocol_version?: V["revision"];
}

/** The client preset a `client:NAME` profile impersonated. */
export interface ClientReport<V extends ReportIds = KnownIds> {
  /** The preset's name. */
  name: string;
  /** The client's version the preset is of (absent: a hand-written preset of no known version). */
  version?: string;
  /** The `clientInfo` it sent. */
  client_info: { name: string; version: string };
  /** Whether that client shows server instructions to its model (null: not known). */
  instructions_shown: boolean | null;
  /**
   * Added in 0.3.0: how the profile's references are read (SPEC 25): `as-shown`, from the
   * instructions as the client shows them (cut where `instructions_cut` says); `not-shown`, none,
   * since the client shows its model no instructions; `as-given`, from the whole instructions,
   * since how the client shows them is not known.
   */
  references?: V["referenceReading"];
  /**
   * Added in 0.3.0, with a client that shows instructions and whose cut was observed: the most
   * characters of each server's instructions it keeps (null: it keeps them whole).
   */
  instructions_cut?: number | null;
  /**
   * Added in 0.3.0, where observed: whether the client, with its defaults, shows its model only
   * tool names behind a search tool (`all`, `none`, `some`): a fact, never a finding (a deferred
   * tool is reachable).
   */
  deferral?: V["deferral"];
}

/**
 * The real client of an `observed:NAME@VERSION` profile (`--observe`), run headless against the
 * discovery-only proxy: what it sent to open the server and what reached its model. Numbers and
 * validated names only, never anything the client printed.
 */
export interface ObservedReport<V extends ReportIds = KnownIds> {
  /** The lab's name for the client. */
  client: string;
  /** The version installed and run. */
  version: string;
  /** How it opened the server: `initialize`, `server/discover`, or null (it never did). */
  opening: "initialize" | "server/discover" | null;
  /** The revision its opening asked for, when it is a revision's date; else null. */
  protocol_version: V["revision"] | null;
  /** The client capabilities it declared, as sorted paths (`elicitation`, `elicitation.form`). */
  capabilities: string[];
  /** The `clientInfo` it sent, when both are printable ASCII; else null. */
  client_info: { name: string; version: string } | null;
  /** How many requests reached the stand-in for its model API. */
  model_requests: number;
  /** How many of the listed tools its model received; null when the profile is incomplete. */
  tools_received: number | null;
  /** How many characters the server's instructions have; null when there are none (or incomplete). */
  instructions_chars: number | null;
  /**
   * How many of those characters, from the first, reached its model verbatim (0: none); null
   * when there are no instructions (or the profile is incomplete).
   */
  instructions_shown_chars: number | null;
}

/** One profile's entry in a guidance report. */
export type ProfileReport<V extends ReportIds = KnownIds> =
  | CompleteProfileReport<V>
  | IncompleteProfileReport<V>;

/**
 * With `--baseline` only: `unchanged` when the baseline has the same finding (kind, profile and
 * tool), else `new`.
 */
export type BaselineState = "new" | "unchanged";

/** A tool referenced by a profile's instructions that its catalog does not list. */
export interface ReferencedCandidateReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "referenced-tool-unavailable";
  /** The profile whose instructions name the tool. */
  profile: V["profile"];
  /** The tool name, as written in an inline code span. */
  tool: string;
  /** The selected profiles whose models see the tool, in report order; never empty. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["referenced-tool-unavailable"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/** A listed tool that a client preset's own rules hide from its model (`--client`). */
export interface UnreachableCandidateReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "tool-unreachable-in-client";
  /** The client preset's profile. */
  profile: V["profile"];
  /**
   * The tool its server listed; a name that is not a valid tool identifier is never shown:
   * `(tool #N: name not a valid tool identifier)`, N its position in the catalog (1 = first).
   */
  tool: string;
  /** The client rule that hides it. */
  rule: V["clientRule"];
  /** A whole-server effect: every tool of the server is hidden, reported once on this tool. */
  effect?: V["effect"];
  /** The selected profiles whose models see the tool, in report order; may be empty. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["tool-unreachable-in-client"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/** A catalog over a client's tool cap whose effect is `warn`: nothing hidden (`--client`). */
export interface CapExceededCandidateReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "tool-cap-exceeded-in-client";
  /** The client preset's profile. */
  profile: V["profile"];
  /** The first tool past the cap, in listing order. */
  tool: string;
  /** The cap rule. */
  rule: V["clientRule"];
  /** The selected profiles whose models see the tool, in report order. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["tool-cap-exceeded-in-client"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/** A fleet: a tool the instructions name that the config file's own tool filter hides. */
export interface DisabledInConfigCandidateReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "tool-disabled-in-config";
  /** The profile whose instructions name the tool. */
  profile: V["profile"];
  /** The tool, listed by the server and hidden by the filter. */
  tool: string;
  /** The config file's filter that hides it (a fixed id, never the file's text). */
  rule: V["filterRule"];
  /** Always empty: the filter applies in every profile of the server. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["tool-disabled-in-config"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/**
 * A tool on which a client preset (`--client`) and the real client observed in the same run
 * (`--observe`) disagree: the preset hides it and the model received it, or the other way round.
 */
export interface PresetDisagreesCandidateReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "preset-disagrees-with-client";
  /** The client preset's profile. */
  profile: V["profile"];
  /** The tool (a name, or a client profile's fixed phrase for an invalid one). */
  tool: string;
  /** The observed profile of the same client. */
  observed_profile: V["profile"];
  /**
   * The preset's rule that hides the tool, which the observed client's model received; absent:
   * the preset sends the tool, and the observed client's model did not receive it.
   */
  rule?: V["clientRule"];
  /** The selected profiles whose models see the tool, in report order; may be empty. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["preset-disagrees-with-client"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/** A backticked identifier that no selected catalog lists (`--unknown-references`). */
export interface UnknownReferenceReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "referenced-tool-unknown";
  /** The profile whose instructions name it. */
  profile: V["profile"];
  /** The identifier, as written in an inline code span. */
  tool: string;
  /** Always empty: no selected catalog lists it. */
  available_in: V["profile"][];
  /** The closest listed tool name, when one is within two edits. */
  suggestion?: string;
  /** The rule's fixed hint. */
  hint: V["findingHints"]["referenced-tool-unknown"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/**
 * Added in 0.3.0: a known tool that a client profile's instructions name only past the cut its
 * client makes (or in a code span the cut splits), so its model never sees the reference.
 */
export interface ReferenceCutCandidateReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "reference-cut-in-client";
  /** The client profile whose client cuts the instructions. */
  profile: V["profile"];
  /** The tool the whole instructions name, in an inline code span. */
  tool: string;
  /** How many characters of each server's instructions the client keeps. */
  cut: number;
  /** The selected profiles whose models see the tool, in report order; may be empty. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["reference-cut-in-client"];
  /** With `--baseline` only: whether the baseline has this candidate too. */
  baseline_state?: V["baselineState"];
}

/** A review candidate: it never fails the run. */
export type CandidateReport<V extends ReportIds = KnownIds> =
  | ReferencedCandidateReport<V>
  | ReferenceCutCandidateReport<V>
  | UnreachableCandidateReport<V>
  | CapExceededCandidateReport<V>
  | DisabledInConfigCandidateReport<V>
  | PresetDisagreesCandidateReport<V>
  | UnknownReferenceReport<V>
  | V["otherFinding"];

/** A required tool missing from a profile's catalog. */
export interface RequiredToolDefectReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "required-tool-unavailable";
  /** The profile whose catalog lacks the tool (or whose client hides it). */
  profile: V["profile"];
  /** The required tool (`--require-tool`, or `requiredTools` in the library). */
  tool: string;
  /** The selected profiles whose models see the tool, in report order; may be empty. */
  available_in: V["profile"][];
  /**
   * Added in 0.3.0, a fleet only: the config file's own tool filter that hides the tool,
   * which the profile lists, in every profile of the server (a fixed id, never the file's text);
   * absent when the catalog lacks the tool.
   */
  rule?: V["filterRule"];
  /** The rule's fixed hint; with `rule`, {@linkcode FILTERED_REQUIRED_HINT}. */
  hint: V["findingHints"]["required-tool-unavailable"] | V["filteredRequiredHint"];
  /** With `--baseline` only: whether the baseline has this defect too. */
  baseline_state?: V["baselineState"];
}

/** With `--require-baseline-tools`: a tool of a profile's baseline catalog that it lost. */
export interface BaselineToolDefectReport<V extends ReportIds = KnownIds> {
  /** The finding kind (a rule of {@linkcode RULES}). */
  kind: "baseline-tool-unavailable";
  /** The profile whose catalog no longer lists the tool. */
  profile: V["profile"];
  /** The tool its baseline catalog listed. */
  tool: string;
  /** The selected profiles whose models see the tool now, in report order; may be empty. */
  available_in: V["profile"][];
  /** The rule's fixed hint. */
  hint: V["findingHints"]["baseline-tool-unavailable"];
  /** Whether the baseline has this defect too (only when it was itself compared). */
  baseline_state?: V["baselineState"];
}

/** A finding that fails the run. */
export type DefectReport<V extends ReportIds = KnownIds> =
  | RequiredToolDefectReport<V>
  | BaselineToolDefectReport<V>
  | V["otherFinding"];

/** A finding of the baseline that the run no longer produces, as the baseline recorded it. */
export type ResolvedFindingReport<V extends ReportIds = KnownIds> =
  | Omit<ReferencedCandidateReport<V>, "baseline_state">
  | Omit<ReferenceCutCandidateReport<V>, "baseline_state">
  | Omit<UnreachableCandidateReport<V>, "baseline_state">
  | Omit<CapExceededCandidateReport<V>, "baseline_state">
  | Omit<DisabledInConfigCandidateReport<V>, "baseline_state">
  | Omit<PresetDisagreesCandidateReport<V>, "baseline_state">
  | Omit<UnknownReferenceReport<V>, "baseline_state">
  | Omit<RequiredToolDefectReport<V>, "baseline_state">
  | Omit<BaselineToolDefectReport<V>, "baseline_state">
  | V["otherResolved"];

/** A profile compared with its baseline catalog. */
export interface ComparedProfileDrift<V extends ReportIds = KnownIds> {
  /** The profile. */
  profile: V["profile"];
  /** Always true here. */
  compared: true;
  /** Tools this profile lists now that its baseline catalog did not, sorted. */
  added: string[];
  /** Tools of this profile's baseline catalog that it no longer lists, sorted. */
  removed: string[];
}

/** A profile that was not compared with the baseline. */
export interface NotComparedProfileDrift<V extends ReportIds = KnownIds> {
  /** The profile. */
  profile: V["profile"];
  /** Always false here. */
  compared: false;
  /**
   * `incomplete`: this profile's discovery did not complete now; `not-in-baseline`: the baseline
   * did not select this profile.
   */
  reason: V["notCompared"];
}

/** One profile's catalog against its baseline catalog. */
export type ProfileDrift<V extends ReportIds = KnownIds> =
  | ComparedProfileDrift<V>
  | NotComparedProfileDrift<V>;

/** With `--baseline` only: the run compared with an earlier report of the same server. */
export interface BaselineReport<V extends ReportIds = KnownIds> {
  /** Whether `--require-baseline-tools` made every baseline tool required in its profile. */
  require_baseline_tools: boolean;
  /** One entry per selected profile, in report order: its catalog drift. */
  profiles: ProfileDrift<V>[];
  /**
   * Findings of the baseline that this run no longer produces, in profiles it compared, as the
   * baseline recorded them; empty when the run is incomplete.
   */
  resolved: ResolvedFindingReport<V>[];
  /** How many more resolved findings there are than the listed ones; absent when all are. */
  resolved_not_listed?: number;
  /** Only when the profiles run are not the baseline's. */
  profiles_differ?: ProfilesDifferReport<V>;
}

/** The profiles run are not the baseline's: what was not compared. */
export interface ProfilesDifferReport<V extends ReportIds = KnownIds> {
  /** The baseline's profiles that this run did not select (a later version's labels kept). */
  not_run: string[];
  /** The profiles of this run that the baseline did not select. */
  not_in_baseline: V["profile"][];
  /**
   * How many findings of the baseline this run neither produces nor calls resolved, because a
   * profile they concern (their own, or one that listed the tool) was not compared.
   */
  not_judged: number;
}

/** The identifier of the guidance report's format. */
export const REPORT_SCHEMA_ID = "mcpeval.guidance-report/v1";

/** The `mcpeval.guidance-report/v1` report. */
export interface GuidanceReport<V extends ReportIds = KnownIds> {
  /** The report format's identifier. */
  schema: "mcpeval.guidance-report/v1";
  /** The version of mcpeval that wrote the report. */
  mcpeval_version: string;
  /** The server label the run was given (`--server`, or `server` in the library). */
  server: string;
  /** How the server was reached. */
  transport: V["transport"];
  /**
   * The MCP revision discovery spoke and required, or `auto` (`--protocol-version auto`: each
   * profile negotiated, and records its revision).
   */
  protocol_version: V["revision"] | typeof AUTO;
  /**
   * What counts as a reference: a CommonMark inline code span that equals a tool name in some
   * selected catalog; with `--unknown-references`, every inline code span that is a valid tool
   * identifier.
   */
  reference_detection: V["referenceDetection"];
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
  profiles: ProfileReport<V>[];
  /** Review candidates; they never fail the run. Empty when the run is incomplete. */
  candidates: CandidateReport<V>[];
  /**
   * Missing required tools (and, with `--require-baseline-tools`, missing baseline tools); any
   * one fails the run. Empty when the run is incomplete.
   */
  defects: DefectReport<V>[];
  /** Whether every profile completed discovery. */
  complete: boolean;
  /** True with no defect, false with one, null when the run is incomplete. */
  passed: boolean | null;
  /** With `--baseline` only: the run compared with an earlier report of the same server. */
  baseline?: BaselineReport<V>;
}
