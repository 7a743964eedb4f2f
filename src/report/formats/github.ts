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
  outcomeOf,
  profilesDifferSentence,
  reasonText,
} from "../phrases.ts";
import { GITHUB_ANNOTATIONS_PER_LEVEL } from "../../limits.ts";
import type { FleetStream } from "../fleet/types.ts";
import { FleetTally, notCheckedText } from "../fleet/phrases.ts";
import type { RenderSource } from "../run.ts";
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

/** One annotation before it is written: its level, server, what it is about, and its text. */
interface Annotation {
  readonly level: "warning" | "error" | "notice";
  readonly server: string;
  /** What it is about, as its title ends: a finding kind, `profile incomplete`, ... */
  readonly about: string;
  readonly message: string;
  /** A server's result in a fleet: left out when its level is past the limit. */
  readonly optional?: true;
}

/**
 * One `::warning` per review candidate (with a baseline, per new one only), one `::error` per
 * defect and per cause of incomplete profiles (naming every profile it ended), and with a
 * baseline a `::notice` per profile whose catalog changed.
 */
function annotationsOf(report: GuidanceReport): Annotation[] {
  const server = report.server;
  const annotations: Annotation[] = [];
  // Profiles that ended alike (a server that exits at start ends all five) share one error.
  const causes = new Map<string, string[]>();
  for (const profile of report.profiles) {
    if (profile.complete) continue;
    const cause = `incomplete: ${reasonText(profile.incomplete)}. ${
      incompleteExplanation(profile.incomplete)
    }`;
    const profiles = causes.get(cause);
    if (profiles) profiles.push(profile.profile);
    else causes.set(cause, [profile.profile]);
  }
  for (const [cause, profiles] of causes) {
    annotations.push({
      level: "error",
      server,
      about: "profile incomplete",
      message: `${profiles.join(", ")}: ${cause}`,
    });
  }
  for (const drift of report.baseline?.profiles ?? []) {
    if (drifted(drift)) {
      annotations.push({
        level: "notice",
        server,
        about: "catalog drift",
        message: `${drift.profile}: ${driftText(drift)}`,
      });
    }
  }
  const differ = report.baseline?.profiles_differ;
  if (differ) {
    annotations.push({
      level: "notice",
      server,
      about: "baseline profiles",
      message: profilesDifferSentence(differ),
    });
  }
  for (const finding of findingsOf(report)) {
    // An acknowledged candidate (the baseline has it) is not announced again.
    if (!gates(finding) && finding.baseline_state === "unchanged") continue;
    annotations.push({
      level: gates(finding) ? "error" : "warning",
      server,
      about: finding.kind,
      message: `${findingSentence(finding, report)}. ${finding.hint}`,
    });
  }
  return annotations;
}

/**
 * Annotations gathered one server at a time, counted by level: once a level has more than
 * {@linkcode limited} lets through one by one, its optional annotations (which it would leave
 * out) are no longer kept, so that a fleet of any size holds only what is written.
 */
class Annotations {
  /** What is kept, in order. */
  kept: Annotation[] = [];
  readonly #counts = { error: 0, warning: 0, notice: 0 };
  readonly #reserved: { notice: number };

  /** `reserved`: as {@linkcode limited}'s. */
  constructor(reserved: { notice: number }) {
    this.#reserved = reserved;
  }

