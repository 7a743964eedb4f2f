/**
 * The `mcpeval.guidance-report/v1` schema: the single source of the report's TypeScript type,
 * its runtime validation and the JSON Schema printed by `mcpeval schema guidance`.
 *
 * @module
 */
import type { z as Zod } from "zod";
import { z } from "zod";
import {
  FILTERED_REQUIRED_HINT,
  FINDING_KINDS,
  type FindingKind,
  RULES,
} from "../analysis/rules.ts";
import { BASELINE_STATES, NOT_COMPARED_REASONS } from "../analysis/baseline.ts";
import {
  MAX_MESSAGE_BYTES,
  MAX_PAGES,
  MAX_RESOLVED_LISTED,
  MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST,
  MAX_TOOLS,
  SETTLE_MS,
  TIMEOUT_MS,
} from "../limits.ts";
import {
  DETAIL_CAUSES,
  INCOMPLETE_HINTS,
  INCOMPLETE_REASONS,
  SIGNAL_NAME,
  SIGNALS,
} from "../protocol/incomplete.ts";
import { AUTO } from "../protocol/versions.ts";
import { CLIENT_NAME, DEFERRAL_KINDS } from "../clients/presets.ts";
import { REFERENCE_READINGS } from "../analysis/findings.ts";
import { CLIENT_VERSION } from "../clients/versions.ts";
import { WHOLE_SERVER_EFFECTS } from "../clients/rules/kind.ts";
import { PROFILE_LABEL, PROFILES } from "../profiles.ts";
import { TOOL_FILTER_RULE_IDS } from "../analysis/tool_filters.ts";
import { TRANSPORTS } from "../target.ts";
import { INVALID_NAME_KEY, SERVER_LABEL, TOOL_NAME } from "../tool_name.ts";
import { hintSchema, idSchema, otherIdSchema, patternSchema } from "./ids.ts";
import type { GuidanceReport, KnownIds, ReportIds } from "./types.ts";

export type {
  BaselineReport,
  BaselineState,
  BaselineToolDefectReport,
  CandidateReport,
  CapExceededCandidateReport,
  ClientReport,
  ComparedProfileDrift,
  CompleteProfileReport,
  DefectReport,
  DisabledInConfigCandidateReport,
  GuidanceReport,
  IncompleteDetailReport,
  IncompleteProfileReport,
  IncompleteReport,
  KnownIds,
  NotComparedProfileDrift,
  ObservedReport,
  PresetDisagreesCandidateReport,
  ProfileDrift,
  ProfileReport,
  ProfilesDifferReport,
  ReferenceCutCandidateReport,
  ReferencedCandidateReport,
  ReportIds,
  RequiredToolDefectReport,
  ResolvedFindingReport,
  UnknownFindingReport,
  UnknownReferenceReport,
  UnreachableCandidateReport,
} from "./types.ts";

/** The report's schema identifier. */
export { REPORT_SCHEMA_ID } from "./types.ts";
import { REPORT_SCHEMA_ID } from "./types.ts";

/** A profile label, once in the JSON Schema's `$defs`. */
const ProfileLabel = z.string().regex(PROFILE_LABEL).meta({
  id: "ProfileLabel",
  description:
    "A client capability profile: one of the five standard profiles (the examples), or client:NAME for a client preset. The pattern also admits client:NAME@VERSION, observed:NAME@VERSION and the labels of a later version, which a reader keeps.",
  examples: [...PROFILES],
});
const Printable = z.string().regex(/^[\x20-\x7e]{1,64}$/);
const ClientSchema = z.strictObject({
  name: z.string().regex(CLIENT_NAME),
  version: z.string().regex(CLIENT_VERSION).optional().meta({
    description:
      "The client's version the preset is of (observed presets; a client:NAME profile is the newest observed version). Absent: a hand-written preset of no known version.",
  }),
  client_info: z.strictObject({ name: Printable, version: Printable }),
  instructions_shown: z.boolean().nullable(),
  references: idSchema(
    "Added in 0.3.0: how this profile's references are read: as-shown, from the instructions as its client shows them (cut where instructions_cut says); not-shown, none (the client shows its model no instructions); as-given, from the whole instructions (how the client shows them is not known).",
    REFERENCE_READINGS,
  ).optional(),
  instructions_cut: z.int().min(1).nullable().optional().meta({
    description:
      "Added in 0.3.0, with a client that shows instructions and whose cut was observed: the most characters of each server's instructions it keeps (null: whole).",
  }),
  deferral: idSchema(
    "Added in 0.3.0, where observed: whether the client, with its defaults, shows its model only tool names behind a search tool (all, none, some); a fact, never a finding.",
    DEFERRAL_KINDS,
  ).optional(),
});
const ToolName = z.string().regex(TOOL_NAME);
const Count = z.int().min(0);

