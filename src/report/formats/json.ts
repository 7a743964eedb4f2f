/**
 * The JSON format: the `mcpeval.guidance-report/v1` document of one server (the seed's
 * contract), or the `mcpeval.guidance-fleet/v1` document of a config run. A fleet document is
 * written in pieces (each server's entry on its own), never as one string, so that a document
 * of any size can be written; the bytes are those of `JSON.stringify(document, null, 2)`.
 *
 * @module
 */
import type { RunReport } from "../run.ts";
import type { GuidanceReport } from "../schema.ts";
import { jsonPieces } from "../json_pieces.ts";

/** The report as pretty-printed JSON with a trailing newline. */
export function renderJson(report: GuidanceReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}

/** The run's JSON document, pretty-printed with a trailing newline. */
export function render(run: RunReport): string {
  return JSON.stringify(run.kind === "server" ? run.report : run.fleet, null, 2) + "\n";
}

/** The run's JSON document as {@linkcode render} writes it, in pieces. */
export function renderPieces(run: RunReport): Iterable<string> {
  return run.kind === "server" ? [renderJson(run.report)] : jsonPieces(run.fleet);
}
