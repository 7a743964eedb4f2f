/**
 * The draft-07 meta-schema validator the `schema-invalid` and `output-schema-invalid` rules
 * share: ajv, loaded only when such a rule is selected, validating against ajv's own draft-07
 * meta-schema with each `uniqueItems: true` replaced by a keyword of the same meaning that finds
 * duplicates in linear time (a set of each item's canonical JSON): the same verdict, in bounded
 * work. Schemas over the bounds of `limits.ts` are not judged.
 *
 * @module
 */
import { distinct, invalidBy } from "./schema_facts.ts";
const DRAFT_07 = "http://json-schema.org/draft-07/schema";
/** The keyword that stands for `uniqueItems: true` in the meta-schema mcpeval validates with. */
const UNIQUE = "mcpevalUniqueItems";

let validate: ((schema: unknown) => boolean) | undefined;

/** Loads ajv and its draft-07 meta-schema (with linear duplicate checks), once. */
export async function prepareDraft07(): Promise<void> {
  if (validate) return;
  const { Ajv } = await import("ajv/dist/ajv.js");
  const ajv = new Ajv({ strict: false, validateFormats: false });
  const meta = ajv.getSchema(DRAFT_07)?.schema;
  if (typeof meta !== "object" || meta === null) {
    throw new Error("ajv has no draft-07 meta-schema");
  }
  ajv.addKeyword({
    keyword: UNIQUE,
    type: "array",
    schemaType: "boolean",
    errors: false,
    validate: (unique: boolean, data: unknown[]) => !unique || distinct(data),
  });
  const linear = ajv.compile({
    ...withLinearUniqueness(meta) as Record<string, unknown>,
    $id: "mcpeval:draft-07-linear-unique",
  });
  validate = (schema) => linear(schema) as boolean;
}

/**
 * Whether `schema` (an object within the bounds of `limits.ts`) is not a valid draft-07 JSON
 * Schema; a schema past a bound is not judged (false). `prepareDraft07` first.
 */
export function draft07Invalid(schema: unknown): boolean {
  return invalidBy(validate, schema, "draft-07");
}

/** A copy of a meta-schema with every `uniqueItems: true` keyword replaced by {@linkcode UNIQUE}. */
function withLinearUniqueness(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withLinearUniqueness);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === "uniqueItems" && value === true ? [UNIQUE, true] : [key, withLinearUniqueness(value)]
    ),
  );
}
