/**
 * `schema-tuple-items`: an `inputSchema` with an `items` keyword that is a list of schemas, the
 * tuple form of draft-07 (JSON Schema 2020-12 has `prefixItems` for it, and refuses a list
 * there). Codex 0.171.0 and Claude Code 2.1.337 leave such a tool out (observed). Schemas over
 * the bounds of `limits.ts` are not judged.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf, objectOf, schemaShape } from "./schema_facts.ts";

const FACT = "schema-tuple-items";

/** Input schemas with a draft-07 tuple `items`. */
export const schemaTupleItems: RuleKind = {
  id: "schema-tuple-items",
  check: "its inputSchema has an items keyword that is a list (draft-07's tuple form)",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: {
    id: FACT,
    extract: (tool) => {
      const shape = schemaShape(inputSchemaOf(tool));
      return shape.withinBounds && shape.tupleItems;
    },
  },
  judge: toolsWithFact(FACT),
  probes: [{
    label: "in-tuple",
    inputSchema: objectOf({
      pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
    }),
    value: true,
  }],
};
