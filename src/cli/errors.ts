/**
 * Errors by audience: a user's invalid invocation carries exit code 2 and a message that names
 * the option and the rule, never the value given.
 *
 * @module
 */
import { EXIT } from "../exit.ts";

/** An invalid invocation: nothing is discovered and no report is written. */
export class InvocationError extends Error {
  /** Always 2. */
  readonly exitCode: number = EXIT.invalidInvocation;
  /** Whether the usage text should follow the message (no arguments, unknown command). */
  readonly showUsage: boolean;

  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.name = "InvocationError";
    this.showUsage = options.showUsage ?? false;
  }
}
