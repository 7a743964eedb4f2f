/**
 * The report formats, one row each: its id, whether it can go to stdout, and its module, loaded
 * only when a run writes that format. Every module renders a run of one or more servers, or a
 * merge, with its one `render(source, options)`; a new format is its module plus a row here.
 *
 * @module
 */
import type { RenderSource } from "../run.ts";
import type { SarifLocation } from "./options.ts";
import type { SarifOptions } from "./sarif.ts";
import type { TextStyle } from "./text.ts";

export type { SarifLocation };

/** How to render: text style (colour and width) and SARIF options; each format reads its own. */
export interface RenderOptions extends TextStyle, SarifOptions {}

/** What a format module exports: its one renderer. */
export interface FormatModule {
  /**
   * The source in this format: one string, or pieces joined in order. Every format renders in
   * pieces of bounded work, linear in the findings (the writer gives the event loop a turn
   * between them, so a signal is acted on during any render), and reads a fleet's servers one
   * at a time, in as many passes as it needs, never building the whole report. Pure.
   */
  readonly render: (source: RenderSource, options: RenderOptions) => string | Iterable<string>;
}

/** The options a format has of its own (only a run that writes it may give them). */
export type FormatOption = "sarif-location";

interface FormatRow {
  /** Whether `--format` and `--output FORMAT=PATH` take it (the step summary is a file only). */
  readonly selectable: boolean;
  /** The report on stdout when no format is given. */
  readonly default?: true;
  /** On stdout, it also appends the step summary to `GITHUB_STEP_SUMMARY` when that is set. */
  readonly stepSummary?: true;
  /** Its own options. */
  readonly options?: readonly FormatOption[];
  readonly load: () => Promise<FormatModule>;
}

/** Every format a report can be written in, the step summary included. */
export type FormatId = "text" | "json" | "github" | "junit" | "sarif" | "summary";

const TABLE: Readonly<Record<FormatId, FormatRow>> = {
  text: { selectable: true, default: true, load: () => import("./text.ts") },
  json: { selectable: true, load: () => import("./json.ts") },
  github: { selectable: true, stepSummary: true, load: () => import("./github.ts") },
  junit: { selectable: true, load: () => import("./junit.ts") },
  sarif: {
    selectable: true,
    options: ["sarif-location"],
    load: () => import("./sarif.ts"),
  },
  /** The GitHub step summary, appended to `GITHUB_STEP_SUMMARY` when it is set. */
  summary: { selectable: false, load: () => import("./summary.ts") },
};

/** The formats `--format` and `--output` take, in the order help lists them. */
export const FORMATS: readonly Format[] = (Object.keys(TABLE) as FormatId[]).filter((
  id,
): id is Format => TABLE[id].selectable);

/** A format `--format` and `--output` take. */
export type Format = Exclude<FormatId, "summary">;

/** The format of the GitHub step summary, appended to `GITHUB_STEP_SUMMARY`. */
export const STEP_SUMMARY: FormatId = "summary";

/** The report on stdout when no format is given. */
export const DEFAULT_FORMAT: Format = FORMATS.find((id) => TABLE[id].default)!;

/** Whether `format` has `option` of its own. */
export function formatTakes(format: FormatId, option: FormatOption): boolean {
  return TABLE[format].options?.includes(option) ?? false;
}

/** Whether `format` on stdout also appends the step summary (`GITHUB_STEP_SUMMARY`). */
export function writesStepSummary(format: FormatId): boolean {
  return TABLE[format].stepSummary === true;
}

/** Whether `value` names a format `--format` and `--output` take. */
export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

/** Loads the renderers of `formats` (each once). */
export async function loadFormats(
  formats: Iterable<FormatId>,
): Promise<ReadonlyMap<FormatId, FormatModule>> {
  const ids = [...new Set(formats)];
  const modules = await Promise.all(ids.map((id) => TABLE[id].load()));
  return new Map(ids.map((id, index) => [id, modules[index]]));
}

export { runResult } from "../run.ts";
