/**
 * The sentences every fleet renderer shares, built only from a fleet report's validated fields.
 *
 * @module
 */
import { findingCounts, outcomeOf, plural } from "../phrases.ts";
import type { FleetReport, FleetServer, NotCheckedServer } from "./types.ts";

/** How one server ended. */
export type ServerStatus = "passed" | "failed" | "incomplete" | "not checked";

/** A server's status. */
export function statusOf(server: FleetServer): ServerStatus {
  return server.checked ? outcomeOf(server.report).status : "not checked";
}

/**
 * Why a server was not checked, in words: `not checked: invalid-entry (url)`, or
 * `not checked: unset-variable (needs GITHUB_TOKEN)`.
 */
export function notCheckedText(server: NotCheckedServer): string {
  const detail = server.field ?? (server.variables && `needs ${server.variables.join(", ")}`);
  return `not checked: ${server.reason}${detail === undefined ? "" : ` (${detail})`}`;
}

/** How the whole run ended, and why. */
export function fleetOutcome(
  fleet: FleetReport,
): { status: "passed" | "failed" | "incomplete"; detail: string } {
  const count = (status: ServerStatus) =>
    fleet.servers.filter((server) => statusOf(server) === status).length;
  const reports = fleet.servers.flatMap((server) => server.checked ? [server.report] : []);
  const candidates = findingCounts(reports.flatMap((r) => r.candidates), "review candidate");
  const defects = findingCounts(reports.flatMap((r) => r.defects), "defect");
  const of = `of ${plural(fleet.servers.length, "server")}`;
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
    return {
      status: "passed",
      detail: `${plural(fleet.servers.length, "server")} passed; ${review}`,
    };
  }
  return {
    status: "failed",
    detail: `${count("failed")} ${of} failed with ${defects}; ${review} (exit 1)`,
  };
}

/** The tool counts of a server's complete profiles: `13` or `13-16`, or `-`. */
export function toolRange(server: FleetServer): string {
  if (!server.checked) return "-";
  const counts = server.report.profiles.flatMap((p) => p.tool_count === null ? [] : [p.tool_count]);
  if (counts.length === 0) return "-";
  const [min, max] = [Math.min(...counts), Math.max(...counts)];
  return min === max ? String(min) : `${min}-${max}`;
}

/** One summary row per server: name, transport, profiles complete, tools, findings, result. */
export function summaryRows(fleet: FleetReport): string[][] {
  return fleet.servers.map((server) => {
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
  });
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
