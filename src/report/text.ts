/**
 * The text renderer: the report's facts for a person.
 *
 * @module
 */
import { styleText } from "node:util";
import { FINDING_KINDS, RULES } from "../analysis/rules.ts";
import {
  capabilityDependentTools,
  FINDING_PRESENTATION,
  findingsOf,
  incompleteExplanation,
  outcomeOf,
  reasonText,
} from "./phrases.ts";
import type { GuidanceReport } from "./types.ts";

/** How to render text. */
export interface TextStyle {
  /** Colour with ANSI escapes (only on a terminal, never with NO_COLOR). */
  readonly color: boolean;
}

type Format = Parameters<typeof styleText>[0];

const RESULT_COLORS: Record<string, Format> = {
  passed: ["bold", "green"],
  failed: ["bold", "red"],
  incomplete: ["bold", "magenta"],
};

/** The report as text. Pure: the same report gives the same text. */
export function renderText(report: GuidanceReport, style: TextStyle = { color: false }): string {
  const paint = (format: Format, text: string) =>
    style.color ? styleText(format, text, { validateStream: false }) : text;
  const lines: string[] = [];
  const heading = (text: string) => lines.push("", paint("bold", text));

  lines.push(
    `${paint("bold", "mcpeval guidance")}  server ${report.server}`,
    `transport ${report.transport}, protocol ${report.protocol_version}, settle window ${report.settings.settle_ms} ms, timeout ${report.settings.timeout_ms} ms`,
  );

  heading("Profiles");
  const rows = report.profiles.map((profile) => [
    profile.profile,
    profile.tool_count === null ? "-" : String(profile.tool_count),
    profile.instructions_present === null ? "-" : profile.instructions_present ? "yes" : "no",
    profile.complete ? "complete" : `incomplete: ${reasonText(profile.incomplete)}`,
  ]);
  lines.push(...table(["profile", "tools", "instructions", "discovery"], rows));
  for (const profile of report.profiles) {
    if (!profile.complete) {
      lines.push(`  ${profile.profile}: ${incompleteExplanation(profile.incomplete)}`);
    }
  }

  const dependent = capabilityDependentTools(report);
  if (dependent.length > 0) {
    heading("Tools that depend on client capabilities");
    for (const [tool, profiles] of dependent) lines.push(`  ${tool}: ${profiles.join(", ")}`);
  }

  const findings = findingsOf(report);
  for (const kind of FINDING_KINDS) {
    const ofKind = findings.filter((finding) => finding.kind === kind);
    if (ofKind.length === 0) continue;
    const { heading: title, tag, sentence } = FINDING_PRESENTATION[kind];
    heading(`${title} (${ofKind.length})`);
    const color = RULES[kind].gates ? "red" : "yellow";
    for (const finding of ofKind) lines.push(`  ${paint(color, tag)} ${sentence(finding)}`);
    lines.push(`  hint: ${RULES[kind].hint}`);
  }

  const outcome = outcomeOf(report);
  lines.push(
    "",
    `${paint(RESULT_COLORS[outcome.status], `Result: ${outcome.status}`)}: ${outcome.detail}`,
  );
  return lines.join("\n") + "\n";
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length))
  );
  const line = (cells: string[]) =>
    "  " + cells.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd();
  return [line(header), ...rows.map(line)];
}
