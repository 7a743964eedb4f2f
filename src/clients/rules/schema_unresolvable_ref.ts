/**
 * `schema-unresolvable-ref`: an `inputSchema` with a local `$ref` (`#/...`) that points at
 * nothing. Remote references and anchors are not judged.
 *
 * @module
 */
import type { RuleKind } from "./kind.ts";
import { inputSchemaOf, schemaShape } from "./schema_facts.ts";

const FACT = "schema-unresolvable-ref";

/** Dangling local references. */
export const schemaUnresolvableRef: RuleKind = {
  id: "schema-unresolvable-ref",
  effects: ["drop-tool", "drop-server", "reject-request"],
  validValue: (value) => value === true,
  fact: {
    id: FACT,
    extract: (tool) => {
      const shape = schemaShape(inputSchemaOf(tool));
      return shape.withinBounds && shape.unresolvedRef;
    },
  },
  judge: (_rule, tools) => tools.filter((tool) => tool.facts[FACT] === true).map((t) => t.name),
};
