/**
 * `mcpeval guidance` once its request is valid: permissions, report files, discovery, report,
 * output, exit code.
 *
 * @module
 */
import type { ComparisonRequest } from "../comparison.ts";
import { discoverAll } from "../discovery/discover.ts";
import type { DiscoveryEvent } from "../discovery/events.ts";
import { EXIT } from "../exit.ts";
import { MAX_BASELINE_BYTES, MAX_BASELINE_CONTAINERS } from "../limits.ts";
import { missingPermissionsMessage, permissionsNeeded } from "../permissions.ts";
import { containersAtMost } from "../protocol/messages.ts";
import { RequestError } from "../request.ts";
import { SpawnError } from "../transport/stdio.ts";
import type { Leftover } from "../transport/transport.ts";
import { type BaselineFile, CLI_LABELS, type GuidanceRequest } from "./args.ts";
import type { CliContext } from "./context.ts";
import { FileTooLargeError, InvocationError } from "./errors.ts";
import { Progress } from "./progress.ts";

/** Runs discovery for a validated request, writes the reports, and returns the exit code. */
export async function runGuidanceCommand(
  { discovery, output, quiet, baseline }: GuidanceRequest,
  context: CliContext,
): Promise<number> {
  const missing = [];
  for (const need of permissionsNeeded(discovery, output, { baseline: baseline?.path })) {
    if (await context.permission(need.descriptor) !== "granted") missing.push(need);
  }
  if (missing.length > 0) throw new InvocationError(missingPermissionsMessage(missing));
  const comparison = baseline && await readBaseline(baseline, discovery.server, context);

  const files = [
    ...output.files.map((file) => ({ ...file, append: false })),
    ...(output.stepSummary
      ? [{ path: output.stepSummary, format: "summary" as const, append: true }]
      : []),
  ];
  const created: string[] = [];
  for (const { path } of files) {
    try {
      if ((await context.reserveFile(path)).created) created.push(path);
    } catch (error) {
      await removeAll(context, created);
      throw new InvocationError(
        `Cannot write a report file given to --output or the step summary (${problem(error)})`,
      );
    }
  }

  const signal = context.interrupted?.();
  const progress = context.stderrTerminal && !quiet
    ? new Progress(
      discovery.server,
      discovery.target.kind,
      discovery.profiles,
      context.stderr,
      context.stderrTerminal,
      context.columns ?? 80,
    )
    : undefined;
  const leftovers: Extract<DiscoveryEvent, { kind: "leftover" }>[] = [];
  const observe = (event: DiscoveryEvent) => {
    if (event.kind === "leftover") leftovers.push(event);
    progress?.observe(event);
  };
  let outcomes;
  try {
    outcomes = await discoverAll(discovery, context.openTransport, signal, observe);
  } catch (error) {
    await progress?.stop(true);
    await removeAll(context, created);
    if (error instanceof SpawnError) throw spawnProblem(error);
    throw error;
  }
  // The report follows on the same terminal: clear the live lines; else leave their end state.
  await progress?.stop(context.stdoutTerminal === true);
  for (const { profile, leftover } of leftovers) {
    await context.stderr(`mcpeval: profile ${profile}: ${leftoverSentence(leftover)}\n`);
  }
  if (signal?.aborted) {
    await removeAll(context, created);
    await context.stderr("mcpeval: interrupted; every server process was stopped\n");
    return EXIT.interrupted;
  }

  const [{ buildReport }, { render }, { renderGithubSummary }] = await Promise.all([
    import("../report/build.ts"),
    import("../report/render.ts"),
    import("../report/github.ts"),
  ]);
  const report = buildReport({ ...discovery, ...comparison }, outcomes);
  let unwritten: string | undefined;
  for (const { path, format, append } of files) {
    const text = format === "summary"
      ? renderGithubSummary(report)
      : render(report, format, { color: false, location: output.sarifLocation });
    try {
      await context.writeFile(path, text, { append });
    } catch (error) {
      unwritten ??= problem(error);
    }
  }
  await context.stdout(render(report, output.format, {
    color: context.color,
    // A terminal's width; else the default (100 columns).
    width: context.stdoutTerminal ? context.columns : undefined,
    location: output.sarifLocation,
  }));
  if (unwritten !== undefined) {
    await context.stderr(
      `mcpeval: a report file could not be written (${unwritten}); the report on stdout was still printed\n`,
    );
    return EXIT.ioError;
  }
  if (!report.complete) return EXIT.incomplete;
  return report.passed ? EXIT.passed : EXIT.defect;
}

/**
 * Reads and validates `--baseline` before anything starts. Every problem is one fixed line: the
 * file's content and path are never repeated.
 */
async function readBaseline(
  file: BaselineFile,
  server: string,
  context: CliContext,
): Promise<ComparisonRequest> {
  let text: string;
  try {
    text = await context.readTextFile(file.path, MAX_BASELINE_BYTES);
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new InvocationError(
        `--baseline is larger than ${MAX_BASELINE_BYTES} bytes: it cannot be a report of mcpeval's`,
      );
    }
    throw new InvocationError(`Cannot read the --baseline file (${readProblem(error)})`);
  }
  if (!containersAtMost(text, MAX_BASELINE_CONTAINERS)) {
    throw new InvocationError(
      `--baseline holds more than ${MAX_BASELINE_CONTAINERS} JSON objects and arrays: it cannot be a report of mcpeval's`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvocationError(
      "--baseline is not valid JSON: give a report written by --format json or --output json=PATH",
    );
  }
  const { validateComparison } = await import("../comparison.ts");
  try {
    return validateComparison(
      { baseline: value, requireBaselineTools: file.requireBaselineTools },
      server,
      CLI_LABELS,
    )!;
  } catch (error) {
    if (error instanceof RequestError) throw new InvocationError(error.message);
    throw error;
  }
}

/** A file-system error on reading, as fixed words (never its message: it holds the path). */
function readProblem(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "it does not exist";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder";
  if (error instanceof Deno.errors.InvalidData) return "it is not UTF-8 text";
  return error instanceof Error ? error.name : "error";
}

/** A server process that could not be stopped, in one clause, with its pid. */
function leftoverSentence(leftover: Leftover): string {
  const { pid } = leftover;
  switch (leftover.cause) {
    case "not-stopped":
      return `the server process ${pid} did not exit after SIGKILL and may still be running`;
    case "group":
      return `a process the server started (process group ${pid}) still holds its output open; with a narrow --allow-run mcpeval may signal only the server itself: end it with 'kill -- -${pid}', or grant --allow-run without a list`;
    case "escaped":
      return `a process the server ${pid} started left its process group and still holds its output open; mcpeval could not stop it`;
  }
}

async function removeAll(context: CliContext, paths: readonly string[]): Promise<void> {
  for (const path of paths) await context.removeFile(path).catch(() => {});
}

/** A file-system error as a fixed word (its name), never its message (it holds the path). */
function problem(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "its folder does not exist";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder";
  return error instanceof Error ? error.name : "error";
}

function spawnProblem(error: SpawnError): InvocationError {
  switch (error.failure) {
    case "not-found":
      return new InvocationError(
        "Cannot start the server command: it was not found (check the command after '--' and PATH)",
      );
    case "permission-denied":
      return new InvocationError(
        "Cannot start the server command: permission denied (is it executable, and allowed by --allow-run?)",
      );
    default:
      return new InvocationError("Cannot start the server command");
  }
}
