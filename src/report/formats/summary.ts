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
  knows,
  notListedSentence,
  outcomeOf,
  profilesDifferSentence,
  resolvedSentence,
  statePhrase,
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

/**
 * The Markdown summary: result, profile table, drift, defects, candidates, resolved; in pieces
 * of lines, each line with its line break, and a blank line at the end. Linear in the findings.
 */
function* serverSummary(report: GuidanceReport<ReportIds>): Generator<string> {
  const outcome = outcomeOf(report);
  let lines = [
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
  /** The lines so far as one piece. */
  const flush = () => {
    const piece = lines.join("\n") + "\n";
    lines = [];
    return piece;
  };
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
      if (lines.length >= PIECE_LINES) yield flush();
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
  const byKind = new Map<string, ReturnType<typeof findingsOf>>();
  for (const finding of findingsOf(report)) {
    const ofKind = byKind.get(finding.kind);
    if (ofKind) ofKind.push(finding);
    else byKind.set(finding.kind, [finding]);
  }
  // Defects (the kinds that gate) before review candidates, then kinds this version does not
  // know (in the order they first appear).
  for (const kind of [...DEFECTS_FIRST, ...[...byKind.keys()].filter((k) => !knows(RULES, k))]) {
    const ofKind = byKind.get(kind) ?? [];
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
      if (lines.length >= PIECE_LINES) yield flush();
    }
    // A required tool that a config file's filter hides has its own hint.
    const filtered = ofKind.some((f) => f.kind === "required-tool-unavailable" && "rule" in f);
    if (filtered) lines.push("", md(FILTERED_REQUIRED_HINT));
    if (!filtered || ofKind.some((f) => !("rule" in f))) lines.push("", md(kindHint(kind)));
  }
  if (baseline && baseline.resolved.length > 0) {
    lines.push("", `### Resolved since the baseline (${baseline.resolved.length})`, "");
    for (const finding of baseline.resolved) {
      lines.push(`- ${md(resolvedSentence(finding))}`);
      if (lines.length >= PIECE_LINES) yield flush();
    }
    if (baseline.resolved_not_listed !== undefined) {
      lines.push(`- ${md(notListedSentence(baseline.resolved_not_listed))}`);
    }
  }
  yield flush() + "\n";
}

/**
 * The Markdown step summary: the result, a table of every server, then each server's summary;
 * its servers read three times, one at a time (the result, the table, the summaries).
 */
function* fleetSummary(fleet: FleetStream<ReportIds>): Generator<string> {
  const tally = new FleetTally();
  for (const server of fleet.servers) {
    tally.add(server);
    // Nothing to write yet: an empty piece lets the writer give the event loop its turn.
    yield "";
  }
  const outcome = tally.outcome(fleet);
  yield [
    `## mcpeval guidance: config ${fleet.config_format}`,
    "",
    `**Result: ${outcome.status}**: ${md(outcome.detail)}`,
    "",
    `| ${SUMMARY_HEADER.map((title) => title[0].toUpperCase() + title.slice(1)).join(" | ")} |`,
    `| ${SUMMARY_HEADER.map(() => "---").join(" | ")} |`,
  ].join("\n") + "\n";
  let rows: string[] = [];
  for (const server of fleet.servers) {
    rows.push(`| ${summaryRow(server).map(md).join(" | ")} |\n`);
    if (rows.length >= PIECE_LINES) {
      yield rows.join("");
      rows = [];
    }
  }
  yield rows.join("") + "\n";
  for (const server of fleet.servers) {
    if (server.checked) {
      // Each server's summary ends with a blank line; here it is followed by one more.
      yield* serverSummary(server.report);
    } else {
      yield [
        `## mcpeval guidance: ${md(server.name)}`,
        "",
        `**${md(notCheckedText(server))}**: ${md(notCheckedHint(server))}`,
        "",
      ].join("\n") + "\n";
    }
  }
}

/** How many lines a summary gathers before it yields them as one piece. */
const PIECE_LINES = 64;

/** The source as a Markdown step summary, in pieces (a fleet's servers read one at a time). */
export function render(source: RenderSource): Iterable<string> {
  return source.kind === "server" ? serverSummary(source.report) : fleetSummary(source.fleet);
}
