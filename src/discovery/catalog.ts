/**
 * A profile's catalog, built page by page from `tools/list` results with every bound checked.
 * Only tool names and each tool's bounded facts (app-only, and the facts the selected client
 * rules ask for) are kept; descriptions and schemas are dropped as soon as a page is checked.
 *
 * A client profile (SPEC 22) also keeps a tool that is invalid for MCP's Tool shape but readable:
 * an `inputSchema` that is an object whose root is not `type: "object"` (or has no `type`), or a
 * name that is a string but not a valid tool identifier. Such a name is kept only in the tool's
 * facts, for the client's name rules; everywhere else the tool is named by its position
 * ({@linkcode invalidNameKey}). The five standard profiles keep the seed's `malformed-entry`.
 *
 * @module
 */
import { ANALYSIS_SLICE_MS, MAX_KEPT_INVALID_NAME_CHARS, MAX_PAGES, MAX_TOOLS } from "../limits.ts";
import { invalidNameKey, isToolName, TOOL_NAME } from "../tool_name.ts";
import type { Incomplete, ToolShapeCause } from "../protocol/incomplete.ts";
import type { FactExtractor, ToolFacts } from "../clients/rules/kind.ts";

/** What one page means for pagination: another cursor to follow, the end, or a failure. */
export type PageOutcome =
  | { readonly next: string }
  | { readonly done: true }
  | { readonly incomplete: Incomplete };

/**
 * What bounds the analysis of one page beyond the schema bounds: when it must end (epoch ms;
 * the tools not reached by then get no facts, so no rule that needs one judges them), and the
 * signal that stops it (the page then ends the profile `transport-lost`, its connection closed).
 */
export interface PageAnalysis {
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** Accumulates one profile's tool names and facts across pages. */
export class CatalogBuilder {
  /** Valid tool names, for `tools()`. */
  readonly #names = new Set<string>();
  /** Every listed tool's key (its name, or its position phrase), in listing order. */
  readonly #listed: string[] = [];
  /** Every listed name as served (duplicates). */
  readonly #seen = new Set<string>();
  readonly #cursors = new Set<string>();
  readonly #facts: ToolFacts[] | undefined;
  readonly #extractors: readonly FactExtractor[];
  #pages = 0;

  /**
   * `extractors`: the facts a client preset's rules need (prepared already); without them (the
   * five standard profiles) no per-tool facts are kept, and every tool must be valid for MCP's
   * Tool shape.
   */
  constructor(extractors?: readonly FactExtractor[]) {
    this.#extractors = extractors ?? [];
    this.#facts = extractors ? [] : undefined;
  }

  /** Each listed tool's facts, in listing order (kept only when extractors were given). */
  get facts(): readonly ToolFacts[] | undefined {
    return this.#facts;
  }

  /** How many pages were accepted. */
  get pages(): number {
    return this.#pages;
  }

  /** Tools marked as visible to apps only (`_meta.ui.visibility` without `"model"`), by key. */
  readonly appOnly: Set<string> = new Set();

