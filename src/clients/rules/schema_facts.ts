/**
 * Bounded facts about a tool's `inputSchema`, shared by the schema rule kinds: one walk per
 * schema (depth, entry and character bounds from `limits.ts`: object keys and array items are
 * entries, keys, strings and numbers count their characters), remembered for the page. The walk
 * stops at the first bound passed, so its work is bounded too, whatever the schema's size.
 *
 * @module
 */
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, MAX_SCHEMA_KEYWORDS } from "../../limits.ts";

type Json = Record<string, unknown>;

/** What one bounded walk of a schema saw. */
export interface SchemaShape {
  /** False when the schema exceeds a bound: no schema rule judges it (claims least). */
  readonly withinBounds: boolean;
  /** Whether a local `$ref` (`#` or a `#/...` JSON pointer) points at nothing. */
  readonly unresolvedRef: boolean;
  /** Whether an `items` keyword is a list of schemas (draft-07's tuple form). */
  readonly tupleItems: boolean;
  /** Whether a `type` keyword names (or lists) something that is not a JSON Schema type. */
  readonly unknownType: boolean;
}

/** The JSON Schema types (draft-07 and 2020-12 alike). */
const JSON_TYPES: ReadonlySet<string> = new Set([
  "array",
  "boolean",
  "integer",
  "null",
  "number",
  "object",
  "string",
]);

const shapes = new WeakMap<object, SchemaShape>();

/** The tool's `inputSchema` (valid for MCP's Tool shape, so an object). */
export const inputSchemaOf = (tool: Json): Json => tool.inputSchema as Json;

/** The shape of `schema`, walked once (iteratively) and remembered while it is alive. */
export function schemaShape(schema: Json): SchemaShape {
  const known = shapes.get(schema);
  if (known) return known;
  const shape = walk(schema);
  shapes.set(schema, shape);
  return shape;
}

function walk(root: Json): SchemaShape {
  const refs: string[] = [];
  // Object keys and array items, each one entry; keys, strings and numbers by their length.
  let entries = 0;
  let chars = 0;
  // Two parallel stacks (nodes and their depths): no allocation per node.
  const nodes: unknown[] = [root];
  const depths: number[] = [1];
  const over = { withinBounds: false, unresolvedRef: false, tupleItems: false, unknownType: false };
  let tupleItems = false;
  let unknownType = false;
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (depth > MAX_SCHEMA_DEPTH) return over;
    if (Array.isArray(node)) {
      // Checked before the items are visited: a million-item `enum` costs one comparison.
      entries += node.length;
      if (entries > MAX_SCHEMA_KEYWORDS) return over;
      for (const child of node) {
        if (typeof child === "string") chars += child.length;
        else if (typeof child === "number") chars += String(child).length;
        else if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
      if (chars > MAX_SCHEMA_BYTES) return over;
      continue;
    }
    const object = node as Json;
    for (const key in object) {
      const child = object[key];
      if (++entries > MAX_SCHEMA_KEYWORDS) return over;
      chars += key.length;
      if (typeof child === "string") {
        chars += child.length;
        if (key === "$ref") refs.push(child);
        else if (key === "type" && !JSON_TYPES.has(child)) unknownType = true;
      } else if (typeof child === "number") {
        chars += String(child).length;
      } else if (typeof child === "object" && child !== null) {
        if (key === "items" && Array.isArray(child)) tupleItems = true;
        if (key === "type" && Array.isArray(child)) {
          unknownType ||= child.some((item) => typeof item !== "string" || !JSON_TYPES.has(item));
        }
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
    if (chars > MAX_SCHEMA_BYTES) return over;
  }
  return {
    withinBounds: true,
    unresolvedRef: refs.some((ref) => !resolves(root, ref)),
    tupleItems,
    unknownType,
  };
}

/**
 * Whether a local reference resolves in `root`. Only `#` and `#/...` pointers are judged; any
 * other reference (a URL, an anchor, a relative path) counts as resolving (claims least).
 */
function resolves(root: Json, ref: string): boolean {
  if (ref === "#") return true;
  if (!ref.startsWith("#/")) return true;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return false;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return false;
    node = (node as Json)[token];
  }
  return true;
}

/**
 * Whether no two items are equal as JSON values (ajv's `uniqueItems`: objects equal whatever
 * their key order), in one pass over their canonical JSON. The items are a schema's, already
 * within the depth and size bounds.
 */
export function distinct(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const text = canonical(item);
    if (seen.has(text)) return false;
    seen.add(text);
  }
  return true;
}

/** A JSON value's text with object keys sorted, so that equal values have equal texts. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    return `{${
      Object.keys(object).sort().map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
        .join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Whether `validate` (a meta-schema's, prepared) finds `schema` invalid: only an object within
 * the bounds of `limits.ts` is judged (else false), and a validator that throws judges nothing.
 */
export function invalidBy(
  validate: ((schema: unknown) => boolean) | undefined,
  schema: unknown,
  dialect: string,
): boolean {
  if (!validate) throw new Error(`a ${dialect} schema was judged before ajv was prepared`);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  if (!schemaShape(schema as Record<string, unknown>).withinBounds) return false;
  try {
    return !validate(schema);
  } catch {
    return false;
  }
}

/** A tool's `outputSchema` (absent: undefined). */
export const outputSchemaOf = (tool: Record<string, unknown>): unknown => tool.outputSchema;

/** The dialects a `$schema` names, by value, with what the URI must contain. */
export const DIALECTS: Readonly<Record<string, RegExp>> = {
  "draft-07": /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/,
  "2020-12": /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/,
};

/** The `$schema` URI a probe of each dialect declares (as the dialect's meta-schema names it). */
export const DIALECT_URIS: Readonly<Record<string, string>> = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/** An object schema of `properties` (a probe's schema: one string property by default). */
export const objectOf = (
  properties: Record<string, unknown> = { q: { type: "string" } },
): Record<string, unknown> => ({ type: "object", properties });

/** The dialect a schema's `$schema` names (null: none, or one not in the table). */
export function dialectOf(schema: unknown): string | null {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return null;
  const uri = (schema as Record<string, unknown>).$schema;
  if (typeof uri !== "string") return null;
  return Object.keys(DIALECTS).find((dialect) => DIALECTS[dialect].test(uri)) ?? null;
}

/** Whether a rule's value names a dialect of {@linkcode DIALECTS}. */
export const isDialect = (value: unknown): boolean =>
  typeof value === "string" && Object.hasOwn(DIALECTS, value);
