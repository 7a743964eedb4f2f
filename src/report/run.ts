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
 * time (each iteration reads them again) so that a format that needs one server at a time never
 * builds the whole report. A merge's reports were read: their ids may be a later version's.
 */
export type RenderSource =
  | RunReport
  | { readonly kind: "merge"; readonly fleet: FleetStream<ReportIds> };

/** The whole reports built from merges' fleets, each once. */
const WHOLE = new WeakMap<FleetStream<ReportIds>, RunReport<ReportIds>>();

/**
 * The source as a whole run report, for a format that needs every server at once: a merge's
 * fleet is read into one fleet report, built once however many formats ask for it.
 */
export function wholeReport(source: RenderSource): RunReport<ReportIds> {
  if (source.kind !== "merge") return source;
  let run = WHOLE.get(source.fleet);
  if (!run) {
    run = { kind: "fleet", fleet: { ...source.fleet, servers: [...source.fleet.servers] } };
    WHOLE.set(source.fleet, run);
  }
  return run;
}
