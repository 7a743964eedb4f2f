/**
 * JSON text read without parsing it, for the scanners that bound or split a text before
 * `JSON.parse` sees it (the stdio framing, a baseline's containers, a fleet report's entries):
 * where a string ends, with its escapes stepped over. Text and UTF-8 bytes alike, since `"` and
 * `\` are one unit in both and never part of a multi-byte character. Pure.
 *
 * @module
 */

/** JSON as text, or as UTF-8 bytes. */
export type JsonUnits = string | Uint8Array;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The index of the quote that closes a JSON string, searched in `units[from, to)`: `from` is
 * just after the opening quote (or after an escape that a previous piece ended with); -1 when
 * the string does not end there. A quote closes it when an even number of backslashes between
 * `from` and it precede it. Linear in what it reads.
 *
 * @example
 * ```ts
 * closingQuote('"a\\"b" rest', 1, 11); // 5
 * ```
 */
export function closingQuote(units: JsonUnits, from: number, to: number): number {
  for (let index = from;;) {
    const quote = typeof units === "string"
      ? units.indexOf('"', index)
      : units.indexOf(QUOTE, index);
    if (quote === -1 || quote >= to) return -1;
    if (backslashesBefore(units, from, quote) % 2 === 0) return quote;
    index = quote + 1;
  }
}

/** Whether `units[from, to)`, inside a string, ends with an escape still open (a lone `\`). */
export function endsInEscape(units: JsonUnits, from: number, to: number): boolean {
  return backslashesBefore(units, from, to) % 2 === 1;
}

/** How many backslashes directly precede `at`, not looking before `from`. */
function backslashesBefore(units: JsonUnits, from: number, at: number): number {
  let count = 0;
  const code = typeof units === "string"
    ? (index: number) => units.charCodeAt(index)
    : (index: number) => units[index];
  while (at - count - 1 >= from && code(at - count - 1) === BACKSLASH) count++;
  return count;
}
