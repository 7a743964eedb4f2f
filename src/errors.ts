/**
 * Errors by audience. A {@linkcode UserError} is a mistake the caller can fix (a field or option
 * that breaks a rule, a file that cannot be used, a missing permission): the CLI exits 2 with
 * its message, the library throws it. Anything else that escapes is a bug in mcpeval.
 *
 * @module
 */
import { EXIT } from "./exit.ts";

/**
 * A mistake in what was asked for; nothing was started. Its message is a fixed phrase, and it
 * carries the exit code the CLI ends with (2 unless a subclass says otherwise).
 */
export class UserError extends Error {
  /** The CLI's exit code for it: 2, an invalid invocation. */
  readonly exitCode: number = EXIT.invalidInvocation;

  /** `message` names options, fields and labels, never a value given. */
  constructor(message: string) {
    super(message);
    this.name = "UserError";
  }
}

/** A file holds more bytes than its reader allows (reading stopped there). */
export class FileTooLargeError extends RangeError {
  /** The bound that was passed, in bytes. */
  readonly maxBytes: number;

  /** `maxBytes` is the bound the reader was given. */
  constructor(maxBytes: number) {
    super(`The file holds more than ${maxBytes} bytes`);
    this.name = "FileTooLargeError";
    this.maxBytes = maxBytes;
  }
}
