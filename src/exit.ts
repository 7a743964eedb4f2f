/**
 * The exit codes of `mcpeval`, each with what it means, in one table.
 *
 * @module
 */

/** Exit codes by name. */
export const EXIT = {
  passed: 0,
  defect: 1,
  invalidInvocation: 2,
  incomplete: 3,
  internalError: 70,
  ioError: 74,
  hangup: 129,
  interrupted: 130,
} as const;

/** An exit code of `mcpeval`. */
export type ExitCode = typeof EXIT[keyof typeof EXIT];

/** What each exit code means, in the order `--help` lists them. */
export const EXIT_MEANINGS: readonly (readonly [ExitCode, string])[] = [
  [EXIT.passed, "discovery complete, no defect"],
  [EXIT.defect, "discovery complete, a required (or baseline) tool is missing from a profile"],
  [EXIT.invalidInvocation, "invalid invocation (no discovery, no report)"],
  [EXIT.incomplete, "discovery incomplete for at least one profile"],
  [EXIT.internalError, "internal error in mcpeval"],
  [
    EXIT.ioError,
    "a report could not be written (the stdout report is still printed), or is too large for its format",
  ],
  [
    EXIT.hangup,
    "hung up (SIGHUP: a closed terminal, a CI cancel); every server process is stopped first",
  ],
  [EXIT.interrupted, "interrupted (SIGINT or SIGTERM); every server process is stopped first"],
];
