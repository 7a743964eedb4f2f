/**
 * The SARIF 2.1.0 renderer: one rule per finding kind (and one for incomplete profiles);
 * candidates are warnings, defects and incomplete profiles errors. Findings have no file, so
 * each result names its tool as a logical location `server/profile/tool`.
 *
 * @module
 */
import { FINDING_HINTS } from "../hints.ts";
import { candidateSentence, defectSentence, incompleteSentence } from "./phrases.ts";
import type { GuidanceReport } from "./types.ts";

const RULES = [
  {
    id: "referenced-tool-unavailable",
    name: "ReferencedToolUnavailable",
    shortDescription: { text: "The instructions reference a tool that this profile cannot see" },
    help: { text: FINDING_HINTS["referenced-tool-unavailable"] },
    defaultConfiguration: { level: "warning" },
  },
  {
    id: "required-tool-unavailable",
    name: "RequiredToolUnavailable",
    shortDescription: { text: "A required tool is missing from a profile's catalog" },
    help: { text: FINDING_HINTS["required-tool-unavailable"] },
    defaultConfiguration: { level: "error" },
  },
  {
    id: "profile-incomplete",
    name: "ProfileIncomplete",
    shortDescription: { text: "Discovery did not complete for a profile" },
    help: {
      text:
        "Incomplete discovery is not evidence that a tool is unavailable; fix the cause and run again.",
    },
    defaultConfiguration: { level: "error" },
  },
] as const;

type RuleId = typeof RULES[number]["id"];

function result(
  report: GuidanceReport,
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
    ruleIndex: RULES.findIndex((rule) => rule.id === ruleId),
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
  const results = [
    ...report.profiles.flatMap((profile) =>
      profile.complete ? [] : [
        result(
          report,
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
    ...report.candidates.map((c) =>
      result(report, c.kind, "warning", `${candidateSentence(c)}. ${c.hint}`, c.profile, c.tool, {
        available_in: c.available_in,
      })
    ),
    ...report.defects.map((d) =>
      result(report, d.kind, "error", `${defectSentence(d)}. ${d.hint}`, d.profile, d.tool, {
        available_in: d.available_in,
      })
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
          rules: RULES,
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
