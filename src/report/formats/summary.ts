/**
 * The GitHub step summary format (Markdown, appended to `GITHUB_STEP_SUMMARY`): the result, the
 * profile table, drift and findings (defects before review candidates); for a config run, a
 * table of every server first.
 *
 * @module
 */
import { FILTERED_REQUIRED_HINT, FINDING_KINDS, RULES } from "../../analysis/rules.ts";
import {
  capabilityDependentTools,
  clientFacts,
  countedHeading,
  driftText,
  filteredPhrase,
  findingsOf,
  incompleteSentence,
  kindHint,
  kindsOf,
  knows,
  notListedSentence,
  outcomeOf,
  profilesDifferSentence,
  resolvedSentence,
  statePhrase,
} from "../phrases.ts";
import {
  fleetOutcome,
  notCheckedHint,
  notCheckedText,
  SUMMARY_HEADER,
  summaryRows,
} from "../fleet/phrases.ts";
import type { FleetReport } from "../fleet/types.ts";
import { type RenderSource, wholeReport } from "../run.ts";
import type { GuidanceReport, ReportIds } from "../types.ts";
import { md } from "./github.ts";

/** The finding kinds, those that gate first, each class in the rules' order. */
const DEFECTS_FIRST: readonly string[] = [
  ...FINDING_KINDS.filter((kind) => RULES[kind].gates),
  ...FINDING_KINDS.filter((kind) => !RULES[kind].gates),
];

/** Tool names as Markdown code, or a dash. */
function tools(names: readonly string[]): string {
  return names.length === 0 ? "-" : names.map((name) => `\`${name}\``).join(", ");
}

/** The Markdown summary: result, profile table, drift, defects, candidates, resolved. */
function serverSummary(report: GuidanceReport<ReportIds>): string {
  const outcome = outcomeOf(report);
  const lines = [
    `## mcpeval guidance: ${md(report.server)}`,
    "",
    `**Result: ${outcome.status}**: ${md(outcome.detail)}`,
    "",
    `Transport ${report.transport}, protocol ${report.protocol_version}, settle window ${report.settings.settle_ms} ms.`,
    "",
    "| Profile | Tools | Instructions | Discovery |",
    "| --- | ---: | --- | --- |",
    ...report.profiles.map((profile) =>
      `| ${profile.profile} | ${profile.tool_count ?? "-"} | ${
        profile.instructions_present === null ? "-" : profile.instructions_present ? "yes" : "no"
      } | ${
        profile.complete
          ? "complete"
          : md(incompleteSentence(profile).split(": ").slice(1).join(": "))
      } |`
    ),
  ];
  const facts = report.profiles.flatMap(clientFacts);
  if (facts.length > 0) lines.push("", ...facts.map((fact) => `- ${md(fact)}`));
  const dependent = capabilityDependentTools(report);
  if (dependent.length > 0) {
    lines.push(
      "",
      "### Tools that depend on client capabilities",
      "",
      "| Tool | Listed in |",
      "| --- | --- |",
    );
    for (const [tool, profiles] of dependent) {
      lines.push(`| \`${tool}\` | ${profiles.join(", ")} |`);
    }
  }
  const { baseline } = report;
  if (baseline) {
    lines.push(
      "",
      "### Baseline: catalog drift",
      "",
      "| Profile | Added | Removed |",
      "| --- | --- | --- |",
      ...baseline.profiles.map((drift) =>
        drift.compared
          ? `| ${drift.profile} | ${tools(drift.added)} | ${tools(drift.removed)} |`
          : `| ${drift.profile} | ${md(driftText(drift))} | |`
      ),
    );
    if (baseline.profiles_differ) {
      lines.push("", `${md(profilesDifferSentence(baseline.profiles_differ))}.`);
    }
  }
  const findings = findingsOf(report);
  // Defects (the kinds that gate) before review candidates, then kinds this version does not know.
  for (const kind of [...DEFECTS_FIRST, ...kindsOf(findings).filter((k) => !knows(RULES, k))]) {
    const ofKind = findings.filter((finding) => finding.kind === kind);
    if (ofKind.length === 0) continue;
    const toolColumn = kind === "referenced-tool-unavailable"
      ? "Tool"
      : kind === "required-tool-unavailable"
      ? "Required tool"
      : "Baseline tool";
    const state = baseline ? " Baseline |" : "";
    lines.push(
      "",
      `### ${countedHeading(kind, ofKind.length, new Set(ofKind.map((f) => f.tool)).size)}`,
      "",
      `| Profile | ${toolColumn} | Available in |${state}`,
      `| --- | --- | --- |${baseline ? " --- |" : ""}`,
    );
    for (const f of ofKind) {
      const cell = f.baseline_state === undefined ? "" : ` ${statePhrase(f.baseline_state)} |`;
      const filter = f.kind === "required-tool-unavailable" && "rule" in f ? f.rule : undefined;
      lines.push(
        `| ${f.profile} | \`${f.tool}\` | ${f.available_in.join(", ") || "no selected profile"}${
          typeof filter === "string" ? ` (${filteredPhrase(filter)})` : ""
        } |${cell}`,
      );
    }
    // A required tool that a config file's filter hides has its own hint.
    const filtered = ofKind.some((f) => f.kind === "required-tool-unavailable" && "rule" in f);
    if (filtered) lines.push("", md(FILTERED_REQUIRED_HINT));
    if (!filtered || ofKind.some((f) => !("rule" in f))) lines.push("", md(kindHint(kind)));
  }
  if (baseline && baseline.resolved.length > 0) {
    lines.push("", `### Resolved since the baseline (${baseline.resolved.length})`, "");
    for (const finding of baseline.resolved) lines.push(`- ${md(resolvedSentence(finding))}`);
    if (baseline.resolved_not_listed !== undefined) {
      lines.push(`- ${md(notListedSentence(baseline.resolved_not_listed))}`);
    }
  }
  return lines.join("\n") + "\n\n";
}

/** The Markdown step summary: the result, a table of every server, then each server's summary. */
function fleetSummary(fleet: FleetReport<ReportIds>): string {
  const outcome = fleetOutcome(fleet);
  const lines = [
    `## mcpeval guidance: config ${fleet.config_format}`,
    "",
    `**Result: ${outcome.status}**: ${md(outcome.detail)}`,
    "",
    `| ${SUMMARY_HEADER.map((title) => title[0].toUpperCase() + title.slice(1)).join(" | ")} |`,
    `| ${SUMMARY_HEADER.map(() => "---").join(" | ")} |`,
    ...summaryRows(fleet).map((row) => `| ${row.map(md).join(" | ")} |`),
    "",
  ];
  for (const server of fleet.servers) {
    if (server.checked) lines.push(serverSummary(server.report).trimEnd(), "");
    else {
      lines.push(
        `## mcpeval guidance: ${md(server.name)}`,
        "",
        `**${md(notCheckedText(server))}**: ${md(notCheckedHint(server))}`,
        "",
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** The source as a Markdown step summary (a merge's fleet built whole). */
export function render(source: RenderSource): string {
  const run = wholeReport(source);
  return run.kind === "server" ? serverSummary(run.report) : fleetSummary(run.fleet);
}