const DetailSchema = z.strictObject({
  cause: idSchema(
    "What mcpeval saw: a fixed phrase id (the phrases are in mcpeval's DETAIL_PHRASES table).",
    DETAIL_CAUSES,
  ),
  exit_code: z.int().optional().describe(
    "With exited-before-initialize or exited-after-initialize: the server process's exit status.",
  ),
  signal: patternSchema(
    SIGNAL_NAME,
    "With signal-before-initialize or signal-after-initialize: the signal that ended the server process.",
    SIGNALS,
  ).optional(),
  tool: z.string().regex(TOOL_NAME).optional().describe(
    "Added in 0.3.0, with malformed-entry: the name of the entry that breaks MCP's Tool shape, when it is a valid tool name.",
  ),
}).describe(
  "Added in 0.2.0, with transport-lost and http-status (and from 0.3.0 malformed-entry: which rule of MCP's Tool shape an entry breaks): the cause in mcpeval's words, never the server's.",
);

/**
 * A protocol revision: its date. Not an enum of the revisions this version speaks, so that a
 * reader holding this schema still accepts the reports of a version that speaks one more (and a
 * new revision changes no schema): a report read holds any date ({@linkcode ReportIds}), and
 * only what this version writes is typed as its revisions ({@linkcode KnownIds}).
 */
const RevisionSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const IncompleteSchema = z.strictObject({
  reason: idSchema("Why discovery stopped.", INCOMPLETE_REASONS),
  hint: hintSchema(
    "The reason's fixed hint (mcpeval's INCOMPLETE_HINTS table).",
    Object.values(INCOMPLETE_HINTS),
  ),
  http_status: z.int().min(100).max(599).optional(),
  server_protocol_version: RevisionSchema.optional(),
  detail: DetailSchema.optional(),
});

/** A client capability's path: its key, or `key.member` (letters, digits, `_` and `-` each). */
const CapabilityPath = z.string().regex(
  /^[A-Za-z][A-Za-z0-9_-]{0,63}(?:\.[A-Za-z][A-Za-z0-9_-]{0,63})?$/,
);

const ObservedSchema = z.strictObject({
  client: z.string().regex(CLIENT_NAME),
  version: z.string().regex(CLIENT_VERSION),
  opening: z.enum(["initialize", "server/discover"]).nullable(),
  protocol_version: RevisionSchema.nullable(),
  capabilities: z.array(CapabilityPath),
  client_info: z.strictObject({ name: Printable, version: Printable }).nullable(),
  model_requests: Count,
  tools_received: Count.nullable(),
  instructions_chars: Count.nullable(),
  instructions_shown_chars: Count.nullable(),
}).describe(
  "Added in 0.3.0, an observed profile only (--observe): the real client run against the discovery-only proxy, how it opened the server (its revision, capabilities and clientInfo), how many requests reached its model's stand-in, how many listed tools its model received, and how many characters of the instructions reached it verbatim (from the first).",
);

const NegotiatedSchema = RevisionSchema.meta({
  description:
    "With --protocol-version auto, or for a client preset that negotiates like its client: the revision this profile negotiated (absent when the opening settled on none).",
});

const CompleteProfileSchema = z.strictObject({
  profile: ProfileLabel,
  client: ClientSchema.optional(),
  observed: ObservedSchema.optional(),
  complete: z.literal(true),
  instructions_present: z.boolean(),
  tool_count: Count,
  tools: z.array(ToolName),
  pages: Count,
  incomplete: z.null(),
  protocol_version: NegotiatedSchema.optional(),
});

