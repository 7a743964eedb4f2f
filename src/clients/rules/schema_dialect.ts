/**
 * `schema-dialect` (SPEC 25): a tool whose `inputSchema` declares, with `$schema`, a JSON Schema
 * dialect the client refuses (`"draft-07"`, `"2020-12"`); `output-schema-dialect` judges the
 * `outputSchema`. The lab's `in-draft-07`, `out-draft-07` and `out-2020-12` probes decide them.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS } from "./kind.ts";
import { DIALECT_URIS, dialectOf, isDialect, objectOf } from "./schema_facts.ts";

/** Input schemas declaring a dialect the client refuses. */
export const schemaDialect: RuleKind = {
  id: "schema-dialect",
  check: "its inputSchema declares ($schema) a JSON Schema dialect the client refuses",
  effects: TOOL_EFFECTS,
  validValue: isDialect,
  fact: { id: "input-schema-dialect", extract: (tool) => dialectOf(tool.inputSchema) },
  judge: (rule, tools) =>
    tools.filter((tool) => tool.facts["input-schema-dialect"] === rule.value).map((t) => t.name),
  probes: [{
    label: "in-draft-07",
    inputSchema: { $schema: DIALECT_URIS["draft-07"], ...objectOf({ q: { type: "string" } }) },
    value: "draft-07",
  }],
};
