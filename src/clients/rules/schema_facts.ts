/**
 * Bounded facts about a tool's `inputSchema`, shared by the schema rule kinds: one walk per
 * schema (depth, keyword and character bounds from `limits.ts`), remembered for the page.
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
}

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
  let keywords = 0;
  let chars = 0;
  const pending: [unknown, number][] = [[root, 1]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, depth] = item;
    if (typeof node === "string") chars += node.length;
    if (typeof node !== "object" || node === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) return { withinBounds: false, unresolvedRef: false };
    if (Array.isArray(node)) {
      for (const child of node) pending.push([child, depth + 1]);
    } else {
      for (const [key, child] of Object.entries(node)) {
        keywords += 1;
        chars += key.length;
        if (key === "$ref" && typeof child === "string") refs.push(child);
        pending.push([child, depth + 1]);
      }
    }
    if (keywords > MAX_SCHEMA_KEYWORDS || chars > MAX_SCHEMA_BYTES) {
      return { withinBounds: false, unresolvedRef: false };
    }
  }
  return { withinBounds: true, unresolvedRef: refs.some((ref) => !resolves(root, ref)) };
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
