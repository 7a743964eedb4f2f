/**
 * The GitHub Actions format: workflow commands (annotations) for the log, for a run of one
 * server or of a config file's servers.
 *
 * @module
 */
import {
  drifted,
  driftText,
  findingHint,
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
import { FleetTally, notCheckedHint, notCheckedText } from "../fleet/phrases.ts";
import type { RenderSource } from "../run.ts";
import type { GuidanceReport, ReportIds } from "../types.ts";

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
function annotationsOf(report: GuidanceReport<ReportIds>): Annotation[] {
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
    if (!gates(finding, report) && finding.baseline_state === "unchanged") continue;
    annotations.push({
      level: gates(finding, report) ? "error" : "warning",
      server,
      about: finding.kind,
      message: `${findingSentence(finding, report)}. ${findingHint(finding)}`,
    });
  }
  return annotations;
}

/** One server's annotations of a level past its limit: counted by kind (first-seen order). */
interface ServerGroup {
  readonly server: string;
  /** Its first annotation (written as it is when it is the only one). */
  readonly first: Annotation;
  count: number;
  readonly kinds: Map<string, number>;
}

/** What a level past its limit writes: the first servers' groups, and the rest counted. */
interface Grouped {
  /** The first `limit` servers' groups, in order. */
  readonly groups: ServerGroup[];
  /** The servers after those (the last one's name), their annotations and their kinds. */
  readonly rest: {
    servers: number;
    last?: string;
    count: number;
    readonly kinds: Map<string, number>;
  };
}

const LEVELS = ["error", "warning", "notice"] as const;

/**
 * Annotations gathered one server at a time, counted by level, and kept only as far as they
 * are written: a level within {@linkcode limited}'s limit keeps its annotations in order; once
 * its optional ones (a server's result) put it past the limit, those are no longer kept; once
 * the others do, the level is grouped by server from then on, its first servers' groups kept
 * with counts and the rest only counted. A fleet of any size holds only what is written, and
 * each annotation costs the same however many came before.
 */
class Annotations {
  /** The annotations of the levels not grouped, in order. */
  #kept: Annotation[] = [];
  readonly #counts = { error: 0, warning: 0, notice: 0 };
  /** How many annotations of each level are not optional. */
  readonly #required = { error: 0, warning: 0, notice: 0 };
  readonly #grouped: Partial<Record<Annotation["level"], Grouped>> = {};
  readonly #reserved: { notice: number };

  /** `reserved`: as {@linkcode limited}'s. */
  constructor(reserved: { notice: number }) {
    this.#reserved = reserved;
  }

