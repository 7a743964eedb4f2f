/**
 * `schema-description-not-string`: an `inputSchema` with a property schema whose `type` is a
 * scalar or array type name and whose `description` is neither a string nor `null`. Codex
 * deserializes each MCP tool's schema into its own typed subset, where `description` is an
 * optional string: the conversion fails and the tool is skipped (an error is logged).
 *
 * Only the positions every Codex schema model read deserializes are judged (the root's
 * `properties`, then `properties` under `"type": "object"` and `items` under `"type": "array"`),
 * and only on a path without `$ref`, `oneOf`, `anyOf` or `allOf` (which Codex rewrites before it
 * deserializes). Schemas over the bounds of `limits.ts` are not judged (claims least).
 *
 * @module
 */
import { MAX_SCHEMA_DEPTH } from "../../limits.ts";
import { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";
import { inputSchemaOf, schemaShape } from "./schema_facts.ts";

const FACT = "schema-description-not-string";
const TYPED = new Set(["string", "number", "integer", "boolean", "array"]);
const REWRITTEN = ["$ref", "oneOf", "anyOf", "allOf"];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a property schema Codex deserializes has a description it cannot read as a string. */
function hasBadDescription(root: Json): boolean {
  if (REWRITTEN.some((key) => Object.hasOwn(root, key))) return false;
  // Nodes to visit, and their depths (bounded; the shape walk already bounded the schema).
  const nodes: unknown[] = isObject(root.properties) ? Object.values(root.properties) : [];
  const depths: number[] = nodes.map(() => 2);
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (!isObject(node) || depth > MAX_SCHEMA_DEPTH) continue;
    if (REWRITTEN.some((key) => Object.hasOwn(node, key))) continue;
    const type = node.type;
    if (typeof type !== "string") continue;
    const description = node.description;
    if (
      TYPED.has(type) && description !== undefined && description !== null &&
      typeof description !== "string"
    ) return true;
    if (type === "object" && isObject(node.properties)) {
      for (const child of Object.values(node.properties)) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    } else if (type === "array" && isObject(node.items)) {
      nodes.push(node.items);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** Property schemas whose description Codex's schema subset cannot hold. */
export const schemaDescriptionNotString: RuleKind = {
  id: "schema-description-not-string",
  check: "a property of its inputSchema has a description that is not a string",
  effects: TOOL_EFFECTS,
  validValue: (value) => value === true,
  fact: {
    id: FACT,
    extract: (tool) => {
      const schema = inputSchemaOf(tool);
      return schemaShape(schema).withinBounds && hasBadDescription(schema);
    },
  },
  judge: toolsWithFact(FACT),
};
