/**
 * `--baseline FILE`: read before anything starts, bounded in bytes and in JSON objects and
 * arrays, and parsed. Every problem is one fixed line: the file's content and path are never
 * repeated.
 *
 * @module
 */
import { MAX_BASELINE_BYTES, MAX_BASELINE_CONTAINERS } from "../limits.ts";
import { containersAtMost } from "../protocol/messages.ts";
import type { BaselineFile } from "../request.ts";
import type { CliContext } from "./context.ts";
import { FileTooLargeError, InvocationError } from "./errors.ts";
import { readProblem } from "./files.ts";

/** The `--baseline` file as parsed JSON (validated by the caller against the report schemas). */
export async function readBaselineFile(file: BaselineFile, context: CliContext): Promise<unknown> {
  let text: string;
  try {
    text = await context.readTextFile(file.path, MAX_BASELINE_BYTES);
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new InvocationError(
        `--baseline is larger than ${MAX_BASELINE_BYTES} bytes: it cannot be a report of mcpeval's`,
      );
    }
    throw new InvocationError(
      `Cannot read the --baseline file (${readProblem(error, MAX_BASELINE_BYTES)})`,
    );
  }
  if (!containersAtMost(text, MAX_BASELINE_CONTAINERS)) {
    throw new InvocationError(
      `--baseline holds more than ${MAX_BASELINE_CONTAINERS} JSON objects and arrays: it cannot be a report of mcpeval's`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvocationError(
      "--baseline is not valid JSON: give a report written by --format json or --output json=PATH",
    );
  }
}
