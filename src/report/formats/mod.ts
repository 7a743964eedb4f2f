/**
 * The report formats, one row each: its id, whether it can go to stdout, and its module, loaded
 * only when a run writes that format. Every module renders a run of one or more servers, or a
 * merge, with its one `render(source, options)`; a new format is its module plus a row here.
 *
 * @module
 */
import type { RenderSource } from "../run.ts";
import {
  type FormatOption,
  type FormatValues,
  SARIF_LOCATION,
  type SarifLocation,
} from "./options.ts";
import type { TextStyle } from "./text.ts";

export type { FormatOption, FormatValues, SarifLocation };

/** How to render: text style (colour and width), and the formats' own options; each format reads its own. */
export interface RenderOptions extends TextStyle {
  /** The formats' own options given ({@linkcode FORMAT_OPTIONS}), by name. */
  readonly values?: FormatValues;
}

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

interface FormatRow {
  /** Whether `--format` and `--output FORMAT=PATH` take it (the step summary is a file only). */
  readonly selectable: boolean;
  /** The report on stdout when no format is given. */
  readonly default?: true;
  /** On stdout, it also appends the step summary to `GITHUB_STEP_SUMMARY` when that is set. */
  readonly stepSummary?: true;
  /**
   * Its own options, declared in `options.ts`: the command line takes each (help, parsing,
   * validation) when a report of a format that has it is written, and its renderer reads it.
   */
  readonly options?: readonly FormatOption[];
  readonly load: () => Promise<FormatModule>;
}

/**
 * Every format a report can be written in, by id, one row each (its facts, its own options and
 * its module): the types of format ids are derived from it.
 */
export const FORMAT_TABLE = {
  text: {
    selectable: true,
    default: true,
    load: (): Promise<FormatModule> => import("./text.ts"),
  },
  json: {
    selectable: true,
    load: (): Promise<FormatModule> => import("./json.ts"),
  },
  github: {
    selectable: true,
    stepSummary: true,
    load: (): Promise<FormatModule> => import("./github.ts"),
  },
  junit: {
    selectable: true,
    load: (): Promise<FormatModule> => import("./junit.ts"),
  },
  sarif: {
    selectable: true,
    options: [SARIF_LOCATION],
    load: (): Promise<FormatModule> => import("./sarif.ts"),
  },
  /** The GitHub step summary, appended to `GITHUB_STEP_SUMMARY` when it is set. */
  summary: { selectable: false, load: (): Promise<FormatModule> => import("./summary.ts") },
} as const satisfies Readonly<Record<string, FormatRow>>;

/** Every format a report can be written in, the step summary included: a row of the table. */
export type FormatId = keyof typeof FORMAT_TABLE;

/** A format `--format` and `--output` take: a row that is selectable. */
export type Format = {
  [F in FormatId]: typeof FORMAT_TABLE[F]["selectable"] extends true ? F : never;
}[FormatId];

const ROWS: Readonly<Record<FormatId, FormatRow>> = FORMAT_TABLE;

/** The formats `--format` and `--output` take, in the order help lists them. */
export const FORMATS: readonly Format[] = (Object.keys(ROWS) as FormatId[]).filter((
  id,
): id is Format => ROWS[id].selectable);

/** The format of the GitHub step summary, appended to `GITHUB_STEP_SUMMARY`. */
export const STEP_SUMMARY: FormatId = "summary";

/** The report on stdout when no format is given. */
export const DEFAULT_FORMAT: Format = FORMATS.find((id) => ROWS[id].default)!;

/** The formats' own options, each once, in the order of the table. */
export const FORMAT_OPTIONS: readonly FormatOption[] = [
  ...new Set(Object.values(ROWS).flatMap((row) => row.options ?? [])),
];

/** Whether `format` has `option` of its own. */
export function formatTakes(format: FormatId, option: FormatOption): boolean {
  return ROWS[format].options?.includes(option) ?? false;
}

/** The formats `--format` and `--output` take that have `option` of their own. */
export function formatsTaking(option: FormatOption): Format[] {
  return FORMATS.filter((format) => formatTakes(format, option));
}

/** Whether `format` on stdout also appends the step summary (`GITHUB_STEP_SUMMARY`). */
export function writesStepSummary(format: FormatId): boolean {
  return ROWS[format].stepSummary === true;
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
  const modules = await Promise.all(ids.map((id) => ROWS[id].load()));
  return new Map(ids.map((id, index) => [id, modules[index]]));
}

export { runResult } from "../run.ts";
