/**
 * The GitHub Actions renderers: workflow commands (annotations) for the log, and a Markdown
 * summary for `GITHUB_STEP_SUMMARY`.
 *
 * @module
 */
import { FINDING_KINDS, RULES } from "../analysis/rules.ts";
import {
  BASELINE_STATE_PHRASES,
  capabilityDependentTools,
  drifted,
  driftText,
  FINDING_PRESENTATION,
  findingSentence,
  findingsOf,
  gates,
  incompleteExplanation,
  incompleteSentence,
  outcomeOf,
  resolvedSentence,
} from "./phrases.ts";
import type { GuidanceReport } from "./types.ts";

/** Escapes a workflow command's message. */
function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a workflow command's property value. */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** One workflow command line: `::NAME title=TITLE::MESSAGE`, escaped. */
export function workflowCommand(
  name: "warning" | "error" | "notice",
  title: string,
  message: string,
): string {
  return `::${name} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/**
 * One `::warning` per review candidate (with a baseline, per new one only), one `::error` per
 * defect and per incomplete profile, with a baseline a `::notice` per profile whose catalog
 * changed, and a final `::notice` with the result.
 */
export function renderGithub(report: GuidanceReport): string {
  const title = `mcpeval guidance (${report.server})`;
  const lines: string[] = [];
  for (const profile of report.profiles) {
    if (!profile.complete) {
      lines.push(
        workflowCommand(
          "error",
          `${title}: profile incomplete`,
          `${incompleteSentence(profile)}. ${incompleteExplanation(profile.incomplete)}`,
        ),
      );
    }
  }
  for (const drift of report.baseline?.profiles ?? []) {
    if (drifted(drift)) {
      lines.push(
        workflowCommand(
          "notice",
          `${title}: catalog drift`,
          `${drift.profile}: ${driftText(drift)}`,
        ),
      );
    }
  }
  for (const finding of findingsOf(report)) {
    // An acknowledged candidate (the baseline has it) is not announced again.
    if (!gates(finding) && finding.baseline_state === "unchanged") continue;
    lines.push(
      workflowCommand(
        gates(finding) ? "error" : "warning",
        `${title}: ${finding.kind}`,
        `${findingSentence(finding, report)}. ${finding.hint}`,
      ),
    );
  }
  const outcome = outcomeOf(report);
  lines.push(workflowCommand("notice", title, `Result: ${outcome.status}: ${outcome.detail}`));
  return lines.join("\n") + "\n";
}

/** Escapes text for a Markdown table cell or paragraph. */
export function md(text: string): string {
  return text.replace(/[\\`*_|<>[\]]/g, (char) => `\\${char}`);
}

/** Tool names as Markdown code, or a dash. */
function tools(names: readonly string[]): string {
  return names.length === 0 ? "-" : names.map((name) => `\`${name}\``).join(", ");
}

/** The Markdown summary: result, profile table, drift, candidates, defects, resolved. */
export function renderGithubSummary(report: GuidanceReport): string {
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
  }
  const findings = findingsOf(report);
  for (const kind of FINDING_KINDS) {
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
      `### ${FINDING_PRESENTATION[kind].heading} (${ofKind.length})`,
      "",
      `| Profile | ${toolColumn} | Available in |${state}`,
      `| --- | --- | --- |${baseline ? " --- |" : ""}`,
    );
    for (const f of ofKind) {
      const cell = f.baseline_state === undefined
        ? ""
        : ` ${BASELINE_STATE_PHRASES[f.baseline_state]} |`;
      lines.push(
        `| ${f.profile} | \`${f.tool}\` | ${
          f.available_in.join(", ") || "no selected profile"
        } |${cell}`,
      );
    }
    lines.push("", md(RULES[kind].hint));
  }
  if (baseline && baseline.resolved.length > 0) {
    lines.push("", `### Resolved since the baseline (${baseline.resolved.length})`, "");
    for (const finding of baseline.resolved) lines.push(`- ${md(resolvedSentence(finding))}`);
  }
  return lines.join("\n") + "\n\n";
}
