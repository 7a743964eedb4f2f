/**
 * `output-schema-not-object` (SPEC 25): an `outputSchema` that is not an object schema of MCP's
 * 2025-06-18 Tool shape (a root `type` other than `"object"`, a property schema that is not an
 * object, a `required` that is not a list of strings), as an array root valid in 2026-07-28 is.
 * A tool without an `outputSchema` is never judged.
 *
 * @module
 */
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { objectOf, outputSchemaOf } from "./schema_facts.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const NOT_OBJECT = "output-schema-not-object";

/** Whether `schema` is an object schema of MCP's 2025-06-18 Tool shape (linear in its keys). */
function isObjectSchema(schema: unknown): boolean {
  if (!isObject(schema) || schema.type !== "object") return false;
  const { properties, required } = schema;
  return (properties === undefined ||
    (isObject(properties) && Object.values(properties).every(isObject))) &&
    (required === undefined ||
      (Array.isArray(required) && required.every((item) => typeof item === "string")));
}

/** Output schemas that are not object schemas of the 2025-06-18 Tool shape. */
export const outputSchemaNotObject: RuleKind = {
  id: "output-schema-not-object",
  check: "its outputSchema is not an object schema of MCP's 2025-06-18 Tool shape",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: {
    id: NOT_OBJECT,
    extract: (tool) => {
      const schema = outputSchemaOf(tool);
      return schema !== undefined && !isObjectSchema(schema);
    },
  },
  judge: toolsWithFact(NOT_OBJECT),
  probes: [
    { label: "out-array", outputSchema: { type: "array", items: { type: "string" } }, value: true },
    { label: "out-boolean", outputSchema: objectOf({ ok: true, no: false }), value: true },
  ],
};
