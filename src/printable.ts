/**
 * What of a user's input may be shown.
 *
 * @module
 */

/**
 * `value` if it can be shown on one line as it is (printable ASCII, at most 200 characters),
 * else undefined: a value with line breaks or control characters is never echoed.
 */
export function shown(value: string): string | undefined {
  return /^[\x20-\x7e]{1,200}$/.test(value) ? value : undefined;
}
