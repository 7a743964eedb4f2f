/**
 * A profile's catalog, built page by page from `tools/list` results with every bound checked.
 * Only tool names are kept; descriptions and schemas are dropped as soon as a page is checked.
 *
 * @module
 */
import { MAX_PAGES, MAX_TOOLS } from "../limits.ts";
import { isToolName } from "../tool_name.ts";
import type { Incomplete } from "../protocol/incomplete.ts";

/** What one page means for pagination: another cursor to follow, the end, or a failure. */
export type PageOutcome =
  | { readonly next: string }
  | { readonly done: true }
  | { readonly incomplete: Incomplete };

/** Accumulates one profile's tool names across pages. */
export class CatalogBuilder {
  readonly #names = new Set<string>();
  readonly #cursors = new Set<string>();
  #pages = 0;

  /** How many pages were accepted. */
  get pages(): number {
    return this.#pages;
  }

  /** Tools marked as visible to apps only (`_meta.ui.visibility` without `"model"`). */
  readonly appOnly: Set<string> = new Set();

  /** The tool names in the order the server listed them. */
  listed(): string[] {
    return [...this.#names];
  }

  /** The tool names seen so far, sorted. */
  tools(): string[] {
    return [...this.#names].sort();
  }

  /** Checks one `tools/list` result and adds its tool names. */
  addPage(result: Record<string, unknown>): PageOutcome {
    const { tools } = result;
    if (!Array.isArray(tools)) return incomplete("malformed-entry");
    for (const entry of tools) {
      if (!isTool(entry) || !isToolName(entry.name)) return incomplete("malformed-entry");
      const name = entry.name;
      if (this.#names.has(name)) return incomplete("duplicate-tool");
      this.#names.add(name);
      if (isAppOnly(entry._meta)) this.appOnly.add(name);
      if (this.#names.size > MAX_TOOLS) return incomplete("incomplete-pagination");
    }
    this.#pages += 1;

    if (!("nextCursor" in result) || result.nextCursor === undefined) return { done: true };
    const cursor = result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") return incomplete("malformed-cursor");
    if (this.#cursors.has(cursor)) return incomplete("incomplete-pagination");
    if (this.#pages >= MAX_PAGES) return incomplete("incomplete-pagination");
    this.#cursors.add(cursor);
    return { next: cursor };
  }
}

/** MCP Apps: a tool whose `_meta.ui.visibility` lists who may see it, without the model. */
function isAppOnly(meta: unknown): boolean {
  if (!isObject(meta) || !isObject(meta.ui)) return false;
  const { visibility } = meta.ui;
  return Array.isArray(visibility) && !visibility.includes("model");
}

function incomplete(reason: Incomplete["reason"]): PageOutcome {
  return { incomplete: { reason } };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const optional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);
const isString = (value: unknown) => typeof value === "string";
const isBoolean = (value: unknown) => typeof value === "boolean";

/** A Tool's `inputSchema` or `outputSchema`: an object schema (other keywords are free). */
function isObjectSchema(value: unknown): boolean {
  return isObject(value) && value.type === "object" &&
    optional(
      value.properties,
      (properties) => isObject(properties) && Object.values(properties).every(isObject),
    ) &&
    optional(value.required, (required) => Array.isArray(required) && required.every(isString));
}

function isAnnotations(value: unknown): boolean {
  return isObject(value) && optional(value.title, isString) &&
    ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"].every((hint) =>
      optional(value[hint], isBoolean)
    );
}

/**
 * Whether `entry` is a Tool of MCP 2025-06-18: the same rules as the SDK's `ToolSchema` for
 * those fields (tests/catalog_test.ts checks the two agree), without building a parsed copy of
 * each schema, which dominated the cost of large catalogs. Unknown fields are allowed.
 */
export function isTool(entry: unknown): entry is Json & { name: string } {
  return isObject(entry) && isString(entry.name) &&
    optional(entry.title, isString) &&
    optional(entry.description, isString) &&
    isObjectSchema(entry.inputSchema) &&
    optional(entry.outputSchema, isObjectSchema) &&
    optional(entry.annotations, isAnnotations) &&
    optional(entry._meta, isObject);
}
