/**
 * `mcpeval guidance` once its request is valid: permissions, report files, discovery, report,
 * output, exit code.
 *
 * @module
 */
import { discoverAll } from "../discovery/discover.ts";
import type { DiscoveryEvent } from "../discovery/events.ts";
import { permissionsNeeded } from "../permissions.ts";
import { RequestError } from "../request.ts";
import { SpawnError } from "../transport/stdio.ts";
import type { Leftover } from "../transport/transport.ts";
import { CLI_LABELS, type GuidanceRequest } from "./args.ts";
import { readBaselineFile } from "./baseline.ts";
import type { CliContext } from "./context.ts";
import { InvocationError } from "./errors.ts";
import { finishRun, interrupted, requirePermissions, reserveReportFiles } from "./output.ts";
import { Progress } from "./progress.ts";
import { ServerOutput } from "./server_stderr.ts";

/** Runs discovery for a validated request, writes the reports, and returns the exit code. */
export async function runGuidanceCommand(
  { discovery, output, quiet, baseline }: GuidanceRequest,
  context: CliContext,
): Promise<number> {
  await requirePermissions(
    context,
    permissionsNeeded(discovery, output, { baseline: baseline?.path }),
  );
  let comparison;
  if (baseline) {
    const value = await readBaselineFile(baseline, context);
    const { validateComparison } = await import("../comparison.ts");
    try {
      comparison = validateComparison(
        { baseline: value, requireBaselineTools: baseline.requireBaselineTools },
        discovery.server,
        CLI_LABELS,
      );
    } catch (error) {
      if (error instanceof RequestError) throw new InvocationError(error.message);
      throw error;
    }
  }
  const reserved = await reserveReportFiles(context, output);

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
  const serverOutput = new ServerOutput(context, quiet);
  let outcomes;
  try {
    outcomes = await discoverAll(discovery, serverOutput.open(discovery), signal, observe);
  } catch (error) {
    await progress?.stop(true);
    await reserved.discard();
    if (error instanceof SpawnError) throw spawnProblem(error);
    throw error;
  }
  // The report follows on the same terminal: clear the live lines; else leave their end state.
  await progress?.stop(context.stdoutTerminal === true);
  for (const { profile, leftover } of leftovers) {
    await context.stderr(`mcpeval: profile ${profile}: ${leftoverSentence(leftover)}\n`);
  }
  if (signal?.aborted) return await interrupted(context, reserved);
  await serverOutput.finish([{ name: discovery.server, outcomes }]);

  const [{ buildReport }, { render }, { renderGithubSummary }] = await Promise.all([
    import("../report/build.ts"),
    import("../report/render.ts"),
    import("../report/github.ts"),
  ]);
  const report = buildReport({ ...discovery, ...comparison }, outcomes);
  // A signal during analysis still ends the run with 130 and no report (finishRun).
  return await finishRun(
    context,
    reserved,
    signal,
    report,
    { format: output.format, location: output.sarifLocation },
    (format, options) =>
      format === "summary" ? renderGithubSummary(report) : render(report, format, options),
  );
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
