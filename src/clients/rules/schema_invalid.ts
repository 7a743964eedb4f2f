/**
 * `schema-invalid`: an `inputSchema` that is not a valid JSON Schema for the draft the client
 * validates with (its meta-schema), checked with ajv, which is loaded only when this rule is
 * selected. Schemas over the bounds of `limits.ts` are not judged.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf, schemaShape } from "./schema_facts.ts";

const FACT = "schema-invalid-draft-07";
const DRAFT_07 = "http://json-schema.org/draft-07/schema";

let validate: ((schema: unknown) => boolean) | undefined;

/** Schemas the client's JSON Schema validator refuses. */
export const schemaInvalid: RuleKind = {
  id: "schema-invalid",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === "draft-07",
  fact: {
    id: FACT,
    prepare: async () => {
      if (validate) return;
      const { Ajv } = await import("ajv/dist/ajv.js");
      const ajv = new Ajv({ strict: false, validateFormats: false });
      const meta = ajv.getSchema(DRAFT_07);
      if (!meta) throw new Error("ajv has no draft-07 meta-schema");
      validate = (schema) => meta(schema) as boolean;
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
