/**
 * How a client cuts a text it passes on to its model (a server's instructions, a tool's
 * description): the first `max` units of it, counted in UTF-16 units, code points or bytes of
 * UTF-8, as the lab observed the client count (SPEC 25). Pure.
 *
 * @module
 */

/** The unit a client counts a cut in. */
export type CutUnit = "utf-16" | "code-points" | "bytes";

/** The units, in one list. */
export const CUT_UNITS: readonly CutUnit[] = ["utf-16", "code-points", "bytes"];

const encoder = new TextEncoder();

/**
 * `text` cut to at most `max` of `unit` (a character is never split in code points or bytes;
 * in UTF-16 units a surrogate pair may be, as a client that slices does).
 *
 * @example
 * ```ts
 * cutText("a😀b", 2, "utf-16"); // "a\ud83d"
 * cutText("a😀b", 2, "code-points"); // "a😀"
 * cutText("a😀b", 4, "bytes"); // "a"
 * ```
 */
export function cutText(text: string, max: number, unit: CutUnit = "utf-16"): string {
  if (unit === "utf-16" || text.length <= max && unit === "code-points") {
    return text.slice(0, max);
  }
  let out = "";
  let size = 0;
  for (const char of text) {
    const step = unit === "bytes" ? encoder.encode(char).length : 1;
    if (size + step > max) break;
    out += char;
    size += step;
  }
  return out;
}
