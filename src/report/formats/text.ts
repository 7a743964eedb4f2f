/**
 * The text format, for people at a terminal or reading a CI log: one server's report; for a
 * config run, a summary table of every server, a section per server, then the result. Lines
 * hold only validated identifiers, fixed phrases and numbers.
 *
 * @module
 */
import { styleText } from "node:util";
import { FILTERED_REQUIRED_HINT } from "../../analysis/rules.ts";
import {
  capabilityDependentTools,
  clientFacts,
  countedHeading,
  didYouMean,
  driftText,
  filteredPhrase,
  findingSentence,
  findingsOf,
  gates,
  incompleteExplanation,
  kindHint,
  kindsOf,
  notListedSentence,
  observedSentence,
  outcomeOf,
  plural,
  presentationOf,
  profilesDifferSentence,
  reasonText,
  resolvedSentence,
} from "../phrases.ts";
import {
  FleetTally,
  notCheckedHint,
  notCheckedText,
  SUMMARY_HEADER,
  summaryRow,
} from "../fleet/phrases.ts";
import type { FleetStream } from "../fleet/types.ts";
import type { RenderSource } from "../run.ts";
import type { GuidanceReport, ReportIds } from "../types.ts";

/** How to render text. */
export interface TextStyle {
  /** Colour with ANSI escapes (only on a terminal, never with NO_COLOR). */
  readonly color: boolean;
  /** The widest a line may be, in columns: the terminal's width, or 100 (the default). */
  readonly width?: number;
}

/** The width of text when none is given (not a terminal). */
export const TEXT_WIDTH = 100;

/** Narrower than this, text is laid out as if it were this wide. */
const MIN_WIDTH = 40;

type Format = Parameters<typeof styleText>[0];

const RESULT_COLORS: Record<string, Format> = {
  passed: ["bold", "green"],
  failed: ["bold", "red"],
  incomplete: ["bold", "magenta"],
};

/** How many lines a renderer gathers before it yields them as one piece. */
const PIECE_LINES = 64;

/** Adds every item of `items` to `lines` (never as spread arguments, which have a limit). */
function pushAll(lines: string[], items: readonly string[]): void {
  for (const item of items) lines.push(item);
}

/**
 * The report as text, in pieces of whole lines (each line with its line break). Pure: the same
 * report and style give the same text. No line is wider than `style.width` (except a single
 * tool name longer than the line, which is cut into parts). Linear in the findings.
 */
