/**
 * `schema-root-not-object`: an `inputSchema` whose root `type` is not `"object"`. MCP's Tool
 * shape requires `"object"`, so such a tool already makes the profile incomplete
 * (`malformed-entry`); the kind exists for clients whose rules are written against it.
 *
 * @module
 */
import type { RuleKind } from "./kind.ts";
import { inputSchemaOf } from "./schema_facts.ts";

const FACT = "schema-root-not-object";

/** Root type other than object. */
export const schemaRootNotObject: RuleKind = {
  id: "schema-root-not-object",
  effects: ["drop-tool", "drop-server", "reject-request"],
  validValue: (value) => value === true,
  fact: { id: FACT, extract: (tool) => inputSchemaOf(tool).type !== "object" },
  judge: (_rule, tools) => tools.filter((tool) => tool.facts[FACT] === true).map((t) => t.name),
};
