/**
 * A profile's catalog, built page by page from `tools/list` results with every bound checked.
 * Only tool names are kept; descriptions and schemas are dropped as soon as a page is checked.
 *
 * @module
 */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAX_PAGES, MAX_TOOLS } from "../limits.ts";
import type { Incomplete } from "./incomplete.ts";

const TOOL_NAME = /^[A-Za-z0-9_./-]{1,128}$/;

/** Whether `value` is a valid tool identifier (MCP tool-name guidance plus `/`). */
export function isToolName(value: unknown): value is string {
  return typeof value === "string" && TOOL_NAME.test(value);
}

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

  /** The tool names seen so far, sorted. */
  tools(): string[] {
    return [...this.#names].sort();
  }

  /** Checks one `tools/list` result and adds its tool names. */
  addPage(result: Record<string, unknown>): PageOutcome {
    const { tools } = result;
    if (!Array.isArray(tools)) return incomplete("malformed-entry");
    for (const entry of tools) {
      if (!ToolSchema.safeParse(entry).success) return incomplete("malformed-entry");
      const name = (entry as { name: unknown }).name;
      if (!isToolName(name)) return incomplete("malformed-entry");
      if (this.#names.has(name)) return incomplete("duplicate-tool");
      this.#names.add(name);
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

function incomplete(reason: Incomplete["reason"]): PageOutcome {
  return { incomplete: { reason } };
}
