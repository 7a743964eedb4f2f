/**
 * The JSON format: the `mcpeval.guidance-report/v1` document of one server (the seed's
 * contract), or the `mcpeval.guidance-fleet/v1` document of a config run.
 *
 * @module
 */
import type { RunReport } from "../run.ts";
import type { GuidanceReport } from "../schema.ts";

/** The report as pretty-printed JSON with a trailing newline. */
export function renderJson(report: GuidanceReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}

/** The run's JSON document, pretty-printed with a trailing newline. */
export function render(run: RunReport): string {
  return JSON.stringify(run.kind === "server" ? run.report : run.fleet, null, 2) + "\n";
}
