/**
 * The JSON format: the `mcpeval.guidance-report/v1` document of one server (the seed's
 * contract), or the `mcpeval.guidance-fleet/v1` document of a config run or a merge. A fleet
 * document is written in pieces (each server's entry on its own, a merge's read as they come),
 * never as one string, so that a document of any size can be written; the bytes are those of
 * `JSON.stringify(document, null, 2)`.
 *
 * @module
 */
import type { RenderSource } from "../run.ts";
import { jsonPieces } from "../json_pieces.ts";

/** The source's JSON document, pretty-printed with a trailing newline; a fleet's in pieces. */
export function render(source: RenderSource): string | Iterable<string> {
  return source.kind === "server"
    ? JSON.stringify(source.report, null, 2) + "\n"
    : jsonPieces(source.fleet);
}
