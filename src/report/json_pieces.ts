/**
 * A JSON document pretty-printed in pieces, never as one string, so that a document past the
 * runtime's longest string (a merge of hundreds of thousands of servers) can still be written,
 * and each piece is bounded work (a server entry of 200,000 candidates is written a candidate
 * at a time). Pure.
 *
 * @module
 */

/**
 * A value at most this many objects, arrays and array items large is written as one piece;
 * a larger one is written field by field (item by item), each in pieces again.
 */
const PIECE_NODES = 4096;

/**
 * What an iterable read by {@linkcode jsonPieces} may yield instead of an item: no item, an
 * empty piece (so that a writer can give the event loop its turn while the iterable reads many
 * servers that have no item to give).
 */
export const NO_ITEM: unique symbol = Symbol("no item");

/**
 * A JSON object pretty-printed (two spaces, a trailing newline) in pieces: each field, and each
 * item of a field that is an array or another iterable (a generator of servers), on its own,
 * and within them any value larger than a few thousand nodes field by field or item by item
 * (an iterable at any depth is read as it is written; its {@linkcode NO_ITEM} are left out, each
 * an empty piece). Joined, the pieces are
 * `JSON.stringify(document, null, 2) + "\n"` byte for byte (for an iterable, as if it were the
 * array of its items).
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
        if (item === NO_ITEM) {
          yield "";
          continue;
        }
        yield `${empty ? "[" : ","}\n    `;
        // An item that JSON.stringify leaves out of an object is `null` in an array.
        yield* valuePieces(serializable(item) ? item : null, "    ");
        empty = false;
      }
      yield empty ? "[]" : "\n  ]";
    } else {
      yield* valuePieces(value, "  ");
    }
  }
  yield first ? "{}\n" : "\n}\n";
}

/**
 * One serializable value, pretty-printed as it stands at `indent` (the indentation of its line):
 * one piece when it is small, else field by field or item by item.
 */
function* valuePieces(value: unknown, indent: string): Generator<string> {
  if (typeof value !== "object" || value === null || hasToJson(value)) {
    // Pretty-printed JSON has no line break inside a string (they are escaped).
    yield JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
    return;
  }
  if (within(value, { left: PIECE_NODES })) {
    yield JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value) || isIterable(value)) {
    let empty = true;
    for (const item of value as Iterable<unknown>) {
      if (item === NO_ITEM) {
        yield "";
        continue;
      }
      yield `${empty ? "[" : ","}\n${inner}`;
      yield* valuePieces(serializable(item) ? item : null, inner);
      empty = false;
    }
    yield empty ? "[]" : `\n${indent}]`;
    return;
  }
  let empty = true;
  for (const [key, field] of Object.entries(value)) {
    if (!serializable(field)) continue;
    yield `${empty ? "{" : ","}\n${inner}${JSON.stringify(key)}: `;
    yield* valuePieces(field, inner);
    empty = false;
  }
  yield empty ? "{}" : `\n${indent}}`;
}

/**
 * Whether `value` holds at most `budget.left` objects, arrays and items, and no iterable to
 * read: it stops counting past the budget, so it costs at most that much.
 */
function within(value: unknown, budget: { left: number }): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (--budget.left < 0) return false;
  if (hasToJson(value)) return true;
  if (Array.isArray(value)) {
    if (value.length > budget.left) return false;
    for (let at = 0; at < value.length; at++) {
      budget.left--;
      if (!within(value[at], budget)) return false;
    }
    return budget.left >= 0;
  }
  if (isIterable(value)) return false;
  for (const key in value) {
    if (!within((value as Record<string, unknown>)[key], budget)) return false;
  }
  return true;
}

/** Whether JSON.stringify writes a field of this value (it leaves out undefined, functions, symbols). */
function serializable(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

function isIterable(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !hasToJson(value) && Symbol.iterator in value;
}
