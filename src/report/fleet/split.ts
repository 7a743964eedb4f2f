/**
 * A fleet report's JSON text split into its envelope and its server entries' texts, so that a
 * merge parses one entry at a time (each entry's objects die young) instead of the whole report
 * at once. Pure.
 *
 * @module
 */

/** The envelope's text (`servers` an empty array) and where each entry's text lies. */
export interface SplitReport {
  /** The report's text with `[]` for the `servers` array. */
  readonly envelope: string;
  /** How many entries. */
  readonly count: number;
  /** The text of entry `at` (from 0), as it stands between its separators. */
  entry(at: number): string;
}

import { closingQuote } from "../../json_text.ts";

const OUTSIDE_STRING = /[{}[\]",]/g;
const KEY_THEN_ARRAY = /[ \t\n\r]*:[ \t\n\r]*\[/y;
const BLANK = /^[ \t\n\r]*$/;

/**
 * `text` (a JSON object) split at its top-level array `field`, or undefined when it is not laid
 * out so plainly (not an object, no such field or more than one, an escape in a top-level
 * string, unbalanced brackets): then parse it whole. The split text is valid JSON when the
 * envelope and every entry text parse (an entry text that does not parse, such as the blank
 * one a trailing comma leaves, means the whole text is not valid JSON). Linear in the length.
 *
 * @example
 * ```ts
 * const split = splitArrayField('{"a":1,"servers":[{"n":1},{"n":2}]}', "servers")!;
 * JSON.parse(split.envelope); // { a: 1, servers: [] }
 * JSON.parse(split.entry(1)); // { n: 2 }
 * ```
 */
export function splitArrayField(text: string, field: string): SplitReport | undefined {
  const key = JSON.stringify(field);
  let depth = 0;
  let index = 0;
  let open = -1; // the array's `[`
  let close = -1; // its `]`
  const separators: number[] = []; // its `[`, each `,` between entries, its `]`
  let backslash = -1; // the first backslash after where it was last looked for (none: 2^32 - 1)
  while (true) {
    OUTSIDE_STRING.lastIndex = index;
    const found = OUTSIDE_STRING.exec(text);
    if (found === null) break;
    const at = found.index;
    index = at + 1;
    const char = text.charCodeAt(at);
    if (char === 0x22) {
      const quote = closingQuote(text, index, text.length);
      if (quote === -1) return undefined;
      // A top-level string with an escape: its key might be `field` spelled otherwise.
      if (depth === 1) {
        if (backslash < index) backslash = text.indexOf("\\", index) >>> 0;
        if (backslash < quote) return undefined;
      }
      index = quote + 1;
      if (depth === 1 && text.slice(at, index) === key) {
        KEY_THEN_ARRAY.lastIndex = index;
        if (KEY_THEN_ARRAY.test(text)) {
          if (open !== -1) return undefined;
          index = KEY_THEN_ARRAY.lastIndex;
          open = index - 1;
          separators.push(open);
          depth = 2;
        }
      }
      continue;
    }
    if (char === 0x2c) {
      if (depth === 2 && open !== -1 && close === -1) separators.push(at);
      continue;
    }
    if (char === 0x7b || char === 0x5b) {
      if (depth === 0 && (char !== 0x7b || !BLANK.test(text.slice(0, at)))) return undefined;
      depth++;
      continue;
    }
    depth--;
    if (depth < 0) return undefined;
    if (depth === 1 && open !== -1 && close === -1) {
      if (char !== 0x5d) return undefined;
      close = at;
      separators.push(close);
    }
  }
  if (depth !== 0 || open === -1 || close === -1) return undefined;
  const entry = (at: number) => text.slice(separators[at] + 1, separators[at + 1]);
  const count = separators.length === 2 && BLANK.test(entry(0)) ? 0 : separators.length - 1;
  return {
    envelope: `${text.slice(0, open)}[]${text.slice(close + 1)}`,
    count,
    entry,
  };
}
