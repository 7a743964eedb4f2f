/**
 * Every report format and its renderer, in one table.
 *
 * @module
 */
import type { Format } from "../formats.ts";
import { renderGithub } from "./github.ts";
import { renderJson } from "./json.ts";
import { renderJunit } from "./junit.ts";
import { renderSarif } from "./sarif.ts";
import { renderText, type TextStyle } from "./text.ts";
import type { GuidanceReport } from "./types.ts";

const RENDERERS: Readonly<Record<Format, (report: GuidanceReport, style: TextStyle) => string>> = {
  text: renderText,
  json: renderJson,
  github: renderGithub,
  junit: renderJunit,
  sarif: renderSarif,
};

/** Renders `report` in `format` (colour applies to text only). */
export function render(report: GuidanceReport, format: Format, style: TextStyle): string {
  return RENDERERS[format](report, style);
}
