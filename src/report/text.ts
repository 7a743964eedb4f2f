/**
 * The text renderer: the report's facts for a person.
 *
 * @module
 */
import { styleText } from "node:util";
import type { GuidanceReport } from "./schema.ts";

/** How to render text. */
export interface TextStyle {
  /** Colour with ANSI escapes (only on a terminal, never with NO_COLOR). */
  readonly color: boolean;
}

type Format = Parameters<typeof styleText>[0];

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
    profile.complete
      ? "complete"
      : `incomplete: ${profile.incomplete.reason}${
        profile.incomplete.http_status === undefined
          ? ""
          : ` (HTTP ${profile.incomplete.http_status})`
      }`,
  ]);
  lines.push(...table(["profile", "tools", "instructions", "discovery"], rows));
  for (const profile of report.profiles) {
    if (!profile.complete) lines.push(`  ${profile.profile}: ${profile.incomplete.hint}`);
  }

  const dependent = capabilityDependentTools(report);
  if (dependent.length > 0) {
    heading("Tools that depend on client capabilities");
    for (const [tool, profiles] of dependent) lines.push(`  ${tool}: ${profiles.join(", ")}`);
  }

  if (report.candidates.length > 0) {
    heading(`Review candidates (${report.candidates.length})`);
    for (const candidate of report.candidates) {
      lines.push(
        `  ${
          paint("yellow", "review")
        } ${candidate.profile}: \`${candidate.tool}\` is referenced but not listed; available in ${
          candidate.available_in.join(", ")
        }`,
      );
    }
    lines.push(`  hint: ${report.candidates[0].hint}`);
  }

  if (report.defects.length > 0) {
    heading(`Defects (${report.defects.length})`);
    for (const defect of report.defects) {
      const where = defect.available_in.length === 0
        ? "listed in no selected profile"
        : `available in ${defect.available_in.join(", ")}`;
      lines.push(
        `  ${
          paint("red", "defect")
        } ${defect.profile}: required tool ${defect.tool} is missing; ${where}`,
      );
    }
    lines.push(`  hint: ${report.defects[0].hint}`);
  }

  lines.push("", resultLine(report, paint));
  return lines.join("\n") + "\n";
}

function resultLine(
  report: GuidanceReport,
  paint: (format: Format, text: string) => string,
): string {
  if (!report.complete) {
    const incomplete = report.profiles.filter((profile) => !profile.complete).length;
    return `${paint(["bold", "magenta"], "Result: incomplete")}: discovery did not complete for ${
      plural(incomplete, "profile")
    }; no findings are reported (exit 3)`;
  }
  const candidates = `${
    plural(report.candidates.length, "review candidate")
  } (never fail the gate)`;
  if (report.passed) {
    const required = report.required_tools.length === 0
      ? "no required tools declared"
      : `all ${plural(report.required_tools.length, "required tool")} listed in every profile`;
    return `${paint(["bold", "green"], "Result: passed")}: ${required}; ${candidates}`;
  }
  return `${paint(["bold", "red"], "Result: failed")}: ${
    plural(report.defects.length, "required-tool defect")
  }; ${candidates} (exit 1)`;
}

/** Tools listed by some but not all complete profiles, with the profiles that list them. */
function capabilityDependentTools(report: GuidanceReport): [string, string[]][] {
  const complete = report.profiles.filter((profile) => profile.tools !== null);
  const where = new Map<string, string[]>();
  for (const profile of complete) {
    for (const tool of profile.tools ?? []) {
      where.set(tool, [...(where.get(tool) ?? []), profile.profile]);
    }
  }
  return [...where].filter(([, profiles]) => profiles.length < complete.length)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length))
  );
  const line = (cells: string[]) =>
    "  " + cells.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd();
  return [line(header), ...rows.map(line)];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