  /** Whether `level`'s annotations, all of them counted, are within its limit. */
  fits(level: Annotation["level"]): boolean {
    return this.#counts[level] <=
      GITHUB_ANNOTATIONS_PER_LEVEL - (level === "notice" ? this.#reserved.notice : 0);
  }

  /** Adds annotations (counted, and kept unless optional past their level's limit). */
  push(annotations: Iterable<Annotation>): void {
    for (const annotation of annotations) {
      const { level } = annotation;
      const fitted = this.fits(level);
      this.#counts[level]++;
      if (fitted && !this.fits(level)) {
        this.kept = this.kept.filter((kept) => !kept.optional || kept.level !== level);
      }
      if (!annotation.optional || this.fits(level)) this.kept.push(annotation);
    }
  }
}

const SUMMARY_POINTER = "the step summary lists each";

/**
 * The annotations as workflow commands, within GitHub's per-step limits
 * ({@linkcode GITHUB_ANNOTATIONS_PER_LEVEL} of each level, `reserved` of them kept for what
 * follows): a level with more is written one annotation per server, with counts by kind, and
 * past that many servers the last one counts the rest.
 */
function limited(all: readonly Annotation[] | Annotations, reserved: { notice: number }): string[] {
  const fits = (level: Annotation["level"], annotations: readonly Annotation[]) =>
    annotations.filter((annotation) => annotation.level === level).length <=
      GITHUB_ANNOTATIONS_PER_LEVEL - (level === "notice" ? reserved.notice : 0);
  const LEVELS = ["error", "warning", "notice"] as const;
  const fitting = new Set(
    LEVELS.filter((level) => all instanceof Annotations ? all.fits(level) : fits(level, all)),
  );
  const annotations = (all instanceof Annotations ? all.kept : all).filter((annotation) =>
    !annotation.optional || fitting.has(annotation.level)
  );
  const grouped = new Set(
    LEVELS.filter((level) => !fits(level, annotations)),
  );
  // The levels within the limit one by one, in the report's order; then the grouped ones.
  const lines = annotations.filter((annotation) => !grouped.has(annotation.level)).map((a) =>
    workflowCommand(
      a.level,
      a.optional ? `mcpeval guidance (${a.server})` : titleOf(a.server, a.about),
      a.message,
    )
  );
  for (const level of grouped) {
    const limit = GITHUB_ANNOTATIONS_PER_LEVEL - (level === "notice" ? reserved.notice : 0);
    const byServer = new Map<string, Annotation[]>();
    for (const annotation of annotations) {
      if (annotation.level !== level) continue;
      const group = byServer.get(annotation.server);
      if (group) group.push(annotation);
      else byServer.set(annotation.server, [annotation]);
    }
    const groups = [...byServer];
    const shown = groups.length <= limit ? groups : groups.slice(0, limit - 1);
    for (const [server, group] of shown) {
      if (group.length === 1) {
        lines.push(workflowCommand(level, titleOf(server, group[0].about), group[0].message));
        continue;
      }
      lines.push(
        workflowCommand(
          level,
          titleOf(server, counted(group.length, level)),
          `${countsByKind(group)}; ${SUMMARY_POINTER}`,
        ),
      );
    }
    const rest = groups.slice(shown.length);
    if (rest.length > 0) {
      const more = rest.flatMap(([, group]) => group);
      lines.push(
        workflowCommand(
          level,
          `mcpeval guidance (${rest.length} more servers): ${counted(more.length, level)}`,
          `${countsByKind(more)}; ${SUMMARY_POINTER}`,
        ),
      );
    }
  }
  return lines;
}

/** How a grouped annotation counts its level. */
const LEVEL_NOUNS = { error: "errors", warning: "warnings", notice: "notices" } as const;

/** "1 error", "3 warnings". */
function counted(count: number, level: Annotation["level"]): string {
  return `${count} ${count === 1 ? LEVEL_NOUNS[level].slice(0, -1) : LEVEL_NOUNS[level]}`;
}

function titleOf(server: string, about: string): string {
  return `mcpeval guidance (${server}): ${about}`;
}

/** "required-tool-unavailable: 3, profile incomplete: 1", in first-seen order. */
function countsByKind(annotations: readonly Annotation[]): string {
  const counts = new Map<string, number>();
  for (const { about } of annotations) counts.set(about, (counts.get(about) ?? 0) + 1);
  return [...counts].map(([about, count]) => `${about}: ${count}`).join(", ");
}

/**
 * The report's annotations ({@linkcode annotationsOf}), grouped past GitHub's per-step limits,
 * and a final `::notice` with the result; a line at a time.
 */
function* serverCommands(report: GuidanceReport): Generator<string> {
  const lines = limited(annotationsOf(report), { notice: 1 });
  const outcome = outcomeOf(report);
  lines.push(
    workflowCommand(
      "notice",
      `mcpeval guidance (${report.server})`,
      `Result: ${outcome.status}: ${outcome.detail}`,
    ),
  );
  for (const line of lines) yield line + "\n";
}

/** Escapes text for a Markdown table cell or paragraph. */
export function md(text: string): string {
  return text.replace(/[\\`*_|<>[\]]/g, (char) => `\\${char}`);
}

/**
 * Every server's annotations (and an `::error` per server not checked), grouped past GitHub's
 * per-step limits, then the fleet's result as a notice. The servers are read once, one at a
 * time (a merge renders from its packed servers without building the whole report); an empty
 * piece after each lets the writer give the event loop its turn.
 */
function* fleetCommands(fleet: FleetStream): Generator<string> {
  const annotations = new Annotations({ notice: 1 });
  const tally = new FleetTally();
  for (const server of fleet.servers) {
    tally.add(server);
    if (server.checked) {
      const outcome = outcomeOf(server.report);
      annotations.push(annotationsOf(server.report));
      annotations.push([{
        level: "notice",
        server: server.name,
        about: "result",
        message: `Result: ${outcome.status}: ${outcome.detail}`,
        optional: true,
      }]);
    } else {
      annotations.push([{
        level: "error",
        server: server.name,
        about: "not checked",
        message: `${server.name}: ${notCheckedText(server)}. ${server.hint}`,
      }]);
    }
    yield "";
  }
  const lines = limited(annotations, { notice: 1 });
  const outcome = tally.outcome(fleet);
  lines.push(
    workflowCommand(
      "notice",
      `mcpeval guidance (config ${fleet.config_format})`,
      `Result: ${outcome.status}: ${outcome.detail}`,
    ),
  );
  for (const line of lines) yield line + "\n";
}

/**
 * The source as workflow commands, a line at a time. A fleet's servers are read once, one at a
 * time, so a merge renders from its packed servers without building the whole report.
 */
export function render(source: RenderSource): Iterable<string> {
  return source.kind === "server" ? serverCommands(source.report) : fleetCommands(source.fleet);
}
