/**
 * A JSON document pretty-printed in pieces, never as one string, so that a document past the
 * runtime's longest string (a merge of hundreds of thousands of servers) can still be written.
 * Pure.
 *
 * @module
 */

/**
 * A JSON object pretty-printed (two spaces, a trailing newline) in pieces: each field, and each
 * item of a field that is an array or another iterable (a generator of servers), on its own.
 * Joined, the pieces are `JSON.stringify(document, null, 2) + "\n"` byte for byte (for an
 * iterable field, as if it were the array of its items).
 *
 * @example
 * ```ts
 * const text = [...jsonPieces({ a: 1, servers: [{ b: 2 }] })].join("");
 * ```
 */
export function* jsonPieces(document: object): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(document)) {
    if (!serializable(value)) continue;
    yield `${first ? "{" : ","}\n  ${JSON.stringify(key)}: `;
    first = false;
    if (Array.isArray(value) || isIterable(value)) {
      let empty = true;
      for (const item of value as Iterable<unknown>) {
        // An item that JSON.stringify leaves out of an object is `null` in an array.
        const text = serializable(item) ? JSON.stringify(item, null, 2) : "null";
        yield `${empty ? "[" : ","}\n    ${text.replaceAll("\n", "\n    ")}`;
        empty = false;
      }
      yield empty ? "[]" : "\n  ]";
    } else {
      // Pretty-printed JSON has no line break inside a string (they are escaped).
      yield JSON.stringify(value, null, 2).replaceAll("\n", "\n  ");
    }
  }
  yield first ? "{}\n" : "\n}\n";
}

/** Whether JSON.stringify writes a field of this value (it leaves out undefined, functions, symbols). */
function serializable(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

function isIterable(value: unknown): boolean {
  return typeof value === "object" && value !== null && !("toJSON" in value) &&
    Symbol.iterator in value;
}