const IncompleteProfileSchema = z.strictObject({
  profile: ProfileLabel,
  client: ClientSchema.optional(),
  observed: ObservedSchema.optional(),
  complete: z.literal(false),
  instructions_present: z.boolean().nullable(),
  tool_count: z.null(),
  tools: z.null(),
  pages: Count,
  incomplete: IncompleteSchema,
  protocol_version: NegotiatedSchema.optional(),
});

const findingFields = <K extends FindingKind>(kind: K) => ({
  kind: z.literal(kind),
  profile: ProfileLabel,
  tool: ToolName,
  available_in: z.array(ProfileLabel),
  hint: hintSchema("The rule's fixed hint (mcpeval's RULES table).", [RULES[kind].hint]),
});

const BaselineStateSchema = idSchema(
  "With --baseline only: `unchanged` when the baseline has the same finding (kind, profile and tool), else `new`.",
  BASELINE_STATES,
);

const findingSchema = <K extends FindingKind>(kind: K) =>
  z.strictObject({ ...findingFields(kind), baseline_state: BaselineStateSchema.optional() });

const resolvedSchema = <K extends FindingKind>(kind: K) => z.strictObject(findingFields(kind));

/** A client profile's listed tool: its name, or its position when the name is not a valid one. */
const ListedTool = z.union([
  ToolName,
  z.string().regex(INVALID_NAME_KEY).describe(
    "Added in 0.3.0: a listed tool whose name is not a valid tool identifier, kept by client profiles: a fixed phrase and its position in the catalog (1 = the first listed), never the name.",
  ),
]);

/**
 * A client rule kind's id. Its known values are not listed here but in docs/client-presets.md,
 * so that a new rule kind changes no schema.
 */
const ClientRuleSchema = idSchema(
  "The client rule kind (docs/client-presets.md lists this version's kinds; a report of a later version may name another, which a reader keeps).",
);
const EffectSchema = idSchema(
  "Added in 0.3.0: the rule's effect hides every tool of the server in that client; reported once, on the tool that caused it.",
  [...WHOLE_SERVER_EFFECTS],
);

const unreachableFields = {
  tool: ListedTool,
  rule: ClientRuleSchema,
  effect: EffectSchema.optional(),
};
const capFields = { tool: ListedTool, rule: ClientRuleSchema };
const unknownFields = {
  available_in: z.array(ProfileLabel).max(0),
  suggestion: ToolName.optional(),
};
const unreachableSchema = findingSchema("tool-unreachable-in-client").extend(unreachableFields);
const FilterRuleSchema = idSchema(
  "The config file's tool filter that hides it (a fixed id, never the file's text).",
  TOOL_FILTER_RULE_IDS,
);
const disabledFields = {
  rule: FilterRuleSchema,
  available_in: z.array(ProfileLabel).max(0),
};
const disabledSchema = findingSchema("tool-disabled-in-config").extend(disabledFields);
const requiredFields = {
  rule: FilterRuleSchema.optional().describe(
    "Added in 0.3.0, a config run only: the profile lists the tool and the config file's own tool filter, this one, hides it from the model in every profile of the server (then `available_in` is empty and `hint` is the filter's). Absent when the catalog lacks the tool.",
  ),
  hint: hintSchema("The rule's fixed hint (mcpeval's RULES table); with `rule`, the filter's.", [
    RULES["required-tool-unavailable"].hint,
    FILTERED_REQUIRED_HINT,
  ]),
};
/** `rule` (a config filter hides a listed tool) goes with an empty `available_in`. */
const requiredAgrees = (defect: { rule?: string; available_in: unknown[] }) =>
  defect.rule === undefined || defect.available_in.length === 0;
const REQUIRED_DISAGREES = { message: "rule and available_in disagree" };
const requiredSchema = findingSchema("required-tool-unavailable").extend(requiredFields)
  .refine(requiredAgrees, REQUIRED_DISAGREES);
