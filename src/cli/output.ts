/**
 * What every guidance command does around discovery: query permissions, reserve report files
 * before anything starts, and write the reports afterwards.
 *
 * @module
 */
import { EXIT } from "../exit.ts";
import { RENDER_SLICE_MS, REPORT_CHUNK_CHARS } from "../limits.ts";
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
import { collectGarbage } from "../run/collect.ts";

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

/** What an interrupted command says it stopped: a run's servers, or a merge's report. */
export type Interrupted = "run" | "merge";

/** The one stderr line of an interrupted command, by what it stopped and by signal. */
const INTERRUPTED_LINES: Readonly<Record<Interrupted, { SIGHUP: string; other: string }>> = {
  run: {
    SIGHUP: "mcpeval: hung up (SIGHUP); every server process was stopped\n",
    other: "mcpeval: interrupted; every server process was stopped\n",
  },
  merge: {
    SIGHUP: "mcpeval: hung up (SIGHUP); the merged report was not finished\n",
    other: "mcpeval: interrupted; the merged report was not finished\n",
  },
};

/**
 * Ends a run that was interrupted: no report, the reserved files removed, exit 129 for SIGHUP
 * (the reason of `signal`, by default the context's), else 130; `what` says what it stopped.
 */
export async function interrupted(
  context: CliContext,
  reserved: ReservedFiles,
  signal: AbortSignal | undefined = context.interrupted?.(),
  what: Interrupted = "run",
): Promise<number> {
  await reserved.discard();
  const hangup = signal?.reason === "SIGHUP";
  await context.stderr(INTERRUPTED_LINES[what][hangup ? "SIGHUP" : "other"]);
  return hangup ? EXIT.hangup : EXIT.interrupted;
}

/** What a finished run's exit code depends on. */
export interface RunResult {
  readonly complete: boolean;
  readonly passed: boolean | null;
}

/**
 * Ends a run whose analysis is done: exit 130 without a report if a signal came meanwhile;
 * else each reserved file, then the stdout report (in colour and at the terminal's width only
 * there; each format with its own options of `values`). A report rendered in pieces is written
 * in chunks of about `chunkChars` characters, never as one string, and a signal while it is
 * rendered or written is acted on within about {@linkcode RENDER_SLICE_MS} of work: exit 130
 * (129), the reserved files removed. `output.kind` "merge": its own line when interrupted, and
 * each format's garbage collected before the next is rendered (a merge's formats each read its
 * packed servers, and are never all held at once). Returns 74 when a file could not be written
 * (after printing the stdout report and one stderr line) or the stdout report could not be
 * rendered (one stderr line: too large for its format), else 3, 1 or 0 from `result`.
 */
export async function finishRun(
  context: CliContext,
  reserved: ReservedFiles,
  signal: AbortSignal | undefined,
  result: RunResult,
  output: {
    readonly format: Format;
    readonly values?: FormatValues;
    readonly kind?: Interrupted;
  },
  render: (format: FormatId, options: RenderOptions) => string | Iterable<string>,
  chunkChars: number = REPORT_CHUNK_CHARS,
): Promise<number> {
  const stop = () => interrupted(context, reserved, signal, output.kind);
  const merge = output.kind === "merge";
  const pace = { signal, collectPast: merge ? MERGE_HEAP_GROWTH_BYTES : undefined };
  if (signal?.aborted) return await stop();
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
      }, pace);
    } catch (error) {
      if (error instanceof RenderInterrupted) return await stop();
      unwritten ??= `${fileNamed(file)} could not be written (${
        error instanceof RangeError ? TOO_LARGE : problem(error)
      })`;
    }
    if (merge) await collectGarbage();
  }
  try {
    await writeChunks(render(output.format, options(true)), chunkChars, context.stdout, pace);
  } catch (error) {
    if (error instanceof RenderInterrupted) return await stop();
    if (!(error instanceof RangeError)) throw error;
    // A piece past the longest string the runtime can build (what came before it is printed).
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

/** A signal came while a report was rendered or written (see {@linkcode writeChunks}). */
export class RenderInterrupted extends Error {
  /** The signal's name (its reason). */
  constructor(readonly signal: unknown) {
    super("interrupted while a report was written");
  }
}

/**
 * While a merge renders, its garbage is collected once the heap has grown by this much since the
 * last collection: a render allocates fast, and the runtime would let what it promoted grow the
 * heap by a few hundred MiB before collecting it, while what stays alive is small.
 */
const MERGE_HEAP_GROWTH_BYTES = 64 * 1_048_576;

/**
 * Writes a report: a string at once, pieces joined into chunks of at least `chunkChars`
 * characters (a piece longer than that is a chunk alone), so that no chunk is much longer
 * than the longest piece. Between pieces, the event loop gets a turn after about
 * {@linkcode RENDER_SLICE_MS} of work; once `pace.signal` is aborted (even while a write waits
 * on a reader that does not read), it throws {@linkcode RenderInterrupted} and writes nothing
 * more. With `pace.collectPast`, garbage is collected (checked at each turn of the event loop)
 * whenever the heap has grown by that many bytes since the last collection.
 */
export async function writeChunks(
  report: string | Iterable<string>,
  chunkChars: number,
  write: (chunk: string) => Promise<void>,
  pace: { readonly signal?: AbortSignal; readonly collectPast?: number } = {},
): Promise<void> {
  const { signal, collectPast } = pace;
  let collected = collectPast === undefined ? 0 : Deno.memoryUsage().heapUsed;
  /** A turn of the event loop (in which a signal's listener runs), and a collection if due. */
  const turn = async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal?.aborted) throw new RenderInterrupted(signal.reason);
    if (collectPast !== undefined && Deno.memoryUsage().heapUsed - collected >= collectPast) {
      await collectGarbage();
      collected = Deno.memoryUsage().heapUsed;
    }
  };
  const abort = signal && abortOf(signal);
  const written = async (chunk: string) => {
    if (!abort) return await write(chunk);
    if (signal!.aborted) throw new RenderInterrupted(signal!.reason);
    await Promise.race([write(chunk), abort.promise]);
    if (signal!.aborted) throw new RenderInterrupted(signal!.reason);
  };
  try {
    if (typeof report === "string") return await written(report);
    let pending: string[] = [];
    let size = 0;
    let slice = performance.now();
    for (const piece of report) {
      // An empty piece only lets a renderer that is counting give the event loop its turn.
      if (piece !== "") {
        pending.push(piece);
        size += piece.length;
      }
      if (size >= chunkChars) {
        const chunk = pending.join("");
        pending = [];
        size = 0;
        await written(chunk);
      }
      if (performance.now() - slice >= RENDER_SLICE_MS) {
        await turn();
        slice = performance.now();
      }
    }
    if (pending.length > 0) await written(pending.join(""));
  } finally {
    abort?.dispose();
  }
}

/** A promise that rejects once `signal` aborts, and a way to stop listening. */
function abortOf(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let listener: (() => void) | undefined;
  const promise = new Promise<never>((_, reject) => {
    listener = () => reject(new RenderInterrupted(signal.reason));
    if (signal.aborted) listener();
    else signal.addEventListener("abort", listener, { once: true });
  });
  // Nobody may await it: an abort after the last write is no unhandled rejection.
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener("abort", listener!) };
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