  /**
   * The tools in the order the server listed them: each by name, or (a client profile's tool
   * whose name is not a valid identifier) by {@linkcode invalidNameKey}.
   */
  listed(): string[] {
    return [...this.#listed];
  }

  /** The valid tool names seen so far, sorted. */
  tools(): string[] {
    return [...this.#names].sort();
  }

  /**
   * Checks one `tools/list` result and adds its tool names and facts. With extractors, it gives
   * the event loop a turn every {@linkcode ANALYSIS_SLICE_MS} of work (so that signals and the
   * other profiles are served), and stops as `analysis` says.
   */
  async addPage(result: Record<string, unknown>, analysis?: PageAnalysis): Promise<PageOutcome> {
    const { tools } = result;
    if (!Array.isArray(tools)) return malformed("tools-not-array");
    let slice = performance.now();
    const client = this.#facts !== undefined;
    for (const entry of tools) {
      const broken = toolShapeFault(entry);
      if (broken && !(client && readableByClients(entry))) {
        const name = isObject(entry) ? entry.name : undefined;
        return malformed(broken, isToolName(name) ? name : undefined);
      }
      const name: string = (entry as { name: string }).name;
      const valid = TOOL_NAME.test(name);
      if (!valid && !(client && name.length <= MAX_KEPT_INVALID_NAME_CHARS)) {
        return malformed("tool-name-invalid");
      }
      if (this.#seen.has(name)) return incomplete("duplicate-tool");
      this.#seen.add(name);
      const key = valid ? name : invalidNameKey(this.#listed.length + 1);
      this.#listed.push(key);
      if (valid) this.#names.add(name);
      const appOnly = isAppOnly((entry as Json)._meta);
      if (appOnly) this.appOnly.add(key);
      if (this.#facts) {
        const facts: Record<string, unknown> = {};
        if (analysis === undefined || Date.now() < analysis.deadline) {
          for (const extractor of this.#extractors) {
            facts[extractor.id] = extractor.extract(entry as Json);
          }
        }
        this.#facts.push({ name, ...(valid ? {} : { key }), appOnly, facts });
        if (performance.now() - slice >= ANALYSIS_SLICE_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (analysis?.signal?.aborted) return incomplete("transport-lost");
          slice = performance.now();
        }
      }
      if (this.#listed.length > MAX_TOOLS) return incomplete("incomplete-pagination");
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

/** `malformed-entry`, with the rule of MCP's Tool shape it breaks and the tool when named. */
function malformed(cause: ToolShapeCause, tool?: string): PageOutcome {
  return {
    incomplete: {
      reason: "malformed-entry",
      detail: { cause, ...(tool === undefined ? {} : { tool }) },
    },
  };
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

/** The rules of MCP's Tool shape, in the order they are checked, each with its phrase id. */
const TOOL_SHAPE: readonly [ToolShapeCause, (entry: Json) => boolean][] = [
  ["tool-name-not-string", (entry) => isString(entry.name)],
  ["tool-title-not-string", (entry) => optional(entry.title, isString)],
  ["tool-description-not-string", (entry) => optional(entry.description, isString)],
  ["input-schema-not-object-schema", (entry) => isObjectSchema(entry.inputSchema)],
  ["output-schema-not-object-schema", (entry) => optional(entry.outputSchema, isObjectSchema)],
  ["annotations-invalid", (entry) => optional(entry.annotations, isAnnotations)],
  ["meta-not-object", (entry) => optional(entry._meta, isObject)],
];

/**
 * What a client profile reads although MCP's Tool shape forbids it (SPEC 22): every rule holds
 * but the `inputSchema` root's `type`, which may be missing or other than `"object"`.
 */
const CLIENT_SHAPE: readonly [ToolShapeCause, (entry: Json) => boolean][] = TOOL_SHAPE.map((
  [cause, holds],
) =>
  cause === "input-schema-not-object-schema"
    ? [
      cause,
      (entry: Json) =>
        isObject(entry.inputSchema) && isObjectSchema({ ...entry.inputSchema, type: "object" }),
    ]
    : [cause, holds]
);

/** Whether a client profile keeps `entry`, which breaks MCP's Tool shape (see `CLIENT_SHAPE`). */
function readableByClients(entry: unknown): boolean {
  return isObject(entry) && CLIENT_SHAPE.every(([, holds]) => holds(entry));
}

/** The first rule of MCP's Tool shape that `entry` breaks, if any. */
function toolShapeFault(entry: unknown): ToolShapeCause | undefined {
  if (!isObject(entry)) return "tool-not-object";
  return TOOL_SHAPE.find(([, holds]) => !holds(entry))?.[0];
}

/**
 * Whether `entry` is a Tool of MCP 2025-06-18: the same rules as the SDK's `ToolSchema` for
 * those fields (tests/catalog_test.ts checks the two agree), without building a parsed copy of
 * each schema, which dominated the cost of large catalogs. Unknown fields are allowed.
 */
export function isTool(entry: unknown): entry is Json & { name: string } {
  return toolShapeFault(entry) === undefined;
}