const unknownSchema = findingSchema("referenced-tool-unknown").extend(unknownFields);
const capSchema = findingSchema("tool-cap-exceeded-in-client").extend(capFields);
const cutFields = {
  cut: z.int().min(1).meta({
    description: "How many characters of each server's instructions the client keeps.",
  }),
};
const cutSchema = findingSchema("reference-cut-in-client").extend(cutFields);
const disagreesFields = {
  tool: ListedTool,
  observed_profile: ProfileLabel.describe(
    "The observed profile (--observe) of the same client that the preset disagrees with.",
  ),
  rule: ClientRuleSchema.optional().describe(
    "The preset's rule that hides the tool, which the observed client's model received; absent: the preset sends the tool, and the observed client's model did not receive it.",
  ),
};
const disagreesSchema = findingSchema("preset-disagrees-with-client").extend(disagreesFields);

/**
 * A finding of a kind this version does not know: the fields the known kinds have, kept and
 * not interpreted. Its kind's pattern excludes the known kinds, which must have their shapes.
 */
const otherFindingFields = {
  kind: otherIdSchema(
    "A finding kind this version does not know (a later version's): kept, not interpreted.",
    FINDING_KINDS,
  ),
  profile: ProfileLabel,
  tool: ListedTool,
  available_in: z.array(ProfileLabel),
  rule: idSchema("A rule id, when its kind has one.").optional(),
  effect: idSchema("An effect, when its kind has one.").optional(),
  observed_profile: ProfileLabel.optional(),
  suggestion: ToolName.optional(),
  cut: z.int().min(1).optional(),
  hint: hintSchema("Its kind's hint, as the report's writer worded it."),
};
const otherFinding = z.strictObject({
  ...otherFindingFields,
  baseline_state: BaselineStateSchema.optional(),
});
const otherResolved = z.strictObject(otherFindingFields);

const ProfileDriftSchema = z.discriminatedUnion("compared", [
  z.strictObject({
    profile: ProfileLabel,
    compared: z.literal(true),
    added: z.array(ToolName).meta({
      description: "Tools this profile lists now that its baseline catalog did not, sorted.",
    }),
    removed: z.array(ToolName).meta({
      description: "Tools of this profile's baseline catalog that it no longer lists, sorted.",
    }),
  }),
  z.strictObject({
    profile: ProfileLabel,
    compared: z.literal(false),
    reason: idSchema(
      "`incomplete`: this profile's discovery did not complete now; `not-in-baseline`: the baseline did not select this profile.",
      NOT_COMPARED_REASONS,
    ),
  }),
]);

const BaselineSchema = z.strictObject({
  require_baseline_tools: z.boolean().meta({
    description:
      "Whether --require-baseline-tools made every baseline tool required in its profile.",
  }),
  profiles: z.array(ProfileDriftSchema).meta({
    description: "One entry per selected profile, in report order: its catalog drift.",
  }),
  resolved: z.array(z.union([
    z.discriminatedUnion("kind", [
      resolvedSchema("referenced-tool-unavailable"),
      resolvedSchema("reference-cut-in-client").extend(cutFields),
      resolvedSchema("tool-unreachable-in-client").extend(unreachableFields),
      resolvedSchema("tool-cap-exceeded-in-client").extend(capFields),
      resolvedSchema("tool-disabled-in-config").extend(disabledFields),
      resolvedSchema("preset-disagrees-with-client").extend(disagreesFields),
      resolvedSchema("referenced-tool-unknown").extend(unknownFields),
      resolvedSchema("required-tool-unavailable").extend(requiredFields).refine(
        requiredAgrees,
        REQUIRED_DISAGREES,
      ),
      resolvedSchema("baseline-tool-unavailable"),
    ]),
    otherResolved,
  ])).meta({
    description:
      `Findings of the baseline that this run no longer produces, in profiles it compared, as the baseline recorded them; empty when the run is incomplete. At most ${MAX_RESOLVED_LISTED}.`,
  }),
  resolved_not_listed: z.int().min(1).optional().meta({
    description:
      `How many more resolved findings there are than the ${MAX_RESOLVED_LISTED} listed; absent when all are listed.`,
  }),
  profiles_differ: z.strictObject({
    not_run: z.array(ProfileLabel).meta({
      description: "The baseline's profiles that this run did not select.",
    }),
    not_in_baseline: z.array(ProfileLabel).meta({
      description: "The profiles of this run that the baseline did not select.",
    }),
    not_judged: z.int().min(0).meta({
      description:
        "How many findings of the baseline this run neither produces nor calls resolved, because a profile they concern (their own, or one that listed the tool) was not compared.",
    }),
  }).optional().meta({
    description: "Only when the profiles run are not the baseline's: what was not compared.",
  }),
}).meta({
  description: "With --baseline only: this run compared with an earlier report of the same server.",
});

