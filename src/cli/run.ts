/**
 * The one place that turns a command line into output and an exit code.
 *
 * @module
 */
import { discoverAll } from "../discovery/discover.ts";
import { checkPermissions } from "../permissions.ts";
import { buildReport } from "../report/build.ts";
import { renderJson } from "../report/json.ts";
import { reportJsonSchema } from "../report/schema.ts";
import { renderText } from "../report/text.ts";
import { SpawnError } from "../transport/stdio.ts";
import { VERSION } from "../version.ts";
import { parseGuidanceArgs } from "./args.ts";
import { EXIT, InvocationError } from "./errors.ts";
import { GUIDANCE_HELP, MAIN_HELP, USAGE } from "./help.ts";

/** Every effect the CLI has, so tests and embedders can supply their own. */
export interface CliContext {
  /** Writes to standard output. */
  readonly stdout: (text: string) => Promise<void>;
  /** Writes to standard error. */
  readonly stderr: (text: string) => Promise<void>;
  /** Reads an environment variable (for `--header`); may throw without permission. */
  readonly env: (name: string) => string | undefined;
  /** Whether text output may be coloured (a terminal, and NO_COLOR unset). */
  readonly color: boolean;
  /** Aborts a running discovery (SIGINT, SIGTERM). */
  readonly signal?: AbortSignal;
}

/** Exit code of a run stopped by a signal. */
const EXIT_INTERRUPTED = 130;

/**
 * Runs `mcpeval` with `argv` (without the program name) and returns the exit code.
 *
 * @example
 * ```ts
 * const code = await run(["--version"], context);
 * ```
 */
export async function run(argv: readonly string[], context: CliContext): Promise<number> {
  try {
    return await dispatch(argv, context);
  } catch (error) {
    if (error instanceof InvocationError) {
      await context.stderr(`mcpeval: ${error.message}\n${error.showUsage ? "\n" + USAGE : ""}`);
      return error.exitCode;
    }
    const kind = error instanceof Error ? error.name : typeof error;
    await context.stderr(`mcpeval: internal error (${kind}); this is a bug in mcpeval\n`);
    return EXIT.internalError;
  }
}

async function dispatch(argv: readonly string[], context: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new InvocationError("A command is required", { showUsage: true });
    case "--help":
    case "-h":
    case "help":
      await context.stdout(MAIN_HELP);
      return EXIT.passed;
    case "--version":
    case "-V":
      await context.stdout(`mcpeval ${VERSION}\n`);
      return EXIT.passed;
    case "schema":
      if (rest.length !== 1 || rest[0] !== "guidance") {
        throw new InvocationError("Usage: mcpeval schema guidance");
      }
      await context.stdout(JSON.stringify(reportJsonSchema(), null, 2) + "\n");
      return EXIT.passed;
    case "guidance":
      return await guidance(rest, context);
    default:
      throw new InvocationError("Unknown command", { showUsage: true });
  }
}

async function guidance(argv: readonly string[], context: CliContext): Promise<number> {
  const request = parseGuidanceArgs(argv, context.env);
  if (request.help) {
    await context.stdout(GUIDANCE_HELP);
    return EXIT.passed;
  }
  const { options } = request;
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