  /** How many annotations `level` may write one by one. */
  limit(level: Annotation["level"]): number {
    return GITHUB_ANNOTATIONS_PER_LEVEL - (level === "notice" ? this.#reserved.notice : 0);
  }

  /** Adds annotations (counted, and kept or grouped as above). */
  push(annotations: Iterable<Annotation>): void {
    for (const annotation of annotations) {
      const { level } = annotation;
      const limit = this.limit(level);
      this.#counts[level]++;
      if (this.#counts[level] === limit + 1) {
        // Past the limit with its optional annotations: those are left out from now on.
        this.#kept = this.#kept.filter((kept) => !kept.optional || kept.level !== level);
      }
      if (annotation.optional) {
        if (this.#counts[level] <= limit) this.#kept.push(annotation);
        continue;
      }
      this.#required[level]++;
      const grouped = this.#grouped[level];
      if (grouped) {
        group(grouped, annotation, limit);
      } else if (this.#required[level] > limit) {
        // Past the limit without them: grouped by server from now on, those kept first.
        const started: Grouped = { groups: [], rest: { servers: 0, count: 0, kinds: new Map() } };
        for (const kept of this.#kept) if (kept.level === level) group(started, kept, limit);
        group(started, annotation, limit);
        this.#kept = this.#kept.filter((kept) => kept.level !== level);
        this.#grouped[level] = started;
      } else {
        this.#kept.push(annotation);
      }
    }
  }

  /** The annotations written one by one, in order. */
  get kept(): readonly Annotation[] {
    return this.#kept;
  }

  /** The levels grouped by server, in level order, with what they write. */
  grouped(): [Annotation["level"], Grouped][] {
    return LEVELS.flatMap((level) => {
      const grouped = this.#grouped[level];
      return grouped ? [[level, grouped] as [Annotation["level"], Grouped]] : [];
    });
  }
}

/** Adds `annotation` to its server's group (the last one), or the rest past `limit` servers. */
function group(grouped: Grouped, annotation: Annotation, limit: number): void {
  const { groups, rest } = grouped;
  const last = groups.at(-1);
  if (rest.servers === 0 && last?.server === annotation.server) {
    last.count++;
    last.kinds.set(annotation.about, (last.kinds.get(annotation.about) ?? 0) + 1);
  } else if (rest.servers === 0 && groups.length < limit) {
    groups.push({
      server: annotation.server,
      first: annotation,
      count: 1,
      kinds: new Map([[annotation.about, 1]]),
    });
  } else {
    // A server's annotations come together, so a new server is one more of the rest.
    if (rest.servers === 0 || rest.last !== annotation.server) rest.servers++;
    rest.last = annotation.server;
    rest.count++;
    rest.kinds.set(annotation.about, (rest.kinds.get(annotation.about) ?? 0) + 1);
  }
}

const SUMMARY_POINTER = "the step summary lists each";

/**
 * The annotations as workflow commands, within GitHub's per-step limits
 * ({@linkcode GITHUB_ANNOTATIONS_PER_LEVEL} of each level, `reserved` of them kept for what
 * follows): a level with more is written one annotation per server, with counts by kind, and
 * past that many servers the last one counts the rest.
 */
function limited(all: Iterable<Annotation>, reserved: { notice: number }): string[] {
  const annotations = new Annotations(reserved);
  annotations.push(all);
  return commandsOf(annotations);
}

/** The workflow commands of gathered annotations: those written one by one, then the groups. */
function commandsOf(annotations: Annotations): string[] {
  // The levels within the limit one by one, in the report's order; then the grouped ones.
  const lines = annotations.kept.map((a) =>
    workflowCommand(
      a.level,
      a.optional ? `mcpeval guidance (${a.server})` : titleOf(a.server, a.about),
      a.message,
    )
  );
  for (const [level, { groups, rest }] of annotations.grouped()) {
    const limit = annotations.limit(level);
    // With more servers than the limit, the last line counts the servers past the first ones.
    const more = rest.servers > 0 || groups.length > limit;
    const shown = more ? groups.slice(0, limit - 1) : groups;
    for (const { server, first, count, kinds } of shown) {
      if (count === 1) {
        lines.push(workflowCommand(level, titleOf(server, first.about), first.message));
        continue;
      }
      lines.push(
        workflowCommand(
          level,
          titleOf(server, counted(count, level)),
          `${kindsText(kinds)}; ${SUMMARY_POINTER}`,
        ),
      );
    }
    if (more) {
      const kinds = new Map<string, number>();
      let count = 0;
      for (const group of groups.slice(shown.length)) {
        count += group.count;
        for (const [about, n] of group.kinds) kinds.set(about, (kinds.get(about) ?? 0) + n);
      }
      for (const [about, n] of rest.kinds) kinds.set(about, (kinds.get(about) ?? 0) + n);
      count += rest.count;
      const servers = groups.length - shown.length + rest.servers;
      lines.push(
        workflowCommand(
          level,
          `mcpeval guidance (${servers} more servers): ${counted(count, level)}`,
          `${kindsText(kinds)}; ${SUMMARY_POINTER}`,
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
function kindsText(kinds: ReadonlyMap<string, number>): string {
  return [...kinds].map(([about, count]) => `${about}: ${count}`).join(", ");
}

/**
 * The report's annotations ({@linkcode annotationsOf}), grouped past GitHub's per-step limits,
 * and a final `::notice` with the result; a line at a time.
 */
function* serverCommands(report: GuidanceReport<ReportIds>): Generator<string> {
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
function* fleetCommands(fleet: FleetStream<ReportIds>): Generator<string> {
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
        message: `${server.name}: ${notCheckedText(server)}. ${notCheckedHint(server)}`,
      }]);
    }
    yield "";
  }
  const lines = commandsOf(annotations);
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
