/**
 * Profiles' outcomes and findings → the one typed report of a server. It is built to its schema
 * and not validated here (the tests check every report they see against the schema), so that a
 * run loads no schema unless it reads a baseline.
 *
 * @module
 */
import {
  type Baseline,
  type BaselineState,
  compareWithBaseline,
  type ProfileDrift,
} from "../analysis/baseline.ts";
import { analyze, type Finding, passes, type ReferenceReading } from "../analysis/findings.ts";
import { type FindingClass, hintOf, RULES } from "../analysis/rules.ts";
import type { RunSettings, ServerRequest } from "../discovery/request.ts";
import type { ProfileOutcome } from "../discovery/session.ts";
import { observationOf, type ObservedFacts } from "../discovery/observed.ts";
import { observedHidden } from "../analysis/observed.ts";
import {
  MAX_MESSAGE_BYTES,
  MAX_PAGES,
  MAX_RESOLVED_LISTED,
  MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST,
  MAX_TOOLS,
} from "../limits.ts";
import { INCOMPLETE_HINTS } from "../protocol/incomplete.ts";
import { type ServerTools, toolsSent } from "../analysis/budget.ts";
import { type CapWarning, type HiddenTool, reachability } from "../analysis/reachability.ts";
import { WHOLE_SERVER_EFFECTS } from "../clients/rules/kind.ts";
import { filteredTools, type ToolFilter } from "../analysis/tool_filters.ts";
import type { ClientPreset } from "../clients/presets.ts";
import type { RuleKindId } from "../clients/rules/registry.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { ProtocolVersion } from "../protocol/versions.ts";
import type { TransportKind } from "../target.ts";
import { VERSION } from "../version.ts";
import { type GuidanceReport, type ProfileReport, REPORT_SCHEMA_ID } from "./types.ts";

/**
 * What a report records of a server's request (only the target's kind), and what the run adds:
 * the tools earlier servers gave each client, the config file's tool filter, the baseline.
 */
export type ReportSettings =
  & Pick<ServerRequest, "server" | "requiredTools">
  & Pick<RunSettings, "settleMs" | "timeoutMs" | "protocolVersion" | "profiles">
  & Partial<Pick<RunSettings, "clients" | "unknownReferences">>
  & {
    readonly target: { readonly kind: TransportKind };
    /**
     * Per client profile: how many tools that client already took from servers checked before
     * this one (a fleet, in config order), for the tool cap.
     */
    readonly toolsBefore?: ReadonlyMap<ProfileLabel, number>;
    /**
     * A fleet: the client profiles whose model API refuses every request while another server
     * of the fleet is configured (`reject-request`, SPEC 25), with the rule that caused it
     * there: every tool of this server is unreachable in them, reported on that server.
     */
    readonly rejectedBy?: ReadonlyMap<ProfileLabel, RuleKindId>;
    /** A fleet: the config file's own tool filter for this server, applied in every profile. */
    readonly toolFilter?: ToolFilter;
    /** The earlier report to compare with (`--baseline`); none by default. */
    readonly baseline?: Baseline;
    /** With a baseline: every baseline tool is required in its profile. */
    readonly requireBaselineTools?: boolean;
  };

/** Builds the report of a server from its profiles' outcomes, in the order of the run's profiles. */
export function buildReport(
  options: ReportSettings,
  outcomes: readonly ProfileOutcome[],
): GuidanceReport {
  return buildServerReport(options, outcomes).report;
}

/** A server's report, and what each client profile's model sees of it. */
export interface ServerReport {
  readonly report: GuidanceReport;
  /**
   * Per complete client profile, in report order: how many of the server's tools its model
   * sees (for the tool budget of the servers after this one in a fleet).
   */
  readonly sent: readonly ServerTools[];
}

