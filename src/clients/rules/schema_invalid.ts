/**
 * `schema-invalid`: an `inputSchema` that is not a valid JSON Schema for the draft the client
 * validates with (its meta-schema), checked with ajv, which is loaded only when this rule is
 * selected. Schemas over the bounds of `limits.ts` are not judged.
 *
 * The meta-schema's duplicate checks (`uniqueItems` on `enum`, `type` and `required`) are the
 * one place where ajv compares every pair of items, so a 4,000-value `enum` costs millions of
 * comparisons. Here ajv validates against ajv's own draft-07 meta-schema with each
 * `uniqueItems: true` replaced by a keyword of the same meaning that finds duplicates in linear
 * time (a set of each item's canonical JSON): the same verdict, in bounded work.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf } from "./schema_facts.ts";
import { draft07Invalid, prepareDraft07 } from "./draft07.ts";

const FACT = "schema-invalid-draft-07";

/** Schemas the client's JSON Schema validator refuses. */
export const schemaInvalid: RuleKind = {
  id: "schema-invalid",
  check: "its inputSchema is not a valid JSON Schema of the draft the client validates with",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === "draft-07",
  fact: {
    id: FACT,
    prepare: prepareDraft07,
    extract: (tool) => draft07Invalid(inputSchemaOf(tool)),
  },
  judge: toolsWithFact(FACT),
};
