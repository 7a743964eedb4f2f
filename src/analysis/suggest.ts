/**
 * `did you mean ...?`: the known word closest to a mistyped one, by edit distance
 * (`fastest-levenshtein`): leniently for the command line's own words, strictly for names.
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

/**
 * The name closest to `word` by edit distance, when close enough to be a likely typo: at most 1
 * edit for words of 3 or 4 characters, 2 from 5 on (a swap of two letters is 2). Ties go to the
 * first in order. Used for names in reports (a tool a profile lists), where a wrong suggestion
 * costs more than a missing one.
 *
 * @example
 * ```ts
 * closestTypo("serach", ["search", "select"]); // "search"
 * ```
 */
export function closestTypo(word: string, names: readonly string[]): string | undefined {
  const limit = word.length >= 5 ? 2 : word.length >= 3 ? 1 : 0;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of names) {
    if (Math.abs(name.length - word.length) > limit) continue;
    const d = distance(word, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The one word of `known` that `given` (at least 3 characters) begins, ignoring case; undefined
 * when none or several do, or when `given` is itself known. `claude` completes to `claude-code`.
 *
 * @example
 * ```ts
 * completion("claude", ["claude-code", "cursor"]); // "claude-code"
 * ```
 */
export function completion(given: string, known: readonly string[]): string | undefined {
  const word = given.toLowerCase();
  if (word.length < 3 || known.includes(given)) return undefined;
  const matches = known.filter((candidate) => candidate.toLowerCase().startsWith(word));
  return matches.length === 1 ? matches[0] : undefined;
}

/** How many known names a list after an unknown one shows at most. */
const LISTED = 20;

/**
 * What follows a lookup that found nothing: `; did you mean X?` for a close word of `known`
 * (see {@linkcode closest}), else `; ${intro} a, b, c` (at most 20, then how many more), else
 * `none` when `known` is empty. Every word of `known` must be safe to show.
 *
 * @example
 * ```ts
 * lookupHint("memry", ["memory", "docs"], "it lists:", ""); // "; did you mean memory?"
 * lookupHint("x", ["memory", "docs"], "it lists:", ""); // "; it lists: docs, memory"
 * ```
 */
export function lookupHint(
  given: string,
  known: readonly string[],
  intro: string,
  none: string,
): string {
  const likely = closest(given, known);
  if (likely !== undefined) return `; did you mean ${likely}?`;
  if (known.length === 0) return none;
  const sorted = [...new Set(known)].sort();
  const more = sorted.length - LISTED;
  return `; ${intro} ${sorted.slice(0, LISTED).join(", ")}${more > 0 ? `, and ${more} more` : ""}`;
}
