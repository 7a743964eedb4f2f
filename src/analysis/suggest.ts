/**
 * `did you mean ...?`: the known word closest to a mistyped one, by edit distance: leniently
 * for the command line's own words, strictly for names.
 *
 * @module
 */

/**
 * The Levenshtein distance of `a` and `b` (insertions, deletions and substitutions of UTF-16
 * units); with `max`, any distance above it is `max + 1`, found in O(|a|·max) time by computing
 * only the band of cells within `max` of the diagonal. Hand-written: `fastest-levenshtein`,
 * which it replaces, cost every `guidance` run about 20 ms of start-up as an npm import
 * (docs/performance.md); tests/suggest_test.ts keeps it as the oracle.
 */
export function distance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  const bound = Math.min(max, Math.max(a.length, b.length));
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const over = bound + 1;
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = Math.min(j, over);
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - bound);
    const to = Math.min(b.length, i + bound);
    current[0] = Math.min(i, over);
    if (from > 1) current[from - 1] = over;
    let best = current[0];
    const ai = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const substitution = previous[j - 1] + (ai === b.charCodeAt(j - 1) ? 0 : 1);
      const cell = Math.min(previous[j] + 1, current[j - 1] + 1, substitution, over);
      current[j] = cell;
      if (cell < best) best = cell;
    }
    if (to < b.length) current[to + 1] = over;
    if (best >= over) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

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
    const d = distance(word, name, limit);
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
