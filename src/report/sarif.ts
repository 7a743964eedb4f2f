/**
 * The SARIF 2.1.0 renderer: one rule per finding kind (and one for incomplete profiles);
 * candidates are warnings, defects and incomplete profiles errors. Findings have no file, so
 * each result names its tool as a logical location `server/profile/tool`. With a baseline every
 * result carries `baselineState` (`new` or `unchanged`), and each finding of the baseline that no
 * longer occurs is an `absent` result of kind `pass`.
 *
 * @module
 */
import { FINDING_KINDS, type FindingKind, RULES } from "../analysis/rules.ts";
import {
  FINDING_PRESENTATION,
  findingKindApplies,
  findingSentence,
  findingsOf,
  incompleteSentence,
  resolvedSentence,
} from "./phrases.ts";
import type { GuidanceReport } from "./types.ts";

const INCOMPLETE_RULE = {
  id: "profile-incomplete",
  name: "ProfileIncomplete",
  shortDescription: { text: "Discovery did not complete for a profile" },
  help: {
    text:
      "Incomplete discovery is not evidence that a tool is unavailable; fix the cause and run again.",
  },
  defaultConfiguration: { level: "error" },
} as const;

/** The SARIF rules of a report: the finding kinds its run could produce, then incomplete. */
function sarifRules(report: GuidanceReport) {
  return [
    ...FINDING_KINDS.filter((kind) => findingKindApplies(report, kind)).map((kind) => ({
      id: kind,
      name: FINDING_PRESENTATION[kind].sarifName,
      shortDescription: { text: FINDING_PRESENTATION[kind].summary },
      help: { text: RULES[kind].hint },
      defaultConfiguration: { level: level(kind) },
    })),
    INCOMPLETE_RULE,
  ];
}

type BaselineState = "new" | "unchanged" | "absent";

function level(kind: FindingKind): "warning" | "error" {
  return RULES[kind].gates ? "error" : "warning";
}

type RuleId = FindingKind | typeof INCOMPLETE_RULE.id;

function result(
  report: GuidanceReport,
  rules: readonly { readonly id: string }[],
  ruleId: RuleId,
  level: "warning" | "error" | "none",
  text: string,
  profile: string,
  tool?: string,
  properties: Record<string, unknown> = {},
  baselineState?: BaselineState,
) {
  const name = tool ?? profile;
  return {
    ruleId,
    ruleIndex: rules.findIndex((rule) => rule.id === ruleId),
    ...(baselineState === "absent" ? { kind: "pass" } : {}),
    level,
    ...(baselineState === undefined ? {} : { baselineState }),
    message: { text },
    locations: [{
      logicalLocations: [{
        name,
        fullyQualifiedName: [report.server, profile, ...(tool === undefined ? [] : [tool])].join(
          "/",
        ),
        kind: tool === undefined ? "module" : "function",
      }],
    }],
    properties: { profile, ...properties },
  };
}

/** The report as a SARIF 2.1.0 log. */
export function renderSarif(report: GuidanceReport): string {
  const rules = sarifRules(report);
  // The baseline is a complete run, so an incomplete profile is always new.
  const incompleteState = report.baseline === undefined ? undefined : "new";
  const results = [
    ...report.profiles.flatMap((profile) =>
      profile.complete ? [] : [
        result(
          report,
          rules,
          "profile-incomplete",
          "error",
          `${incompleteSentence(profile)}. ${profile.incomplete.hint}`,
          profile.profile,
          undefined,
          {
            reason: profile.incomplete.reason,
            ...(profile.incomplete.http_status === undefined
              ? {}
              : { http_status: profile.incomplete.http_status }),
          },
          incompleteState,
        ),
      ]
    ),
    ...findingsOf(report).map((f) =>
      result(
        report,
        rules,
        f.kind,
        level(f.kind),
        `${findingSentence(f)}. ${f.hint}`,
        f.profile,
        f.tool,
        { available_in: f.available_in },
        f.baseline_state,
      )
    ),
    ...(report.baseline?.resolved ?? []).map((f) =>
      result(
        report,
        rules,
        f.kind,
        "none",
        `Resolved since the baseline: ${resolvedSentence(f)}.`,
        f.profile,
        f.tool,
        { available_in: f.available_in },
        "absent",
      )
    ),
  ];
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "mcpeval",
          version: report.mcpeval_version,
          informationUri: "https://jsr.io/@mcpeval/guidance",
          rules,
        },
      },
      automationDetails: { id: `mcpeval-guidance/${report.server}/` },
      invocations: [{ executionSuccessful: report.complete }],
      results,
      properties: {
        server: report.server,
        transport: report.transport,
        complete: report.complete,
        passed: report.passed,
      },
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
