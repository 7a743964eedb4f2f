/**
 * The JSON renderer.
 *
 * @module
 */
import type { GuidanceReport } from "./schema.ts";

/** The report as pretty-printed JSON with a trailing newline. */
export function renderJson(report: GuidanceReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
