/**
 * Every fleet report format and its renderer, in one table.
 *
 * @module
 */
import type { Format } from "../../formats.ts";
import type { RenderOptions } from "../render.ts";
import { renderFleetGithub } from "./github.ts";
import { renderFleetJunit } from "./junit.ts";
import { renderFleetSarif } from "./sarif.ts";
import { renderFleetText } from "./text.ts";
import type { FleetReport } from "./types.ts";

const RENDERERS: Readonly<Record<Format, (fleet: FleetReport, options: RenderOptions) => string>> =
  {
    text: renderFleetText,
    json: (fleet) => JSON.stringify(fleet, null, 2) + "\n",
    github: renderFleetGithub,
    junit: renderFleetJunit,
    sarif: renderFleetSarif,
  };

/** Renders a fleet report in `format` (colour and width apply to text, location to SARIF). */
export function renderFleet(fleet: FleetReport, format: Format, options: RenderOptions): string {
  return RENDERERS[format](fleet, options);
}