function* serverText(report: GuidanceReport<ReportIds>, style: TextStyle): Generator<string> {
  const width = widthOf(style);
  const paint = (format: Format, text: string) =>
    style.color ? styleText(format, text, { validateStream: false }) : text;
  let lines: string[] = [];
  /** The lines gathered so far, as one piece (none when there are none). */
  function* flush(least = 1): Generator<string> {
    if (lines.length < least) return;
    const piece = lines.join("\n") + "\n";
    lines = [];
    yield piece;
  }
  /** Adds `text` wrapped to the width; continuation lines are indented by `hang` spaces. */
  const add = (text: string, indent = 0, hang = indent) =>
    pushAll(lines, wrap(text, width, indent, hang));
  /** Adds `prefix` then `text` ({@linkcode alignedLines}). */
  const addAligned = (prefix: string, text: string) =>
    pushAll(lines, alignedLines(prefix, text, width));
  /**
   * Adds one row of a tool column `column` wide: the tool, then `text` in the column after it. A
   * tool longer than the column stands on its own line(s), and `text` follows in the column on
   * the next, so that the column stays where the other rows have it.
   */
  const addToolRow = (tool: string, column: number, text: string, color?: Format) => {
    const name = (value: string) => color ? paint(color, value) : value;
    if (tool.length <= column) {
      addAligned(`${name(tool.padEnd(column))}  `, text);
      return;
    }
    for (const part of wrap(tool, width, 2, 4)) lines.push(name(part));
    const start = Math.min(2 + column + 2, width - 24);
    add(text, start, start);
  };
  const heading = (text: string) => {
    lines.push("");
    for (const line of wrap(text, width, 0, 2)) lines.push(paint("bold", line));
  };

  const title = `${paint("bold", "mcpeval guidance")}  server ${report.server}`;
  if (visible(title) <= width) lines.push(title);
  else add(title, 0, 2);
  add(
    `transport ${report.transport}, protocol ${report.protocol_version}, settle window ${report.settings.settle_ms} ms, timeout ${report.settings.timeout_ms} ms`,
  );

  heading("Profiles");
  const rows = report.profiles.map((profile) => [
    profile.profile,
    profile.tool_count === null ? "-" : String(profile.tool_count),
    profile.instructions_present === null ? "-" : profile.instructions_present ? "yes" : "no",
    profile.complete ? "complete" : `incomplete: ${reasonText(profile.incomplete)}`,
  ]);
  for (const [prefix, last] of table(["profile", "tools", "instructions", "discovery"], rows)) {
    addAligned(prefix, last);
  }
  // One explanation per cause, with the profiles it applies to.
  const explained = new Map<string, string[]>();
  for (const profile of report.profiles) {
    if (profile.complete) continue;
    const text = incompleteExplanation(profile.incomplete);
    const profiles = explained.get(text);
    if (profiles) profiles.push(profile.profile);
    else explained.set(text, [profile.profile]);
  }
  for (const [text, profiles] of explained) add(`${profiles.join(", ")}: ${text}`, 2, 4);
  for (const profile of report.profiles) {
    for (const fact of clientFacts(profile)) add(fact, 2, 4);
  }
  // An observed profile: what the real client did, in numbers.
  for (const profile of report.profiles) {
    const sentence = observedSentence(profile);
    if (sentence !== undefined) add(sentence, 2, 4);
  }
  yield* flush();

  const dependent = capabilityDependentTools(report);
  if (dependent.length > 0) {
    heading("Tools that depend on client capabilities");
    const column = toolColumn(dependent.map(([tool]) => tool));
    for (const [tool, profiles] of dependent) {
      addToolRow(tool, column, `listed in ${profiles.join(", ")}`);
      yield* flush(PIECE_LINES);
    }
  }

  const { baseline } = report;
  if (baseline) {
    heading(
      `Baseline: catalog drift${
        baseline.require_baseline_tools ? " (every baseline tool is required)" : ""
      }`,
    );
    for (const drift of baseline.profiles) {
      add(`${drift.profile}: ${driftText(drift)}`, 2, 4);
      yield* flush(PIECE_LINES);
    }
    if (baseline.profiles_differ) add(`${profilesDifferSentence(baseline.profiles_differ)}.`, 2, 4);
  }
  yield* flush();

  const findings = findingsOf(report);
  const byKind = findingsByKind(findings);
  // The known kinds in rule order, then those this version does not know.
  for (const kind of kindsOf(findings)) {
    const ofKind = byKind.get(kind) ?? [];
    if (kind === "referenced-tool-unavailable") {
      // One line per tool: the profiles whose instructions name it, the profiles that list it.
      const byTool = groupByTool(ofKind);
      heading(
        `Review candidates: ${ofKind.length}, for ${
          plural(byTool.length, "tool")
        } named in instructions of profiles that do not list ${
          byTool.length === 1 ? "it" : "them"
        }`,
      );
      const column = toolColumn(byTool.map(([tool]) => tool));
      for (const [tool, found] of byTool) {
        addToolRow(
          tool,
          column,
          `named by ${found.map((f) => f.profile).join(", ")}; listed in ${
            found[0].available_in.join(", ")
          }${statesText(found, report)}`,
          "yellow",
        );
        yield* flush(PIECE_LINES);
      }
    } else if (kind === "required-tool-unavailable") {
      // One line per required tool: the profiles that miss it, the profiles that list it; or
      // the config file's filter that hides it (its own cause: nothing to suggest).
      const byTool = groupByTool(ofKind);
      const filterOf = (found: readonly object[]) =>
        found.map((f) => "rule" in f ? f.rule : undefined).find((rule) => typeof rule === "string");
      const hidden = byTool.filter(([, found]) => filterOf(found) !== undefined).length;
      const what = hidden === 0
        ? "missing"
        : hidden === byTool.length
        ? "hidden"
        : "missing or hidden";
      heading(`Defects: ${ofKind.length}, for ${plural(byTool.length, "required tool")} ${what}`);
      const column = toolColumn(byTool.map(([tool]) => tool));
      for (const [tool, found] of byTool) {
        const profiles = found.map((f) => f.profile).join(", ");
        const filter = filterOf(found);
        const listed = found[0].available_in.length === 0
          ? `listed in no selected profile${didYouMean(tool, report)}`
          : `listed in ${found[0].available_in.join(", ")}`;
        addToolRow(
          tool,
          column,
          `${
            filter === undefined
              ? `missing from ${profiles}; ${listed}`
              : `listed in ${profiles} but ${filteredPhrase(filter)}`
          }${statesText(found, report)}`,
          "red",
        );
        yield* flush(PIECE_LINES);
      }
      if (hidden > 0) add(`hint: ${FILTERED_REQUIRED_HINT}`, 2, 8);
      if (hidden === byTool.length) continue;
    } else {
      const { tag } = presentationOf(kind);
      heading(countedHeading(kind, ofKind.length));
      const color = gates(ofKind[0], report) ? "red" : "yellow";
      for (const finding of ofKind) {
        addAligned(`${paint(color, tag)} `, findingSentence(finding, report));
        yield* flush(PIECE_LINES);
      }
    }
    // A list grouped by tool names several profiles per line: its hint speaks of each.
    const grouped = kind === "referenced-tool-unavailable" || kind === "required-tool-unavailable";
    add(`hint: ${(grouped && presentationOf(kind).groupHint) || kindHint(kind)}`, 2, 8);
  }

  if (baseline && baseline.resolved.length > 0) {
    heading(`Resolved since the baseline (${baseline.resolved.length})`);
    for (const finding of baseline.resolved) {
      addAligned(`${paint("green", "resolved")} `, resolvedSentence(finding));
      yield* flush(PIECE_LINES);
    }
    if (baseline.resolved_not_listed !== undefined) {
      add(notListedSentence(baseline.resolved_not_listed), 2, 4);
    }
  }

  lines.push("");
  pushAll(lines, resultLines(outcomeOf(report), width, paint));
  yield* flush();
}

