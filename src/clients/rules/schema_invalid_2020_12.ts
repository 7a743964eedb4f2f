/**
 * `schema-invalid-2020-12`: an `inputSchema` that is not a valid JSON Schema 2020-12 (its
 * meta-schema, checked with ajv, loaded only when this rule is selected): a draft-07 tuple
 * `items` (an array) fails, for example. Claude Code 2.1.337 leaves such a tool out, since the
 * Anthropic API refuses every request that carries one (observed, SPEC 25). Schemas over the
 * bounds of `limits.ts` are not judged.
 *
 * The 2020-12 meta-schema has `uniqueItems` only on lists of strings (`type`, `required`), which
 * ajv checks in linear time; its `enum` has none, unlike draft-07's.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf, invalidBy } from "./schema_facts.ts";

const FACT = "schema-invalid-2020-12";
const META = "https://json-schema.org/draft/2020-12/schema";

let validate: ((schema: unknown) => boolean) | undefined;

/** Loads ajv's JSON Schema 2020-12 meta-schema, once. */
export async function prepare2020(): Promise<void> {
  if (validate) return;
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const meta = ajv.getSchema(META);
  if (!meta) throw new Error("ajv has no 2020-12 meta-schema");
  validate = (schema) => meta(schema) as boolean;
}

/**
 * Whether `schema` (an object within the bounds of `limits.ts`) is not a valid JSON Schema
 * 2020-12; a schema past a bound is not judged (false). `prepare2020` first.
 */
export function invalid2020(schema: unknown): boolean {
  return invalidBy(validate, schema, "2020-12");
}

/** Input schemas that are not valid JSON Schema 2020-12. */
export const schemaInvalid2020: RuleKind = {
  id: "schema-invalid-2020-12",
  check: "its inputSchema is not a valid JSON Schema 2020-12",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: { id: FACT, prepare: prepare2020, extract: (tool) => invalid2020(inputSchemaOf(tool)) },
  judge: toolsWithFact(FACT),
};
