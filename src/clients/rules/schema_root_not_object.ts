/**
 * `schema-root-not-object`: an `inputSchema` whose root `type` is not `"object"`. MCP's Tool
 * shape requires `"object"`, so such a tool already makes the profile incomplete
 * (`malformed-entry`); the kind exists for clients whose rules are written against it.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf } from "./schema_facts.ts";

const FACT = "schema-root-not-object";

/** Root type other than object. */
export const schemaRootNotObject: RuleKind = {
  id: "schema-root-not-object",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: { id: FACT, extract: (tool) => inputSchemaOf(tool).type !== "object" },
  judge: toolsWithFact(FACT),
};