/** Findings by kind, each kind's in report order (one pass). */
function findingsByKind<T extends { readonly kind: string }>(
  findings: readonly T[],
): Map<string, T[]> {
  const byKind = new Map<string, T[]>();
  for (const finding of findings) {
    const ofKind = byKind.get(finding.kind);
    if (ofKind) ofKind.push(finding);
    else byKind.set(finding.kind, [finding]);
  }
  return byKind;
}

/**
 * `prefix` (kept as it is, after 2 spaces) then `text`, wrapped under itself; when that would
 * leave `text` fewer than 24 columns, `text` starts on the next line instead.
 */
function alignedLines(prefix: string, text: string, width: number): string[] {
  const start = 2 + visible(prefix);
  // A row that fits is printed as it is, its columns aligned with the rows above it.
  if (start + visible(text) <= width) return [`  ${prefix}${text}`.trimEnd()];
  if (start > width - 24) {
    // The columns stay as they are (never re-wrapped, which would lose their alignment).
    const columns = `  ${prefix}`.trimEnd();
    const lines = visible(columns) <= width ? [columns] : wrap(prefix.trimEnd(), width, 2, 4);
    pushAll(lines, wrap(text, width, 6, 6));
    return lines;
  }
  const wrapped = wrap(text, width, start, start);
  wrapped[0] = `  ${prefix}${wrapped[0].slice(start)}`;
  return wrapped;
}

