/**
 * The hand-written edit distance of src/analysis/suggest.ts against the library it replaced
 * (`fastest-levenshtein`, the oracle): the same distance for every pair, and with a bound, the
 * distance when it is within the bound and `max + 1` when it is not.
 */
import assert from "node:assert/strict";
import { distance as oracle } from "fastest-levenshtein";
import { distance } from "../src/analysis/suggest.ts";
import { random } from "./_random.ts";

const ALPHABETS = ["ab", "abc-_", "abcdefghijklmnopqrstuvwxyz0123456789._/-", "aé漢😀"];

function word(next: () => number, alphabet: string, length: number): string {
  const units = [...alphabet];
  return Array.from({ length }, () => units[Math.floor(next() * units.length)]).join("");
}

Deno.test("distance equals fastest-levenshtein's on 20,000 pairs, with and without a bound", () => {
  const next = random(20261201);
  for (let n = 0; n < 20_000; n++) {
    const alphabet = ALPHABETS[n % ALPHABETS.length];
    const a = word(next, alphabet, Math.floor(next() * 40));
    // Often a near copy: the cases a suggestion is about.
    const b = next() < 0.5
      ? a.slice(0, Math.floor(next() * (a.length + 1))) +
        word(next, alphabet, Math.floor(next() * 3))
      : word(next, alphabet, Math.floor(next() * 40));
    const expected = oracle(a, b);
    assert.equal(distance(a, b), expected, `${JSON.stringify(a)} ${JSON.stringify(b)}`);
    const max = Math.floor(next() * 4);
    assert.equal(distance(a, b, max), Math.min(expected, max + 1), `${a} ${b} max ${max}`);
  }
});

Deno.test("distance of the edge cases", () => {
  for (
    const [a, b] of [["", ""], ["", "abc"], ["abc", ""], ["kitten", "sitting"], ["a", "a"]]
  ) {
    assert.equal(distance(a, b), oracle(a, b));
    assert.equal(distance(a, b, 1), Math.min(oracle(a, b), 2));
  }
  // 128-character tool names, far apart: the bounded distance gives up at once.
  assert.equal(distance("a".repeat(128), "b".repeat(128), 2), 3);
});
