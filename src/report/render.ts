/**
 * Every report format and its renderer, in one table.
 *
 * @module
 */
import type { Format } from "../formats.ts";
import { renderGithub } from "./github.ts";
import { renderJson } from "./json.ts";
import { renderJunit } from "./junit.ts";
import { renderSarif, type SarifOptions } from "./sarif.ts";
import { renderText, type TextStyle } from "./text.ts";
import type { GuidanceReport } from "./types.ts";

/** How to render: text style (colour and width) and SARIF options; each format reads its own. */
export interface RenderOptions extends TextStyle, SarifOptions {}

const RENDERERS: Readonly<
  Record<Format, (report: GuidanceReport, options: RenderOptions) => string>
> = {
  text: renderText,
  json: renderJson,
  github: renderGithub,
  junit: renderJunit,
  sarif: renderSarif,
};

/** Renders `report` in `format`. */
export function render(report: GuidanceReport, format: Format, options: RenderOptions): string {
  return RENDERERS[format](report, options);
}
