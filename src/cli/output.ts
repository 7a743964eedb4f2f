/**
 * What every guidance command does around discovery: query permissions, reserve report files
 * before anything starts, and write the reports afterwards.
 *
 * @module
 */
import { EXIT } from "../exit.ts";
import { REPORT_CHUNK_CHARS } from "../limits.ts";
import {
  type Format,
  type FormatId,
  type FormatValues,
  type RenderOptions,
  STEP_SUMMARY,
} from "../report/formats/mod.ts";
import { escaped } from "../printable.ts";
import type { OutputRequest } from "../request/request.ts";
import type { CliContext } from "./context.ts";
import { whereFlagsGo } from "./deno_flags.ts";
import { InvocationError } from "./errors.ts";
import { pathProblem } from "../run/files.ts";

/** A report file to write: a format, or the GitHub step summary (appended). */
export interface ReportTarget {
  readonly path: string;
  readonly format: FormatId;
  readonly append: boolean;
}

/** The report files, reserved; `discard` removes those created for a run that has no report. */
export interface ReservedFiles {
  readonly files: readonly ReportTarget[];
  discard(): Promise<void>;
}

/**
 * Opens every report file for writing before discovery (creating missing ones empty), so that
 * an unwritable one exits 2 before any server starts.
 */
export async function reserveReportFiles(
  context: CliContext,
  output: OutputRequest,
): Promise<ReservedFiles> {
  const files: ReportTarget[] = [
    ...output.files.map((file) => ({ ...file, append: false })),
    ...(output.stepSummary
      ? [{ path: output.stepSummary, format: STEP_SUMMARY, append: true }]
      : []),
  ];
  const created: string[] = [];
  const discard = async () => {
    for (const path of created) await context.removeFile(path).catch(() => {});
  };
  for (const file of files) {
    try {
      if ((await context.reserveFile(file.path)).created) created.push(file.path);
    } catch (error) {
      await discard();
      throw new InvocationError(`Cannot write ${fileNamed(file)} (${problem(error)})`);
    }
  }
  return { files, discard };
}

/**
 * Ends a run that was interrupted: no report, the reserved files removed, exit 129 for SIGHUP
 * (the reason of `signal`, by default the context's), else 130.
 */
export async function interrupted(
  context: CliContext,
  reserved: ReservedFiles,
  signal: AbortSignal | undefined = context.interrupted?.(),
): Promise<number> {
  await reserved.discard();
  if (signal?.reason === "SIGHUP") {
    await context.stderr("mcpeval: hung up (SIGHUP); every server process was stopped\n");
    return EXIT.hangup;
  }
  await context.stderr("mcpeval: interrupted; every server process was stopped\n");
  return EXIT.interrupted;
}

/** What a finished run's exit code depends on. */
export interface RunResult {
  readonly complete: boolean;
  readonly passed: boolean | null;
}

/**
 * Ends a run whose analysis is done: exit 130 without a report if a signal came meanwhile;
 * else each reserved file, then the stdout report (in colour and at the terminal's width only
 * there; each format with its own options of `values`). A report rendered in pieces is written in chunks of about
 * `chunkChars` characters, never as one string. Returns 74 when a file could not be written
 * (after printing the stdout report and one stderr line) or the stdout report could not be
 * rendered (one stderr line: too large for its format), else 3, 1 or 0 from `result`.
 */
export async function finishRun(
  context: CliContext,
  reserved: ReservedFiles,
  signal: AbortSignal | undefined,
  result: RunResult,
  output: { readonly format: Format; readonly values?: FormatValues },
  render: (format: FormatId, options: RenderOptions) => string | Iterable<string>,
  chunkChars: number = REPORT_CHUNK_CHARS,
): Promise<number> {
  if (signal?.aborted) return await interrupted(context, reserved, signal);
  const options = (toStdout: boolean): RenderOptions => ({
    color: toStdout && context.color,
    // A terminal's width; else the default (100 columns).
    width: toStdout && context.stdoutTerminal ? context.columns : undefined,
    values: output.values,
  });
  let unwritten: string | undefined;
  for (const file of reserved.files) {
    try {
      let append = file.append;
      await writeChunks(render(file.format, options(false)), chunkChars, async (chunk) => {
        await context.writeFile(file.path, chunk, { append });
        append = true;
      });
    } catch (error) {
      unwritten ??= `${fileNamed(file)} could not be written (${
        error instanceof RangeError ? TOO_LARGE : problem(error)
      })`;
    }
  }
  try {
    await writeChunks(render(output.format, options(true)), chunkChars, context.stdout);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Nothing was printed: a renderer that builds one string fails before any is written.
    await context.stderr(
      `mcpeval: the ${output.format} report could not be printed (${TOO_LARGE}; --format json writes a report of any size)${
        unwritten === undefined ? "" : `; ${unwritten}`
      }\n`,
    );
    return EXIT.ioError;
  }
  if (unwritten !== undefined) {
    await context.stderr(`mcpeval: ${unwritten}; the report on stdout was still printed\n`);
    return EXIT.ioError;
  }
  if (!result.complete) return EXIT.incomplete;
  return result.passed ? EXIT.passed : EXIT.defect;
}

/** Why a report could not be rendered: past the longest string the runtime can build. */
const TOO_LARGE = "the report is too large for its format";

/**
 * Writes a report: a string at once, pieces joined into chunks of at least `chunkChars`
 * characters (a piece longer than that is a chunk alone), so that no chunk is much longer
 * than the longest piece.
 */
export async function writeChunks(
  report: string | Iterable<string>,
  chunkChars: number,
  write: (chunk: string) => Promise<void>,
): Promise<void> {
  if (typeof report === "string") return await write(report);
  let pending: string[] = [];
  let size = 0;
  for (const piece of report) {
    pending.push(piece);
    size += piece.length;
    if (size >= chunkChars) {
      const chunk = pending.join("");
      pending = [];
      size = 0;
      await write(chunk);
    }
  }
  if (pending.length > 0) await write(pending.join(""));
}

/**
 * A report file as a message names it: the path given to `--output`, escaped; the step summary
 * by its variable (its path is an environment value, never shown).
 */
function fileNamed(file: ReportTarget): string {
  return file.format === STEP_SUMMARY
    ? "the step summary (the file GITHUB_STEP_SUMMARY names)"
    : `the report file ${escaped(file.path)} given to --output`;
}

/**
 * A file-system error on writing a report file, as fixed words: never its message (it holds the
 * path), nor its class name.
 */
export function problem(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "its folder does not exist";
  const code = (error as { code?: unknown })?.code;
  if (code === "ENOSPC") return "no space left on the device";
  if (code === "EROFS") return "the file system is read-only";
  return pathProblem(error) ?? "it could not be written";
}

/** The effects a run needs, from the CLI's context: missing permissions say where flags go. */
export function runEffects(context: CliContext): CliContext {
  return { ...context, whereFlagsGo: (flags) => whereFlagsGo(flags, context.launch) };
}