/** The width text is laid out in: the terminal's (at most 100), or 100; never under 40. */
function widthOf(style: TextStyle): number {
  return Math.max(MIN_WIDTH, Math.min(style.width ?? TEXT_WIDTH, TEXT_WIDTH));
}

/** `Result: STATUS: DETAIL`, wrapped to `width` (continued 2 spaces in), its label coloured. */
function resultLines(
  outcome: { readonly status: string; readonly detail: string },
  width: number,
  paint: (format: Format, text: string) => string,
): string[] {
  const result = wrap(`Result: ${outcome.status}: ${outcome.detail}`, width, 0, 2);
  const label = `Result: ${outcome.status}`;
  result[0] = paint(RESULT_COLORS[outcome.status], label) + result[0].slice(label.length);
  return result;
}

/**
 * With a baseline, which of a tool's findings are new: "; new since the baseline in P, Q", or
 * "; all in the baseline"; without one, "".
 */
function statesText(
  found: readonly { readonly profile: string; readonly baseline_state?: string }[],
  report: GuidanceReport<ReportIds>,
): string {
  if (report.baseline === undefined) return "";
  const fresh = found.flatMap((f) => f.baseline_state === "new" ? [f.profile] : []);
  if (fresh.length === 0) return found.length === 1 ? "; in the baseline" : "; all in the baseline";
  return fresh.length === found.length
    ? "; new since the baseline"
    : `; new since the baseline in ${fresh.join(", ")}`;
}

