/**
 * The fleet GitHub Actions renderers: every server's workflow commands, an error per server not
 * checked and a final notice; the step summary has a table of every server first.
 *
 * @module
 */
import { md, renderGithub, renderGithubSummary, workflowCommand } from "../github.ts";
import { fleetOutcome, notCheckedText, SUMMARY_HEADER, summaryRows } from "./phrases.ts";
import type { FleetReport } from "./types.ts";

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

/** The Markdown step summary: the result, a table of every server, then each server's summary. */
export function renderFleetGithubSummary(fleet: FleetReport): string {
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
    if (server.checked) lines.push(renderGithubSummary(server.report).trimEnd(), "");
    else {
      lines.push(
        `## mcpeval guidance: ${md(server.name)}`,
        "",
        `**${md(notCheckedText(server))}**: ${md(server.hint)}`,
        "",
      );
    }
  }
  return lines.join("\n") + "\n";
}
