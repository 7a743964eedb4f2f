/**
 * Errors by audience: a user's invalid invocation carries exit code 2 and a message that names
 * the option and the rule, never the value given.
 *
 * @module
 */
import { EXIT } from "../exit.ts";
import { UserError } from "../errors.ts";

/** An invalid invocation: nothing is discovered and no report is written. */
export class InvocationError extends UserError {
  /** Whether the usage text should follow the message (no arguments, unknown command). */
  readonly showUsage: boolean;

  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.name = "InvocationError";
    this.showUsage = options.showUsage ?? false;
  }
}

export { FileTooLargeError } from "../errors.ts";

/** Standard output could not be written (a full device, a closed descriptor): exit 74. */
export class OutputError extends Error {
  /** Always 74 (EX_IOERR). */
  readonly exitCode: number = EXIT.ioError;

  /** `cause` is the error's name only, never its message (it may hold a path). */
  constructor(cause: string) {
    super(`The report could not be written to standard output (${cause})`);
    this.name = "OutputError";
  }
}