/** Findings grouped by tool (sorted), each group in profile order as the report lists them. */
function groupByTool<T extends { readonly tool: string }>(findings: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const finding of findings) {
    const group = groups.get(finding.tool);
    if (group) group.push(finding);
    else groups.set(finding.tool, [finding]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The width of an aligned tool column: the longest name of at most 28 characters. */
function toolColumn(tools: readonly string[]): number {
  let column = 0;
  for (const tool of tools) if (tool.length <= 28 && tool.length > column) column = tool.length;
  return column;
}

/** Rows of aligned columns, each as the columns but the last (padded) and the last one. */
function table(header: string[], rows: string[][]): [string, string][] {
  const widths = header.map((title) => title.length);
  for (const row of rows) widen(widths, row);
  return [tableLine(header, widths), ...rows.map((row) => tableLine(row, widths))];
}

/** Widens `widths` (one per column) to fit `cells`. */
function widen(widths: number[], cells: readonly string[]): void {
  for (const [column, cell] of cells.entries()) {
    if (cell.length > widths[column]) widths[column] = cell.length;
  }
}

/** One row of a table: the columns but the last (padded to `widths`), and the last one. */
function tableLine(cells: readonly string[], widths: readonly number[]): [string, string] {
  return [
    cells.slice(0, -1).map((cell, column) => cell.padEnd(widths[column]) + "  ").join(""),
    cells[cells.length - 1],
  ];
}

/**
 * `text` broken at spaces into lines of at most `width` columns: the first indented by `indent`
 * spaces, the others by `hang`. A word longer than a line is cut. ANSI escapes take no columns.
 */
export function wrap(text: string, width: number, indent: number, hang: number): string[] {
  // At least 10 columns of text on every line.
  indent = Math.min(indent, width - 10);
  hang = Math.min(hang, width - 10);
  const lines: string[] = [];
  let line = " ".repeat(indent);
  let used = indent;
  let empty = true;
  for (let word of text.split(" ")) {
    const size = visible(word);
    if (!empty && used + 1 + size > width) {
      lines.push(line);
      line = " ".repeat(hang);
      used = hang;
      empty = true;
    }
    // A word that fits no line (a very long tool name) is cut into parts.
    while (visible(word) > width - used && word === stripAnsi(word)) {
      if (!empty) {
        lines.push(line);
        line = " ".repeat(hang);
        used = hang;
      }
      const room = width - used;
      lines.push(line + word.slice(0, room));
      word = word.slice(room);
      line = " ".repeat(hang);
      used = hang;
      empty = true;
    }
    if (word === "" && !empty) continue;
    line += (empty ? "" : " ") + word;
    used += (empty ? 0 : 1) + visible(word);
    empty = false;
  }
  lines.push(line);
  return lines.map((l) => l.trimEnd());
}

const ANSI = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;]*m`, "g");

function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

function visible(text: string): number {
  return stripAnsi(text).length;
}

/**
 * The fleet report as text, in pieces of whole lines: its servers are read three times, one at
 * a time (the summary table's widths and the result, its rows, each server's section), never
 * all at once. Pure.
 */
function* fleetText(fleet: FleetStream<ReportIds>, style: TextStyle): Generator<string> {
  const width = widthOf(style);
  const paint = (format: Format, text: string) =>
    style.color ? styleText(format, text, { validateStream: false }) : text;
  const tally = new FleetTally();
  const widths = SUMMARY_HEADER.map((title) => title.length);
  let count = 0;
  for (const server of fleet.servers) {
    count++;
    tally.add(server);
    widen(widths, summaryCells(summaryRow(server)));
    // Nothing to write yet: an empty piece lets the writer give the event loop its turn.
    yield "";
  }
  yield [
    `${paint("bold", "mcpeval guidance")}  config ${fleet.config_format}, ${count} server${
      count === 1 ? "" : "s"
    }`,
    "",
    paint("bold", "Servers"),
    ...summaryLines(SUMMARY_HEADER, widths, width, true),
  ].join("\n") + "\n";
  let lines: string[] = [];
  for (const server of fleet.servers) {
    pushAll(lines, summaryLines(summaryRow(server), widths, width));
    if (lines.length >= PIECE_LINES) {
      yield lines.join("\n") + "\n";
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join("\n") + "\n";
  for (const server of fleet.servers) {
    yield `\n${
      paint("bold", `== ${server.name} ${"=".repeat(Math.max(3, 60 - server.name.length))}`)
    }\n`;
    if (server.checked) {
      yield* serverText(server.report, style);
    } else {
      yield [
        `${paint("bold", "mcpeval guidance")}  server ${server.name}`,
        ...wrap(notCheckedText(server), width, 2, 4),
        ...wrap(`hint: ${notCheckedHint(server)}`, width, 2, 8),
      ].join("\n") + "\n";
    }
  }
  yield ["", ...resultLines(tally.outcome(fleet), width, paint)].join("\n") + "\n";
}

/** A server name longer than a tool column (28) stands on its own line above its row. */
function longName(row: readonly string[]): boolean {
  return row[0].length > 28;
}

/** A summary row's cells as the table aligns them: a long name's cell left empty. */
function summaryCells(row: readonly string[]): readonly string[] {
  return longName(row) ? ["", ...row.slice(1)] : row;
}

/**
 * One row of the fleet's summary table (or its header) in `width` columns, aligned to
 * `widths`: a server name longer than a tool column (28) stands on its own line above its row,
 * so that it does not widen every row; a last cell that does not fit wraps under itself.
 */
function summaryLines(
  row: readonly string[],
  widths: readonly number[],
  width: number,
  header = false,
): string[] {
  const [head, last] = tableLine(header ? row : summaryCells(row), widths);
  const lines = !header && longName(row) ? [`  ${row[0]}`] : [];
  pushAll(lines, alignedLines(head, last, width));
  return lines;
}

/**
 * The source as text, in pieces of whole lines (colour and width from `style`; a fleet's
 * servers read one at a time). Pure.
 *
 * @example
 * ```ts
 * const text = [...render({ kind: "server", report }, { color: false, width: 80 })].join("");
 * ```
 */
export function render(
  source: RenderSource,
  style: TextStyle = { color: false },
): Iterable<string> {
  return source.kind === "server"
    ? serverText(source.report, style)
    : fleetText(source.fleet, style);
}
