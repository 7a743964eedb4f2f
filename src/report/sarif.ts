/**
 * The SARIF 2.1.0 renderer: one rule per finding kind (and one for incomplete profiles);
 * candidates are warnings, defects and incomplete profiles errors. Findings have no file, so
 * each result names its tool as a logical location `server/profile/tool`.
 *
 * @module
 */
import { FINDING_KINDS, type FindingKind, RULES } from "../analysis/rules.ts";
import {
  FINDING_PRESENTATION,
  findingKindApplies,
  findingsOf,
  incompleteSentence,
} from "./phrases.ts";
import type { GuidanceReport } from "./types.ts";

/** A SARIF reporting descriptor (a rule). */
export interface SarifRule {
  readonly id: string;
  readonly name: string;
  readonly shortDescription: { readonly text: string };
  readonly help: { readonly text: string };
  readonly defaultConfiguration: { readonly level: "warning" | "error" };
}

/** The rule of an incomplete profile. */
export const INCOMPLETE_RULE = {
  id: "profile-incomplete",
  name: "ProfileIncomplete",
  shortDescription: { text: "Discovery did not complete for a profile" },
  help: {
    text:
      "Incomplete discovery is not evidence that a tool is unavailable; fix the cause and run again.",
  },
  defaultConfiguration: { level: "error" },
} as const;

/** The SARIF rules of reports: the finding kinds their runs could produce, then incomplete. */
export function sarifRules(...reports: readonly GuidanceReport[]): SarifRule[] {
  return [
    ...FINDING_KINDS.filter((kind) => reports.some((report) => findingKindApplies(report, kind)))
      .map((kind) => ({
        id: kind,
        name: FINDING_PRESENTATION[kind].sarifName,
        shortDescription: { text: FINDING_PRESENTATION[kind].summary },
        help: { text: RULES[kind].hint },
        defaultConfiguration: { level: level(kind) },
      })),
    INCOMPLETE_RULE,
  ];
}

function level(kind: FindingKind): "warning" | "error" {
  return RULES[kind].gates ? "error" : "warning";
}

type RuleId = FindingKind | typeof INCOMPLETE_RULE.id;

function result(
  report: GuidanceReport,
  rules: readonly { id: string }[],
  ruleId: RuleId,
  level: "warning" | "error",
  text: string,
  profile: string,
  tool?: string,
  properties: Record<string, unknown> = {},
) {
  const name = tool ?? profile;
  return {
    ruleId,
    ruleIndex: rules.findIndex((rule) => rule.id === ruleId),
    level,
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
  const results = sarifResults(report, rules);
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: sarifTool(report.mcpeval_version, rules),
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

/** The SARIF tool object: mcpeval and its rules. */
export function sarifTool(version: string, rules: readonly SarifRule[]): Record<string, unknown> {
  return {
    driver: {
      name: "mcpeval",
      version,
      informationUri: "https://jsr.io/@mcpeval/guidance",
      rules,
    },
  };
}

/** A report's SARIF results (incomplete profiles, findings), indexing into `rules`. */
export function sarifResults(
  report: GuidanceReport,
  rules: readonly SarifRule[],
): Record<string, unknown>[] {
  return [
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
        ),
      ]
    ),
    ...findingsOf(report).map((f) =>
      result(
        report,
        rules,
        f.kind,
        level(f.kind),
        `${FINDING_PRESENTATION[f.kind].sentence(f)}. ${f.hint}`,
        f.profile,
        f.tool,
        { available_in: f.available_in },
      )
    ),
  ];
}
