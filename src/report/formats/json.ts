/**
 * The JSON format: the `mcpeval.guidance-report/v1` document of one server (the seed's
 * contract), or the `mcpeval.guidance-fleet/v1` document of a config run or a merge. Either is
 * written in pieces (each server's entry on its own, a merge's read as they come, and a large
 * entry a finding at a time), never as one string, so that a document of any size can be
 * written and a signal is acted on while it is; the bytes are those of
 * `JSON.stringify(document, null, 2)`.
 *
 * @module
 */
import type { RenderSource } from "../run.ts";
import { jsonPieces } from "../json_pieces.ts";

/** The source's JSON document, pretty-printed with a trailing newline, in pieces. */
export function render(source: RenderSource): Iterable<string> {
  return jsonPieces(source.kind === "server" ? source.report : source.fleet);
}
