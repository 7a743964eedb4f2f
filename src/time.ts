/**
 * Bounded waiting: every wait in mcpeval goes through here.
 *
 * @module
 */
import { setTimeout as delay } from "node:timers/promises";

export { delay };

/** What {@linkcode before} returns when the deadline passes first. */
export const DEADLINE: unique symbol = Symbol("deadline");

/**
 * Waits for `promise` until `deadline` (a `Date.now()` value); returns {@linkcode DEADLINE} if
 * the deadline comes first. The promise itself is left running.
 */
export async function before<T>(
  deadline: number,
  promise: Promise<T>,
): Promise<T | typeof DEADLINE> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return DEADLINE;
  const cancel = new AbortController();
  const expired: Promise<typeof DEADLINE> = delay(remaining, undefined, { signal: cancel.signal })
    .catch(() => undefined).then(() => DEADLINE);
  try {
    return await Promise.race([promise, expired]);
  } finally {
    cancel.abort();
  }
}
