/**
 * The fleet text renderer: a summary table of every server first, then a section per server
 * (its guidance report, or why it was not checked), then the result.
 *
 * @module
 */
import { styleText } from "node:util";
import { renderText, type TextStyle } from "../text.ts";
import { fleetOutcome, notCheckedText, SUMMARY_HEADER, summaryRows } from "./phrases.ts";
import type { FleetReport } from "./types.ts";

type Style = Parameters<typeof styleText>[0];

const RESULT_COLORS: Record<string, Style> = {
  passed: ["bold", "green"],
  failed: ["bold", "red"],
  incomplete: ["bold", "magenta"],
};

/** The fleet report as text. Pure. */
export function renderFleetText(fleet: FleetReport, style: TextStyle = { color: false }): string {
  const paint = (format: Style, text: string) =>
    style.color ? styleText(format, text, { validateStream: false }) : text;
  const lines = [
    `${
      paint("bold", "mcpeval guidance")
    }  config ${fleet.config_format}, ${fleet.servers.length} server${
      fleet.servers.length === 1 ? "" : "s"
    }`,
    "",
    paint("bold", "Servers"),
    ...table(SUMMARY_HEADER, summaryRows(fleet)),
  ];
  for (const server of fleet.servers) {
    lines.push(
      "",
      paint("bold", `== ${server.name} ${"=".repeat(Math.max(3, 60 - server.name.length))}`),
    );
    if (server.checked) {
      lines.push(renderText(server.report, style).trimEnd());
    } else {
      lines.push(`${paint("bold", "mcpeval guidance")}  server ${server.name}`);
      lines.push(`  ${notCheckedText(server)}`, `  hint: ${server.hint}`);
    }
  }
  const outcome = fleetOutcome(fleet);
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