/** What counts as a reference: known tools, or (`--unknown-references`) every identifier. */
const REFERENCE_DETECTIONS = ["inline-code-known-tools", "inline-code-identifiers"] as const;

const reportSchema = z.strictObject({
  schema: z.literal(REPORT_SCHEMA_ID),
  mcpeval_version: z.string(),
  server: z.string().regex(SERVER_LABEL),
  transport: idSchema("How the server was reached.", TRANSPORTS),
  protocol_version: z.union([RevisionSchema, z.literal(AUTO)]).meta({
    description:
      "The revision discovery spoke and required; `auto` only with --protocol-version auto (each profile then records the revision it negotiated).",
  }),
  reference_detection: idSchema(
    "What counts as a reference: an inline code span that equals a tool name in some selected catalog, or (--unknown-references) every inline code span that is a valid tool identifier.",
    REFERENCE_DETECTIONS,
  ),
  settings: z.strictObject({
    settle_ms: z.int().min(SETTLE_MS.min).max(SETTLE_MS.max),
    timeout_ms: z.int().min(TIMEOUT_MS.min).max(TIMEOUT_MS.max),
    max_pages: z.literal(MAX_PAGES),
    max_tools: z.literal(MAX_TOOLS),
    max_roots_requests_per_client_request: z.literal(MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST),
    max_message_bytes: z.literal(MAX_MESSAGE_BYTES),
  }),
  required_tools: z.array(ToolName),
  profiles: z.array(z.discriminatedUnion("complete", [
    CompleteProfileSchema,
    IncompleteProfileSchema,
  ])).min(1),
  candidates: z.array(z.union([
    z.discriminatedUnion("kind", [
      findingSchema("referenced-tool-unavailable"),
      cutSchema,
      unreachableSchema,
      capSchema,
      disabledSchema,
      disagreesSchema,
      unknownSchema,
    ]),
    otherFinding,
  ])),
  defects: z.array(z.union([
    z.discriminatedUnion("kind", [
      requiredSchema,
      findingSchema("baseline-tool-unavailable"),
    ]),
    otherFinding,
  ])),
  complete: z.boolean(),
  passed: z.boolean().nullable(),
  baseline: BaselineSchema.optional(),
}).check((ctx) => {
  const report = ctx.value;
  const complete = report.profiles.every((profile) => profile.complete);
  const consistent = report.complete === complete &&
    (complete
      ? report.passed === (report.defects.length === 0)
      : report.passed === null && report.candidates.length === 0 && report.defects.length === 0);
  if (!consistent) {
    ctx.issues.push({
      code: "custom",
      input: report,
      message: "complete, passed, candidates and defects disagree with the profiles",
    });
  }
  const { baseline } = report;
  const findings = [...report.candidates, ...report.defects];
  const compared = baseline === undefined
    ? findings.every((finding) => finding.baseline_state === undefined) &&
      !report.defects.some((defect) => defect.kind === "baseline-tool-unavailable")
    : findings.every((finding) => finding.baseline_state !== undefined) &&
      (baseline.require_baseline_tools ||
        !report.defects.some((defect) => defect.kind === "baseline-tool-unavailable")) &&
      (complete || baseline.resolved.length === 0) &&
      baseline.profiles.map((entry) => entry.profile).join() ===
        report.profiles.map((entry) => entry.profile).join();
  if (!compared) {
    ctx.issues.push({
      code: "custom",
      input: report,
      message: "baseline, baseline_state and baseline defects disagree",
    });
  }
});

