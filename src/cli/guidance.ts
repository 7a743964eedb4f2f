/**
 * `mcpeval guidance` once its options are valid: permissions, discovery, report, output.
 *
 * @module
 */
import { discoverAll } from "../discovery/discover.ts";
import type { GuidanceOptions } from "../options.ts";
import { checkPermissions } from "../permissions.ts";
import { SpawnError } from "../transport/stdio.ts";
import { EXIT, InvocationError } from "./errors.ts";
import type { CliContext } from "./run.ts";

/** Exit code of a run stopped by a signal. */
const EXIT_INTERRUPTED = 130;

/** Runs discovery for validated options, writes the report, and returns the exit code. */
export async function runGuidanceCommand(
  options: GuidanceOptions,
  context: CliContext,
): Promise<number> {
  await checkPermissions(options);
  const signal = context.interrupted?.();

  let outcomes;
  try {
    outcomes = await discoverAll(options, signal);
  } catch (error) {
    if (error instanceof SpawnError) throw spawnProblem(error);
    throw error;
  }
  if (signal?.aborted) {
    await context.stderr("mcpeval: interrupted; every server process was stopped\n");
    return EXIT_INTERRUPTED;
  }

  const [{ buildReport }, { render }, { renderGithubSummary }] = await Promise.all([
    import("../report/build.ts"),
    import("../report/render.ts"),
    import("../report/github.ts"),
  ]);
  const report = buildReport(options, outcomes);
  const files = [
    ...options.outputs.map(({ format, path }) => ({
      path,
      text: render(report, format, { color: false }),
      append: false,
    })),
    ...(options.stepSummary
      ? [{ path: options.stepSummary, text: renderGithubSummary(report), append: true }]
      : []),
  ];
  for (const { path, text, append } of files) {
    try {
      await context.writeFile(path, text, { append });
    } catch (error) {
      const reason = error instanceof Error ? error.name : "error";
      throw new InvocationError(`Cannot write the report file given to --output (${reason})`);
    }
  }
  await context.stdout(render(report, options.format, { color: context.color }));
  if (!report.complete) return EXIT.incomplete;
  return report.passed ? EXIT.passed : EXIT.defect;
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
