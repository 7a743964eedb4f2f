/**
 * Profiles' outcomes and findings → the one typed report, validated before anyone sees it.
 *
 * @module
 */
import { analyze, type Finding } from "../analysis/findings.ts";
import { type FindingClass, RULES } from "../analysis/rules.ts";
import type { ProfileOutcome } from "../discovery/session.ts";
import {
  MAX_MESSAGE_BYTES,
  MAX_PAGES,
  MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST,
  MAX_TOOLS,
} from "../limits.ts";
import { INCOMPLETE_HINTS } from "../protocol/incomplete.ts";
import type { ProtocolVersion } from "../protocol/versions.ts";
import { PROFILES } from "../profiles.ts";
import type { TransportKind } from "../target.ts";
import { VERSION } from "../version.ts";
import {
  type GuidanceReport,
  GuidanceReportSchema,
  type ProfileReport,
  REPORT_SCHEMA_ID,
} from "./schema.ts";

/** What a report records of the request; a validated request has all of it. */
export interface ReportSettings {
  readonly server: string;
  readonly requiredTools: readonly string[];
  readonly settleMs: number;
  readonly timeoutMs: number;
  readonly target: { readonly kind: TransportKind };
  readonly protocolVersion: ProtocolVersion;
}

/**
 * Builds the report of a run. Throws if the result breaks the schema (a bug in mcpeval).
 */
export function buildReport(
  options: ReportSettings,
  outcomes: readonly ProfileOutcome[],
): GuidanceReport {
  const ordered = [...outcomes].sort((a, b) =>
    PROFILES.indexOf(a.profile) - PROFILES.indexOf(b.profile)
  );
  const observed = ordered.flatMap((outcome) => outcome.complete ? [outcome] : []);
  const complete = observed.length === ordered.length;
  const analysis = complete ? analyze(observed, options.requiredTools) : undefined;
  const findings = analysis?.findings ?? [];
  const listed = (findingClass: FindingClass) =>
    findings.filter((finding) => RULES[finding.kind].class === findingClass).map((
      finding: Finding,
    ) => ({
      kind: finding.kind,
      profile: finding.profile,
      tool: finding.tool,
      available_in: [...finding.availableIn],
      hint: RULES[finding.kind].hint,
    }));

  return GuidanceReportSchema.parse(
    {
      schema: REPORT_SCHEMA_ID,
      mcpeval_version: VERSION,
      server: options.server,
      transport: options.target.kind,
      protocol_version: options.protocolVersion,
      reference_detection: "inline-code-known-tools",
      settings: {
        settle_ms: options.settleMs,
        timeout_ms: options.timeoutMs,
        max_pages: MAX_PAGES,
        max_tools: MAX_TOOLS,
        max_roots_requests_per_client_request: MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST,
        max_message_bytes: MAX_MESSAGE_BYTES,
      },
      required_tools: [...options.requiredTools],
      profiles: ordered.map(profileReport),
      // The zod parse below checks that each kind lands in the list its rule's class names.
      candidates: listed("candidate") as GuidanceReport["candidates"],
      defects: listed("defect") as GuidanceReport["defects"],
      complete,
      passed: analysis?.passed ?? null,
    } satisfies GuidanceReport,
  );
}

function profileReport(outcome: ProfileOutcome): ProfileReport {
  if (outcome.complete) {
    return {
      profile: outcome.profile,
      complete: true,
      instructions_present: outcome.instructionsPresent,
      tool_count: outcome.tools.length,
      tools: [...outcome.tools],
      pages: outcome.pages,
      incomplete: null,
    };
  }
  const { reason, httpStatus, serverVersion, detail } = outcome.incomplete;
  return {
    profile: outcome.profile,
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
        },
      }),
    },
  };
}