/** One way a value breaks the report schema. */
export interface ReportIssue {
  /** Where: the property names and array indexes from the top of the value. */
  readonly path: readonly PropertyKey[];
  /** What is wrong there. */
  readonly message: string;
}

/**
 * What {@linkcode ReportSchema.safeParse} returns: the report, or why the value is not one. A
 * report read may hold ids of a later version ({@linkcode ReportIds}).
 */
export type ReportParseResult =
  | { readonly success: true; readonly data: GuidanceReport<ReportIds> }
  | {
    readonly success: false;
    readonly error: Error & { readonly issues: readonly ReportIssue[] };
  };

/** Validation against the report schema, typed without committing the API to zod's types. */
export interface ReportSchema {
  /** Returns `value` as a report; throws an error carrying the issues when it is not one. */
  parse(value: unknown): GuidanceReport<ReportIds>;
  /** Like `parse`, but returns the outcome instead of throwing. */
  safeParse(value: unknown): ReportParseResult;
}

/**
 * The guidance report's schema: use it to validate a report you read. It takes the ids of a
 * later version (a finding kind, hint, profile label, reason, cause or rule id this version does
 * not know) as they are.
 */
export const GuidanceReportSchema: ReportSchema = reportSchema;

/**
 * The fields that earlier versions wrote and this one neither writes nor reads: a profile's
 * `server_stderr_tail` (0.2.x: a server's own words, which no report carries any more).
 */
const RETIRED_PROFILE_FIELDS = ["server_stderr_tail"] as const;

/**
 * A report read from a file, with every retired field ({@linkcode RETIRED_PROFILE_FIELDS})
 * deleted from it in place, so that it is validated, and merged, without them. Anything that is
 * not a report's shape is returned as it is, for the schema to refuse.
 *
 * @example
 * ```ts
 * const value = withoutRetiredFields(JSON.parse(text));
 * const read = GuidanceReportSchema.safeParse(value);
 * ```
 */
export function withoutRetiredFields(value: unknown): unknown {
  const profiles = (value as { profiles?: unknown } | null)?.profiles;
  if (!Array.isArray(profiles)) return value;
  for (const profile of profiles) {
    if (typeof profile !== "object" || profile === null) continue;
    for (const field of RETIRED_PROFILE_FIELDS) delete (profile as Record<string, unknown>)[field];
  }
  return value;
}

/** The top-level fields a guidance report may have (a baseline with any other is refused). */
export const REPORT_FIELDS: readonly string[] = Object.keys(reportSchema.shape);

/** The zod schema itself, for documents that embed guidance reports (the fleet report). */
export const guidanceReportZod: Zod.ZodType<GuidanceReport<ReportIds>> = reportSchema;

// The values the schema documents are those the types of what this version writes name.
type Same<A, B> = [A, B] extends [B, A] ? true : never;
const _known: [
  Same<typeof TRANSPORTS[number], KnownIds["transport"]>,
  Same<typeof REFERENCE_DETECTIONS[number], KnownIds["referenceDetection"]>,
  Same<typeof BASELINE_STATES[number], KnownIds["baselineState"]>,
  Same<typeof NOT_COMPARED_REASONS[number], KnownIds["notCompared"]>,
] = [true, true, true, true];

// The spelled-out types of a report read and the schema must agree exactly, and what this
// version writes must be such a report; this fails to compile otherwise.
type Inferred = Zod.infer<typeof reportSchema>;
type Read = GuidanceReport<ReportIds>;
const _sameType: [Inferred, Read] extends [Read, Inferred] ? true : never = true;
const _written: GuidanceReport<KnownIds> extends Read ? true : never = true;

/** The report's JSON Schema (draft 2020-12). */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(reportSchema, { target: "draft-2020-12" }),
    $id: "https://jsr.io/@mcpeval/guidance/schema/guidance-report-v1.json",
    title: REPORT_SCHEMA_ID,
  };
}
