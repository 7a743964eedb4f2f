/**
 * The GitHub Actions renderers: workflow commands (annotations) for the log, and a Markdown
 * summary for `GITHUB_STEP_SUMMARY`.
 *
 * @module
 */
import {
  candidateSentence,
  capabilityDependentTools,
  defectSentence,
  incompleteSentence,
  outcomeOf,
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

function command(name: "warning" | "error" | "notice", title: string, message: string): string {
  return `::${name} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/**
 * One `::warning` per review candidate, one `::error` per defect and per incomplete profile,
 * and a final `::notice` with the result.
 */
export function renderGithub(report: GuidanceReport): string {
  const title = `mcpeval guidance (${report.server})`;
  const lines: string[] = [];
  for (const profile of report.profiles) {
    if (!profile.complete) {
      lines.push(
        command(
          "error",
          `${title}: profile incomplete`,
          `${incompleteSentence(profile)}. ${profile.incomplete.hint}`,
        ),
      );
    }
  }
  for (const candidate of report.candidates) {
    lines.push(
      command(
        "warning",
        `${title}: ${candidate.kind}`,
        `${candidateSentence(candidate)}. ${candidate.hint}`,
      ),
    );
  }
  for (const defect of report.defects) {
    lines.push(
      command("error", `${title}: ${defect.kind}`, `${defectSentence(defect)}. ${defect.hint}`),
    );
  }
  const outcome = outcomeOf(report);
  lines.push(command("notice", title, `Result: ${outcome.status}: ${outcome.detail}`));
  return lines.join("\n") + "\n";
}

/** Escapes text for a Markdown table cell or paragraph. */
function md(text: string): string {
  return text.replace(/[\\`*_|<>[\]]/g, (char) => `\\${char}`);
}

/** The Markdown summary: result, profile table, candidates, defects. */
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
  if (report.candidates.length > 0) {
    lines.push(
      "",
      `### Review candidates (${report.candidates.length})`,
      "",
      "| Profile | Tool | Available in |",
      "| --- | --- | --- |",
    );
    for (const c of report.candidates) {
      lines.push(`| ${c.profile} | \`${c.tool}\` | ${c.available_in.join(", ")} |`);
    }
    lines.push("", md(report.candidates[0].hint));
  }
  if (report.defects.length > 0) {
    lines.push(
      "",
      `### Defects (${report.defects.length})`,
      "",
      "| Profile | Required tool | Available in |",
      "| --- | --- | --- |",
    );
    for (const d of report.defects) {
      lines.push(
        `| ${d.profile} | \`${d.tool}\` | ${d.available_in.join(", ") || "no selected profile"} |`,
      );
    }
    lines.push("", md(report.defects[0].hint));
  }
  return lines.join("\n") + "\n\n";
}
