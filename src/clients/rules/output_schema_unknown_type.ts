/**
 * `output-schema-unknown-type` (SPEC 25): an `outputSchema` with a `type` keyword that names no
 * JSON Schema type (`"strng"`). Continue CLI 1.5.47 was observed to refuse the whole server over
 * one such tool while it sent a tool whose `outputSchema` breaks the draft-07 meta-schema
 * otherwise (`minLength: -1`): a narrower fact than `output-schema-invalid`. Schemas over the
 * bounds of `limits.ts` are not judged.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { objectOf, outputSchemaOf, schemaShape } from "./schema_facts.ts";

const FACT = "output-schema-unknown-type";

/** Output schemas naming a type JSON Schema does not have. */
export const outputSchemaUnknownType: RuleKind = {
  id: "output-schema-unknown-type",
  check: "its outputSchema has a type keyword that names no JSON Schema type",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: {
    id: FACT,
    extract: (tool) => {
      const schema = outputSchemaOf(tool);
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
      const shape = schemaShape(schema as Record<string, unknown>);
      return shape.withinBounds && shape.unknownType;
    },
  },
  judge: toolsWithFact(FACT),
  probes: [{
    label: "out-unknown-type",
    outputSchema: objectOf({ x: { type: "strng" } }),
    value: true,
  }],
};
