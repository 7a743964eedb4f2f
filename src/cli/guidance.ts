/**
 * `mcpeval guidance` once its request is valid: permissions, report files, discovery, report,
 * output, exit code.
 *
 * @module
 */
import { discoverAll } from "../discovery/discover.ts";
import { EXIT } from "../exit.ts";
import { permissionsNeeded } from "../permissions.ts";
import { SpawnError } from "../transport/stdio.ts";
import type { GuidanceRequest } from "./args.ts";
import type { CliContext } from "./context.ts";
import { InvocationError } from "./errors.ts";
import { interrupted, requirePermissions, reserveReportFiles, writeReports } from "./output.ts";

/** Runs discovery for a validated request, writes the reports, and returns the exit code. */
export async function runGuidanceCommand(
  { discovery, output }: GuidanceRequest,
  context: CliContext,
): Promise<number> {
  await requirePermissions(context, permissionsNeeded(discovery, output));
  const reserved = await reserveReportFiles(context, output);

  const signal = context.interrupted?.();
  let outcomes;
  try {
    outcomes = await discoverAll(discovery, context.openTransport, signal);
  } catch (error) {
    await reserved.discard();
    if (error instanceof SpawnError) throw spawnProblem(error);
    throw error;
  }
  if (signal?.aborted) return await interrupted(context, reserved);

  const [{ buildReport }, { render }, { renderGithubSummary }] = await Promise.all([
    import("../report/build.ts"),
    import("../report/render.ts"),
    import("../report/github.ts"),
  ]);
  const report = buildReport(discovery, outcomes);
  const code = !report.complete ? EXIT.incomplete : report.passed ? EXIT.passed : EXIT.defect;
  return await writeReports(
    context,
    reserved,
    (format, color) =>
      format === "summary" ? renderGithubSummary(report) : render(report, format, { color }),
    output.format,
    code,
  );
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
