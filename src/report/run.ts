/**
 * The report of a run: one server's guidance report, or a fleet's report. Every
 * format renders either, or a merge's fleet whose servers are read one at a time; only JSON
 * keeps two documents (the seed's single-server report, and the fleet report).
 *
 * @module
 */
import type { FleetReport, FleetStream } from "./fleet/types.ts";
import type { GuidanceReport, KnownIds, ReportIds } from "./types.ts";

/** What a run reports (with {@linkcode ReportIds}: a report read, such as a merge's). */
export type RunReport<V extends ReportIds = KnownIds> =
  | { readonly kind: "server"; readonly report: GuidanceReport<V> }
  | { readonly kind: "fleet"; readonly fleet: FleetReport<V> };

/** Whether the run completed and passed: the exit rule's input. */
export function runResult(
  run: RunReport<ReportIds>,
): { complete: boolean; passed: boolean | null } {
  const { complete, passed } = run.kind === "server" ? run.report : run.fleet;
  return { complete, passed };
}

/**
 * What a format renders: a run's report, or a merge's fleet, whose servers are read one at a
 * time (each iteration reads them again). Every format renders a fleet from its servers one at a
 * time, in as many passes as it needs (totals first, then the servers), so that none builds the
 * whole report. A merge's reports were read: their ids may be a later version's.
 */
export type RenderSource =
  | RunReport
  | { readonly kind: "merge"; readonly fleet: FleetStream<ReportIds> };
