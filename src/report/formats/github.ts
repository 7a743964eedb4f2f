/**
 * The GitHub Actions format: workflow commands (annotations) for the log, for a run of one
 * server or of a config file's servers.
 *
 * @module
 */
import {
  drifted,
  driftText,
  findingSentence,
  findingsOf,
  gates,
  incompleteExplanation,
  incompleteSentence,
  outcomeOf,
  profilesDifferSentence,
} from "../phrases.ts";
import type { FleetReport } from "../fleet/types.ts";
import { fleetOutcome, notCheckedText } from "../fleet/phrases.ts";
import type { RunReport } from "../run.ts";
import type { GuidanceReport } from "../types.ts";

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
  const differ = report.baseline?.profiles_differ;
  if (differ) {
    lines.push(
      workflowCommand("notice", `${title}: baseline profiles`, profilesDifferSentence(differ)),
    );
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

/** Workflow commands for every server, then the fleet's result as a notice. */
export function renderFleetGithub(fleet: FleetReport): string {
  const lines: string[] = [];
  for (const server of fleet.servers) {
    if (server.checked) {
      lines.push(renderGithub(server.report).trimEnd());
    } else {
      lines.push(
        workflowCommand(
          "error",
          `mcpeval guidance (${server.name}): not checked`,
          `${server.name}: ${notCheckedText(server)}. ${server.hint}`,
        ),
      );
    }
  }
  const outcome = fleetOutcome(fleet);
  lines.push(
    workflowCommand(
      "notice",
      `mcpeval guidance (config ${fleet.config_format})`,
      `Result: ${outcome.status}: ${outcome.detail}`,
    ),
  );
  return lines.join("\n") + "\n";
}

/** The run as workflow commands. */
export function render(run: RunReport): string {
  return run.kind === "server" ? renderGithub(run.report) : renderFleetGithub(run.fleet);
}
