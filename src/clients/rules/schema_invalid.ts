/**
 * `schema-invalid`: an `inputSchema` that is not a valid JSON Schema for the draft the client
 * validates with (its meta-schema), checked with ajv, which is loaded only when this rule is
 * selected. Schemas over the bounds of `limits.ts` are not judged.
 *
 * The meta-schema's duplicate checks (`uniqueItems` on `enum`, `type` and `required`) are the
 * one place where ajv compares every pair of items, so a 4,000-value `enum` costs millions of
 * comparisons. Here ajv validates against ajv's own draft-07 meta-schema with each
 * `uniqueItems: true` replaced by a keyword of the same meaning that finds duplicates in linear
 * time (a set of each item's canonical JSON): the same verdict, in bounded work.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { distinct, inputSchemaOf, schemaShape } from "./schema_facts.ts";

const FACT = "schema-invalid-draft-07";
const DRAFT_07 = "http://json-schema.org/draft-07/schema";
/** The keyword that stands for `uniqueItems: true` in the meta-schema mcpeval validates with. */
const UNIQUE = "mcpevalUniqueItems";

let validate: ((schema: unknown) => boolean) | undefined;

/** Schemas the client's JSON Schema validator refuses. */
export const schemaInvalid: RuleKind = {
  id: "schema-invalid",
  check: "its inputSchema is not a valid JSON Schema of the draft the client validates with",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === "draft-07",
  fact: {
    id: FACT,
    prepare: async () => {
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
    },
    extract: (tool) => {
      if (!validate) throw new Error("schema-invalid extracted before it was prepared");
      const schema = inputSchemaOf(tool);
      if (!schemaShape(schema).withinBounds) return false;
      try {
        return !validate(schema);
      } catch {
        return false;
      }
    },
  },
  judge: toolsWithFact(FACT),
};

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
