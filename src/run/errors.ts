/**
 * A run that cannot start, for a reason its caller gave: a file that cannot be read or is not a
 * client config, a missing permission, a selection that names nothing.
 *
 * @module
 */
import { UserError } from "../errors.ts";

/** A run that cannot start as asked; nothing was started. */
export class RunError extends UserError {
  /** `message` is a fixed phrase (it may name options and labels, never a value given). */
  constructor(message: string) {
    super(message);
    this.name = "RunError";
  }
}
