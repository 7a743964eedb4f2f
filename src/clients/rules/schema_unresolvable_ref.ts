/**
 * `schema-unresolvable-ref`: an `inputSchema` with a local `$ref` (`#/...`) that points at
 * nothing. Remote references and anchors are not judged.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf, schemaShape } from "./schema_facts.ts";

const FACT = "schema-unresolvable-ref";

/** Dangling local references. */
export const schemaUnresolvableRef: RuleKind = {
  id: "schema-unresolvable-ref",
  check: "its inputSchema has a local $ref that points at nothing",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: {
    id: FACT,
    extract: (tool) => {
      const shape = schemaShape(inputSchemaOf(tool));
      return shape.withinBounds && shape.unresolvedRef;
    },
  },
  judge: toolsWithFact(FACT),
};
