/**
 * A profile's failure as a value.
 *
 * @module
 */
import type { IncompleteReason } from "../hints.ts";

export type { IncompleteReason };

/** Why one profile's discovery stopped: a value, never an exception. */
export interface Incomplete {
  readonly reason: IncompleteReason;
  /** The HTTP status behind an `http-status` reason. */
  readonly httpStatus?: number;
}
