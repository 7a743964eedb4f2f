/**
 * `--baseline FILE`: read before anything starts, bounded in bytes and in JSON objects and
 * arrays, and parsed. Every problem is one fixed line: the file's content and path are never
 * repeated.
 *
 * @module
 */
import { MAX_BASELINE_BYTES, MAX_BASELINE_CONTAINERS } from "../limits.ts";
import { containersAtMost } from "../protocol/messages.ts";
import type { BaselineFile } from "../request/request.ts";
import type { RunEffects } from "./effects.ts";
import { RunError } from "./errors.ts";
import { readProblem } from "./files.ts";

/** How the messages name a report file: `--baseline`, or a file given to `mcpeval merge`. */
export interface ReportFileName {
  /** As a sentence's subject: "--baseline". */
  readonly subject: string;
  /** After "Cannot read": "the --baseline file". */
  readonly file: string;
}

const BASELINE_NAME: ReportFileName = { subject: "--baseline", file: "the --baseline file" };

/** The `--baseline` file (or a report to merge, named by `name`) as parsed JSON (validated by the caller against the report schemas). */
export async function readBaselineFile(
  file: Pick<BaselineFile, "path">,
  effects: Pick<RunEffects, "readTextFile">,
  name: ReportFileName = BASELINE_NAME,
): Promise<unknown> {
  return parseReportJson(await readReportText(file, effects, name), name);
}

/**
 * The `--baseline` file (or a report to merge) as text, bounded in bytes and in JSON objects
 * and arrays, for {@linkcode parseReportJson} (whole, or in parts).
 */
export async function readReportText(
  file: Pick<BaselineFile, "path">,
  effects: Pick<RunEffects, "readTextFile">,
  name: ReportFileName = BASELINE_NAME,
): Promise<string> {
  let text: string;
  try {
    text = await effects.readTextFile(file.path, MAX_BASELINE_BYTES);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new RunError(
        `${name.subject} is larger than ${MAX_BASELINE_BYTES} bytes: it cannot be a report of mcpeval's`,
      );
    }
    throw new RunError(`Cannot read ${name.file} (${readProblem(error, MAX_BASELINE_BYTES)})`);
  }
  if (!containersAtMost(text, MAX_BASELINE_CONTAINERS)) {
    throw new RunError(
      `${name.subject} holds more than ${MAX_BASELINE_CONTAINERS} JSON objects and arrays: it cannot be a report of mcpeval's`,
    );
  }
  return text;
}

/**
 * JSON text of a report file (or a part of it: the whole is not valid JSON when a part is not)
 * parsed, or the fixed line for JSON that is not valid.
 */
export function parseReportJson(text: string, name: ReportFileName = BASELINE_NAME): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RunError(
      `${name.subject} is not valid JSON: give a report written by --format json or --output json=PATH`,
    );
  }
}
