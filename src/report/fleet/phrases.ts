/**
 * The sentences every fleet renderer shares, built only from a fleet report's validated fields.
 *
 * @module
 */
import { NOT_CHECKED_HINTS } from "../../config_facts.ts";
import { kindCounts, knows, outcomeOf, plural, UNKNOWN_HINTS } from "../phrases.ts";
import type { ReportIds } from "../types.ts";
import type { FleetReport, FleetServer, NotCheckedServer } from "./types.ts";

/** A fleet report as renderers take it: one this run wrote, or one read (a merge's). */
type Fleet = FleetReport<ReportIds>;
type Server = FleetServer<ReportIds>;

/** How one server ended. */
export type ServerStatus = "passed" | "failed" | "incomplete" | "not checked";

/** A server's status. */
export function statusOf(server: Server): ServerStatus {
  return server.checked ? outcomeOf(server.report).status : "not checked";
}

/**
 * Why a server was not checked, in words: `not checked: invalid-entry (url)`, or
 * `not checked: unset-variable (needs GITHUB_TOKEN)`.
 */
export function notCheckedText(server: NotCheckedServer<ReportIds>): string {
  const detail = server.field ?? (server.variables && `needs ${server.variables.join(", ")}`);
  return `not checked: ${server.reason}${detail === undefined ? "" : ` (${detail})`}`;
}

/** Why a server was not checked, as a hint: this version's own words for its reason. */
export function notCheckedHint(server: NotCheckedServer<ReportIds>): string {
  return knows(NOT_CHECKED_HINTS, server.reason)
    ? NOT_CHECKED_HINTS[server.reason]
    : UNKNOWN_HINTS["not-checked"];
}

/** How the whole run ended (its status), and why (a sentence). */
export interface FleetOutcome {
  readonly status: "passed" | "failed" | "incomplete";
  readonly detail: string;
}

/**
 * How the whole run ended, counted a server at a time, so that a renderer reading the servers
 * one at a time (from a merge's packed servers) words the result of any number of them.
 *
 * @example
 * ```ts
 * const tally = new FleetTally();
 * for (const server of fleet.servers) tally.add(server);
 * console.log(tally.outcome(fleet).status);
 * ```
 */
export class FleetTally {
  readonly #statuses = new Map<ServerStatus, number>();
  readonly #candidates = new Map<string, number>();
  readonly #defects = new Map<string, number>();
  #servers = 0;

  /** Counts one server. */
  add(server: Server): void {
    this.#servers++;
    const status = statusOf(server);
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1);
    if (!server.checked) return;
    for (
      const [findings, byKind] of [
        [server.report.candidates, this.#candidates],
        [server.report.defects, this.#defects],
      ] as const
    ) {
      for (const { kind } of findings) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
  }

  /** The result of the servers counted, for a fleet report with these `complete` and `passed`. */
  outcome(fleet: Pick<Fleet, "complete" | "passed">): FleetOutcome {
    const count = (status: ServerStatus) => this.#statuses.get(status) ?? 0;
    const candidates = kindCounts(this.#candidates, "review candidate");
    const defects = kindCounts(this.#defects, "defect");
    const of = `of ${plural(this.#servers, "server")}`;
    const findings = `${defects} and ${candidates} in the others`;
    if (!fleet.complete) {
      return {
        status: "incomplete",
        detail: `${count("not checked")} not checked and ${
          count("incomplete")
        } incomplete ${of}; ${findings} (exit 3)`,
      };
    }
    const review = `${candidates} (never fail the gate)`;
    if (fleet.passed) {
      return { status: "passed", detail: `${plural(this.#servers, "server")} passed; ${review}` };
    }
    return {
      status: "failed",
      detail: `${count("failed")} ${of} failed with ${defects}; ${review} (exit 1)`,
    };
  }
}

/** The tool counts of a server's complete profiles: `13` or `13-16`, or `-`. */
export function toolRange(server: Server): string {
  if (!server.checked) return "-";
  let [min, max] = [Infinity, -Infinity];
  for (const { tool_count: count } of server.report.profiles) {
    if (count === null) continue;
    if (count < min) min = count;
    if (count > max) max = count;
  }
  if (min === Infinity) return "-";
  return min === max ? String(min) : `${min}-${max}`;
}

/** A server's summary row: name, transport, profiles complete, tools, findings, result. */
export function summaryRow(server: Server): string[] {
  if (!server.checked) return [server.name, "-", "-", "-", "-", "-", notCheckedText(server)];
  const { report } = server;
  const complete = report.profiles.filter((p) => p.complete).length;
  return [
    server.name,
    report.transport,
    `${complete}/${report.profiles.length}`,
    toolRange(server),
    report.complete ? String(report.candidates.length) : "-",
    report.complete ? String(report.defects.length) : "-",
    statusOf(server),
  ];
}

/** The summary table's column titles. */
export const SUMMARY_HEADER = [
  "server",
  "transport",
  "profiles",
  "tools",
  "candidates",
  "defects",
  "result",
];
