/**
 * `did you mean ...?`: the known word closest to a mistyped one, by edit distance.
 *
 * @module
 */
import { distance } from "fastest-levenshtein";

/**
 * The word of `known` that `given` most likely misspells, or undefined when none is close: a
 * case-insensitive edit distance of at most a third of the word (at least 2), or a known word
 * that starts with `given` (at least 3 characters) or that `given` starts with. Ties go to the
 * earlier word of `known`.
 *
 * @example
 * ```ts
 * closest("guidnace", ["guidance", "schema"]); // "guidance"
 * closest("settle", ["settle-ms", "timeout-ms"]); // "settle-ms"
 * ```
 */
export function closest(given: string, known: readonly string[]): string | undefined {
  const word = given.toLowerCase();
  if (word === "" || known.includes(given)) return undefined;
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    const limit = Math.max(2, Math.floor(Math.max(word.length, other.length) / 3));
    const edits = distance(word, other);
    const prefix = word.length >= 3 && (other.startsWith(word) || word.startsWith(other));
    const score = edits <= limit ? edits : prefix ? limit + 1 : Infinity;
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
