/**
 * `output-schema-dialect` (SPEC 25): a tool whose `outputSchema` declares, with `$schema`, a JSON
 * Schema dialect the client refuses (`"draft-07"`, `"2020-12"`). Read, not yet observed: clients
 * on the TypeScript SDK v2 refusing an `outputSchema` that declares draft-07 (claude-code#86142,
 * opencode#39333, typescript-sdk#2532).
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS } from "./kind.ts";
import { DIALECT_URIS, dialectOf, isDialect, objectOf, outputSchemaOf } from "./schema_facts.ts";

/** Output schemas declaring a dialect the client refuses. */
export const outputSchemaDialect: RuleKind = {
  id: "output-schema-dialect",
  check: "its outputSchema declares ($schema) a JSON Schema dialect the client refuses",
  effects: TOOL_EFFECTS,
  validValue: isDialect,
  fact: { id: "output-schema-dialect", extract: (tool) => dialectOf(outputSchemaOf(tool)) },
  judge: (rule, tools) =>
    tools.filter((tool) => tool.facts["output-schema-dialect"] === rule.value).map((t) => t.name),
  probes: [
    {
      label: "out-draft-07",
      outputSchema: { $schema: DIALECT_URIS["draft-07"], ...objectOf() },
      value: "draft-07",
    },
    {
      label: "out-2020-12",
      outputSchema: { $schema: DIALECT_URIS["2020-12"], ...objectOf() },
      value: "2020-12",
    },
  ],
};
