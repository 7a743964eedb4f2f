/**
 * `schema-root-composition`: an `inputSchema` with `oneOf`, `allOf` or `anyOf` at its root
 * (the Anthropic API refuses them there).
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf } from "./schema_facts.ts";

const FACT = "schema-root-composition";
const KEYWORDS = ["oneOf", "allOf", "anyOf"];

/** Root composition keywords. */
export const schemaRootComposition: RuleKind = {
  id: "schema-root-composition",
  check: "its inputSchema's root is a composition of schemas (one of, all of or any of them)",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: {
    id: FACT,
    extract: (tool) => KEYWORDS.some((keyword) => Object.hasOwn(inputSchemaOf(tool), keyword)),
  },
  judge: toolsWithFact(FACT),
};