/** Builds the report of a run (as {@linkcode buildReport}) with what each client sees. */
export function buildServerReport(
  options: ReportSettings,
  outcomes: readonly ProfileOutcome[],
): ServerReport {
  const order = (profile: ProfileLabel) => options.profiles.indexOf(profile);
  const ordered = [...outcomes].sort((a, b) => order(a.profile) - order(b.profile));
  const presetOf = (profile: ProfileLabel) =>
    profile.startsWith("client:") ? options.clients?.get(profile.slice(7)) : undefined;
  const observed = ordered.flatMap((outcome) => {
    if (!outcome.complete) return [];
    const preset = presetOf(outcome.profile);
    // The client applies the user's filter before its own rules (and its tool cap).
    const filtered = options.toolFilter && filteredTools(options.toolFilter, outcome.tools);
    // The client's rules judge only what the filter leaves: its listing and each tool's facts.
    const left = filtered && {
      ...outcome,
      listed: outcome.listed.filter((tool) => !filtered.has(tool)),
      ...(outcome.facts ? { facts: outcome.facts.filter((tool) => !filtered.has(tool.name)) } : {}),
    };
    // An observed profile: what its model did not receive of what the filter left.
    const received = observationOf(outcome)?.received;
    if (received) {
      const hidden = observedHidden((left || outcome).listed, received);
      return [{ ...outcome, ...(filtered ? { filtered } : {}), hidden, capWarnings: [] }];
    }
    const reach:
      | { hidden: ReadonlyMap<string, HiddenTool>; warnings: readonly CapWarning[] }
      | undefined = preset && reachability(
        preset.rules,
        options.server,
        left || outcome,
        options.toolsBefore?.get(outcome.profile) ?? 0,
      );
    const rejectedBy = options.rejectedBy?.get(outcome.profile);
    if (reach && rejectedBy !== undefined) {
      const hidden = new Map(reach.hidden);
      for (const key of outcome.listed) {
        if (!WHOLE_SERVER_EFFECTS.has(hidden.get(key)?.effect!)) {
          hidden.set(key, { rule: rejectedBy, effect: "reject-request", reported: false });
        }
      }
      reach.hidden = hidden;
    }
    return [{
      ...outcome,
      ...(preset ? { references: referenceReading(preset) } : {}),
      ...(filtered ? { filtered } : {}),
      ...(reach ? { hidden: reach.hidden, capWarnings: reach.warnings } : {}),
      ...(preset?.version === undefined ? {} : { presetVersion: preset.version }),
    }];
  });
  const complete = observed.length === ordered.length;
  const analysis = complete
    ? analyze(observed, options.requiredTools, { unknownReferences: options.unknownReferences })
    : undefined;
  const requireBaselineTools = options.requireBaselineTools ?? false;
  const hidden = new Map(
    observed.map((profile) => [
      profile.profile,
      profile.filtered
        ? new Map<string, unknown>([...profile.filtered, ...profile.hidden ?? []])
        : profile.hidden,
    ]),
  );
  const comparison = options.baseline && compareWithBaseline(
    ordered.map((outcome) => ({
      profile: outcome.profile,
      tools: outcome.complete ? outcome.tools : null,
      hidden: hidden.get(outcome.profile),
    })),
    analysis ? analysis.findings : null,
    options.baseline,
    { requireBaselineTools },
  );
  const findings = comparison?.findings ?? analysis?.findings ?? [];
  const states: readonly (BaselineState | undefined)[] = comparison?.states ?? [];
  const listed = (findingClass: FindingClass) =>
    findings.flatMap((finding, index) =>
      RULES[finding.kind].class === findingClass
        ? [{ ...findingReport(finding), ...stateOf(states[index]) }]
        : []
    );

  const resolved = comparison?.resolved ?? [];
  const sent = observed.flatMap((profile) =>
    profile.hidden
      ? [toolsSent(profile.profile, profile.tools, profile.filtered, profile.hidden)]
      : []
  );
  const report = {
    schema: REPORT_SCHEMA_ID,
    mcpeval_version: VERSION,
    server: options.server,
    transport: options.target.kind,
    protocol_version: options.protocolVersion,
    reference_detection: options.unknownReferences
      ? "inline-code-identifiers"
      : "inline-code-known-tools",
    settings: {
      settle_ms: options.settleMs,
      timeout_ms: options.timeoutMs,
      max_pages: MAX_PAGES,
      max_tools: MAX_TOOLS,
      max_roots_requests_per_client_request: MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST,
      max_message_bytes: MAX_MESSAGE_BYTES,
    },
    required_tools: [...options.requiredTools],
    profiles: ordered.map((outcome) => profileReport(outcome, presetOf(outcome.profile))),
    // Each kind lands in the list its rule's class names (the schema checks it in tests).
    candidates: listed("candidate") as GuidanceReport["candidates"],
    defects: listed("defect") as GuidanceReport["defects"],
    complete,
    passed: complete ? passes(findings) : null,
    ...(comparison
      ? {
        baseline: {
          require_baseline_tools: requireBaselineTools,
          profiles: comparison.drift.map(driftReport),
          resolved: resolved.slice(0, MAX_RESOLVED_LISTED).map(findingReport) as NonNullable<
            GuidanceReport["baseline"]
          >["resolved"],
          ...(resolved.length > MAX_RESOLVED_LISTED
            ? { resolved_not_listed: resolved.length - MAX_RESOLVED_LISTED }
            : {}),
          ...(comparison.profilesDiffer
            ? {
              profiles_differ: {
                not_run: [...comparison.profilesDiffer.notRun],
                not_in_baseline: [...comparison.profilesDiffer.notInBaseline],
                not_judged: comparison.profilesDiffer.notJudged,
              },
            }
            : {}),
        },
      }
      : {}),
  } satisfies GuidanceReport;
  return { report, sent };
}

