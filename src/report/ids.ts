/**
 * The report's ids as patterns (SPEC 10, as amended in part five): every list of ids a report
 * holds (finding kinds, hints, profile labels, reasons, causes, rule ids, effects, states) is a
 * pattern in the schemas, with the values this version writes documented as its `examples`, so
 * that a report of a later version, with an id this one does not know, still validates, and its
 * reader keeps the id instead of refusing the file.
 *
 * @module
 */
import { z } from "zod";
import { MAX_HINT_CHARS, MAX_ID_CHARS } from "../limits.ts";

/** An id: lowercase words of letters and digits joined by `-`. */
export const ID: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What a schema says of the values it documents. */
const KNOWN =
  "This version writes one of the examples; a report of a later version may hold another, which a reader keeps.";

/**
 * A string of `pattern` (at most `max` characters), documented: `description`, and `known`,
 * the values this version writes, as the schema's examples.
 */
export function patternSchema(
  pattern: RegExp,
  description: string,
  known?: readonly string[],
  max: number = MAX_ID_CHARS,
): z.ZodString {
  return z.string().max(max).regex(pattern).meta(
    known === undefined
      ? { description }
      : { description: `${description} ${KNOWN}`, examples: [...known] },
  );
}

/**
 * An id of {@linkcode ID}'s form (at most {@linkcode MAX_ID_CHARS} characters); `known`: the
 * values this version writes, documented as the schema's examples.
 */
export function idSchema(description: string, known?: readonly string[]): z.ZodString {
  return patternSchema(ID, description, known);
}

/**
 * An id of {@linkcode ID}'s form that is none of `known`: what a report read holds in place of
 * an id this version does not know (its pattern excludes the known ones).
 */
export function otherIdSchema(description: string, known: readonly string[]): z.ZodString {
  // Ids need no escaping: letters, digits and `-`.
  if (!known.every((id) => ID.test(id))) throw new Error("an id is not of the id pattern");
  return patternSchema(
    new RegExp(`^(?!(?:${known.join("|")})$)${ID.source.slice(1)}`),
    description,
  );
}

/**
 * A hint: one fixed sentence of printable ASCII, at most {@linkcode MAX_HINT_CHARS} characters;
 * `known`: this version's, documented as the schema's examples. Readers do not depend on its
 * wording: renderers say the hint of an id they know from their own table.
 */
export function hintSchema(description: string, known?: readonly string[]): z.ZodString {
  return patternSchema(/^[\x20-\x7e]+$/, description, known, MAX_HINT_CHARS);
}
