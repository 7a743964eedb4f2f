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
  await checkPermissions(options.target);

  let outcomes;
  try {
    outcomes = await discoverAll(options, context.signal);
  } catch (error) {
    if (error instanceof SpawnError) throw spawnProblem(error);
    throw error;
  }
  if (context.signal?.aborted) {
    await context.stderr("mcpeval: interrupted; every server process was stopped\n");
    return EXIT_INTERRUPTED;
  }

  const [{ buildReport }, { renderJson }, { renderText }] = await Promise.all([
    import("../report/build.ts"),
    import("../report/json.ts"),
    import("../report/text.ts"),
  ]);
  const report = buildReport(options, outcomes);
  await context.stdout(
    options.format === "json" ? renderJson(report) : renderText(report, { color: context.color }),
  );
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