/**
 * How a client profile's references are read (SPEC 25): from the text as its client shows it,
 * none when it shows no instructions, as given when that is not known.
 */
export function referenceReading(preset: ClientPreset): ReferenceReading {
  return preset.instructionsShown === false
    ? "not-shown"
    : preset.instructionsShown === null
    ? "as-given"
    : "as-shown";
}

function findingReport(finding: Finding) {
  return {
    kind: finding.kind,
    profile: finding.profile,
    tool: finding.tool,
    ...(finding.rule === undefined ? {} : { rule: finding.rule }),
    ...(finding.effect === undefined ? {} : { effect: finding.effect }),
    ...(finding.observed === undefined ? {} : { observed_profile: finding.observed }),
    available_in: [...finding.availableIn],
    ...(finding.suggestion === undefined ? {} : { suggestion: finding.suggestion }),
    ...(finding.cut === undefined ? {} : { cut: finding.cut }),
    hint: hintOf(finding.kind, finding.rule !== undefined),
  };
}

function stateOf(state: BaselineState | undefined): { baseline_state?: BaselineState } {
  return state === undefined ? {} : { baseline_state: state };
}

function driftReport(drift: ProfileDrift) {
  return drift.compared
    ? {
      profile: drift.profile,
      compared: true as const,
      added: [...drift.added],
      removed: [...drift.removed],
    }
    : { profile: drift.profile, compared: false as const, reason: drift.reason };
}

function profileReport(outcome: ProfileOutcome, preset?: ClientPreset): ProfileReport {
  const client = preset && {
    client: {
      // `client:NAME` or `client:NAME@VERSION`: the name, and the version the preset is of.
      name: outcome.profile.slice("client:".length).split("@")[0],
      ...(preset.version === undefined ? {} : { version: preset.version }),
      client_info: { ...preset.clientInfo },
      instructions_shown: preset.instructionsShown,
      ...(referenceReading(preset) === "as-shown" ? {} : { references: referenceReading(preset) }),
      ...(preset.instructions && preset.instructions.shown
        ? { instructions_cut: preset.instructions.maxChars }
        : {}),
      ...(preset.deferral ? { deferral: preset.deferral.default } : {}),
    },
  };
  const negotiated = outcome.protocolVersion === undefined
    ? {}
    : { protocol_version: outcome.protocolVersion };
  const facts = observationOf(outcome);
  const observed = facts && { observed: observedReport(facts) };
  if (outcome.complete) {
    return {
      profile: outcome.profile,
      ...client,
      ...observed,
      complete: true,
      instructions_present: outcome.instructionsPresent,
      tool_count: outcome.tools.length,
      tools: [...outcome.tools],
      pages: outcome.pages,
      incomplete: null,
      ...negotiated,
    };
  }
  const { reason, httpStatus, serverVersion, detail } = outcome.incomplete;
  return {
    profile: outcome.profile,
    ...client,
    ...observed,
    complete: false,
    instructions_present: outcome.instructionsPresent,
    tool_count: null,
    tools: null,
    pages: outcome.pages,
    incomplete: {
      reason,
      hint: INCOMPLETE_HINTS[reason],
      ...(httpStatus === undefined ? {} : { http_status: httpStatus }),
      ...(serverVersion === undefined ? {} : { server_protocol_version: serverVersion }),
      ...(detail === undefined ? {} : {
        detail: {
          cause: detail.cause,
          ...(detail.exitCode === undefined ? {} : { exit_code: detail.exitCode }),
          ...(detail.signal === undefined ? {} : { signal: detail.signal }),
          ...(detail.tool === undefined ? {} : { tool: detail.tool }),
        },
      }),
    },
    ...negotiated,
  };
}

/** An observed profile's client, as the report says it. */
function observedReport(facts: ObservedFacts): NonNullable<ProfileReport["observed"]> {
  const { opening, instructions, received } = facts;
  return {
    client: facts.client,
    version: facts.version,
    opening: opening?.method ?? null,
    protocol_version: opening?.protocolVersion as ProtocolVersion | null ?? null,
    capabilities: [...opening?.capabilities ?? []],
    client_info: opening?.clientInfo ? { ...opening.clientInfo } : null,
    model_requests: facts.modelRequests,
    tools_received: received ? received.size : null,
    instructions_chars: instructions ? instructions.chars : null,
    instructions_shown_chars: instructions ? instructions.shownChars : null,
  };
}
