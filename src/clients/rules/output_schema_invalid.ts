/**
 * `output-schema-invalid` (`"draft-07"`, SPEC 25): an `outputSchema` that is not a valid
 * draft-07 JSON Schema (its meta-schema). Clients were observed to judge a tool's `outputSchema`
 * as they judge its `inputSchema`, some refusing the whole server over one tool; a client
 * profile keeps a tool whose `outputSchema` breaks MCP's Tool shape for these rules to judge
 * (`src/discovery/catalog.ts`). A tool without an `outputSchema` is never judged; schemas over
 * the bounds of `limits.ts` are not judged.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { objectOf, outputSchemaOf } from "./schema_facts.ts";
import { draft07Invalid, prepareDraft07 } from "./draft07.ts";

const INVALID = "output-schema-invalid-draft-07";

/** Output schemas the client's JSON Schema validator refuses. */
export const outputSchemaInvalid: RuleKind = {
  id: "output-schema-invalid",
  check: "its outputSchema is not a valid JSON Schema of the draft the client validates with",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === "draft-07",
  fact: {
    id: INVALID,
    prepare: prepareDraft07,
    extract: (tool) => {
      const schema = outputSchemaOf(tool);
      return schema !== undefined && draft07Invalid(schema);
    },
  },
  judge: toolsWithFact(INVALID),
  probes: [{
    label: "out-invalid",
    outputSchema: objectOf({ x: { type: "string", minLength: -1 } }),
    value: "draft-07",
  }],
};
