/**
 * `schema-root-not-object`: an `inputSchema` whose root `type` is not `"object"` (or is missing).
 * MCP's Tool shape requires `"object"`: the five standard profiles end `malformed-entry`, while a
 * client profile keeps the tool and this rule judges it as the client was observed to (SPEC 22).
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf } from "./schema_facts.ts";

const FACT = "schema-root-not-object";

/** Root type other than object. */
export const schemaRootNotObject: RuleKind = {
  id: "schema-root-not-object",
  check: 'its inputSchema\'s root type is not "object"',
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: { id: FACT, extract: (tool) => inputSchemaOf(tool).type !== "object" },
  judge: toolsWithFact(FACT),
};
