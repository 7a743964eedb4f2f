/**
 * The one place that turns a command line into output and an exit code.
 *
 * @module
 */
import { UserError } from "../errors.ts";
import { EXIT } from "../exit.ts";
import { VERSION } from "../version.ts";
import type { CliContext } from "./context.ts";
import { denoFlag, misplacedDenoFlag } from "./deno_flags.ts";
import { InvocationError, OutputError } from "./errors.ts";
import { GUIDANCE_HELP, LAB_HELP, MAIN_HELP, MERGE_HELP, SCHEMA_HELP, USAGE } from "./help.ts";

export type { CliContext } from "./context.ts";

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
    if (error instanceof OutputError) {
      await context.stderr(`mcpeval: ${error.message}\n`).catch(() => {});
      return error.exitCode;
    }
    // A request or a run that cannot be used as asked (from any layer): its exit code.
    if (error instanceof UserError) {
      const usage = error instanceof InvocationError && error.showUsage ? "\n" + USAGE : "";
      await context.stderr(`mcpeval: ${error.message}\n${usage}`);
      return error.exitCode;
    }
    const kind = error instanceof Error ? error.name : typeof error;
    await context.stderr(`mcpeval: internal error (${kind}); this is a bug in mcpeval\n`);
    return EXIT.internalError;
  }
}

/** Whether a command's arguments are `--help` (or `-h`) alone. */
const loneHelp = (rest: readonly string[]) =>
  rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h");

/** The commands, for suggestions. */
const COMMANDS = ["guidance", "merge", "lab", "schema", "help"] as const;

/** Each command's help. */
const HELP: Readonly<Record<string, string>> = {
  guidance: GUIDANCE_HELP,
  merge: MERGE_HELP,
  lab: LAB_HELP,
  schema: SCHEMA_HELP,
  help: MAIN_HELP,
};

async function dispatch(argv: readonly string[], context: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new InvocationError("A command is required", { showUsage: true });
    case "--help":
    case "-h":
      await context.stdout(MAIN_HELP);
      return EXIT.passed;
    case "help": {
      // `help`, `help guidance`, `help schema`.
      if (rest.length > 1) throw await unknownCommand(rest[0], context);
      const text = rest.length === 0 ? MAIN_HELP : HELP[rest[0]];
      if (text === undefined) throw await unknownCommand(rest[0], context);
      await context.stdout(text);
      return EXIT.passed;
    }
    case "--version":
    case "-V":
      await context.stdout(`mcpeval ${VERSION}\n`);
      return EXIT.passed;
    case "schema": {
      if (loneHelp(rest)) {
        await context.stdout(SCHEMA_HELP);
        return EXIT.passed;
      }
      const { schemaText } = await import("./schema.ts");
      const text = rest.length === 1 ? await schemaText(rest[0]) : undefined;
      if (text === undefined) {
        throw new InvocationError("Usage: mcpeval schema guidance | guidance-fleet");
      }
      await context.stdout(text);
      return EXIT.passed;
    }
    case "guidance": {
      // `guidance --help` alone needs no parser (its other forms are the parser's).
      if (loneHelp(rest)) {
        await context.stdout(GUIDANCE_HELP);
        return EXIT.passed;
      }
      // Loaded only when needed, so --help, --version and schema start fast.
      const { parseGuidanceArgs } = await import("./args.ts");
      const args = await parseGuidanceArgs(rest, context);
      if (args.help) {
        await context.stdout(GUIDANCE_HELP);
        return EXIT.passed;
      }
      const { runGuidanceCommand } = await import("./guidance.ts");
      return await runGuidanceCommand(args, context);
    }
    case "merge": {
      const { runMergeCommand } = await import("./merge.ts");
      return await runMergeCommand(rest, context);
    }
    case "lab": {
      if (loneHelp(rest)) {
        await context.stdout(LAB_HELP);
        return EXIT.passed;
      }
      const { runLab } = await import("./lab.ts");
      return await runLab(rest, context);
    }
    default:
      throw await unknownCommand(command, context);
  }
}

/** An unknown command: a misplaced Deno flag, a likely command, or the usage. */
async function unknownCommand(command: string, context: CliContext): Promise<InvocationError> {
  const deno = denoFlag(command);
  if (deno) return new InvocationError(misplacedDenoFlag(deno, context.launch));
  // Loaded only for a mistake, so that --help, --version and schema start fast.
  const { closest } = await import("../analysis/suggest.ts");
  const likely = closest(command, COMMANDS);
  return likely
    ? new InvocationError(`Unknown command; did you mean ${likely}?`)
    : new InvocationError("Unknown command", { showUsage: true });
}
