/**
 * `mcpeval guidance` once its arguments are valid, for one server or a config file's servers
 * alike: plan the run (permissions, files, baseline), reserve the report files, run it with live
 * progress on a terminal, then write the reports and return the exit code.
 *
 * @module
 */
import { FORMAT_OPTIONS } from "../report/formats/mod.ts";
import { withConfigValues } from "../report/formats/options.ts";
import type { SpawnError } from "../transport/stdio.ts";
import type { Leftover } from "../transport/transport.ts";
import type { RunEvent } from "../run/run.ts";
import { passedValues, type RunPlan } from "../run/plan.ts";
import { ServerStderrWriter } from "../run/server_stderr.ts";
import { CLI_LABELS, type GuidanceArgs } from "./args.ts";
import type { CliContext } from "./context.ts";
import { InvocationError } from "./errors.ts";
import { finishRun, interrupted, reserveReportFiles, runEffects } from "./output.ts";
import { Progress } from "./progress.ts";

/** Runs a validated guidance command (one server, or a config file's) and returns the exit code. */
export async function runGuidanceCommand(
  { request, quiet }: Extract<GuidanceArgs, { help: false }>,
  context: CliContext,
): Promise<number> {
  const { output } = request;
  const { planRun } = await import("../run/run.ts");
  const plan: RunPlan = await planRun(request, runEffects(context), CLI_LABELS);
  // From here a signal no longer exits at once: the run stops its servers and removes the files
  // it reserved first.
  const signal = context.interrupted?.();
  const reserved = await reserveReportFiles(context, output);
  // Off a terminal, plain lines only for a long run (PLAIN_PROGRESS_AFTER_MS).
  const progress = quiet
    ? undefined
    : new Progress(plan, context.stderr, context.stderrTerminal ?? "plain", context.columns ?? 80);
  // A stdio server's own words, masked, on stderr only: each line with --server-stderr inherit
  // (above the live progress), or the last lines of a server that went away with tail.
  const serverOutput = new ServerStderrWriter({
    servers: plan.servers.flatMap((server) =>
      "request" in server ? [{ server: server.name, target: server.request.target }] : []
    ),
    masked: passedValues(plan),
    write: progress ? (text) => progress.above(text) : context.stderr,
    pointer: !quiet,
  });
  const leftovers: Extract<RunEvent, { kind: "leftover" }>[] = [];
  const observe = (event: RunEvent) => {
    if (event.kind === "leftover") leftovers.push(event);
    else if (event.kind === "stderr") serverOutput.observe(event);
    else progress?.observe(event);
  };
  const { executeRun } = await import("../run/run.ts");
  let outcome;
  try {
    outcome = await executeRun(plan, (...open) => context.openTransport(...open), {
      signal,
      observe,
      stderrEvents: serverOutput.heard,
    });
  } catch (error) {
    await progress?.stop(true);
    await reserved.discard();
    throw error;
  }
  if (outcome.kind === "not-started") {
    await progress?.stop(true);
    await reserved.discard();
    throw spawnProblem(outcome.failure);
  }
  const run = outcome;
  // The report follows on the same terminal: clear the live lines; else leave their end state.
  await progress?.stop(context.stdoutTerminal === true);
  const several = plan.servers.length > 1 || plan.fleet !== undefined;
  for (const { server, profile, leftover } of leftovers) {
    const who = several ? `server ${server}, profile ${profile}` : `profile ${profile}`;
    await context.stderr(`mcpeval: ${who}: ${leftoverSentence(leftover)}\n`);
  }
  if (signal?.aborted) return await interrupted(context, reserved, signal);
  await serverOutput.finish(
    run.kind === "server"
      ? [{ name: run.report.server, outcomes: run.report.profiles }]
      : run.fleet.servers.flatMap((server) =>
        server.checked ? [{ name: server.name, outcomes: server.report.profiles }] : []
      ),
  );

  const { loadFormats, runResult } = await import("../report/formats/mod.ts");
  const formats = await loadFormats([output.format, ...reserved.files.map((file) => file.format)]);
  // A signal during analysis still ends the run with 130 and no report (finishRun).
  return await finishRun(
    context,
    reserved,
    signal,
    runResult(run),
    {
      format: output.format,
      // A fleet: the options the config file's path gives (SARIF: the file itself).
      values: withConfigValues(
        output.options,
        FORMAT_OPTIONS,
        request.servers.kind === "fleet" ? request.servers.path : undefined,
      ),
    },
    (format, options) => formats.get(format)!.render(run, options),
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

function spawnProblem(failure: SpawnError["failure"]): InvocationError {
  switch (failure) {
    case "not-found":
      return new InvocationError(
        "Cannot start the server command: it was not found (check the command after '--' and PATH)",
      );
    case "cwd-not-found":
      return new InvocationError(
        "Cannot start the server command: its working folder (cwd) does not exist",
      );
    case "permission-denied":
      return new InvocationError(
        "Cannot start the server command: permission denied (is it executable, and allowed by --allow-run?)",
      );
    default:
      return new InvocationError("Cannot start the server command");
  }
}
