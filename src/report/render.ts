/**
 * Every report format and its renderer, in one table.
 *
 * @module
 */
import type { Format } from "../options.ts";
import { renderGithub } from "./github.ts";
import { renderJson } from "./json.ts";
import { renderJunit } from "./junit.ts";
import { renderSarif } from "./sarif.ts";
import { renderText, type TextStyle } from "./text.ts";
import type { GuidanceReport } from "./types.ts";

/** Renders `report` in `format` (colour applies to text only). */
export function render(report: GuidanceReport, format: Format, style: TextStyle): string {
  switch (format) {
    case "text":
      return renderText(report, style);
    case "json":
      return renderJson(report);
    case "github":
      return renderGithub(report);
    case "junit":
      return renderJunit(report);
    case "sarif":
      return renderSarif(report);
  }
}
