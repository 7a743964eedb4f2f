/**
 * A profile's catalog, built page by page from `tools/list` results with every bound checked.
 * Only tool names and each tool's bounded facts (app-only, and the facts the selected client
 * rules ask for) are kept; descriptions and schemas are dropped as soon as a page is checked.
 *
 * What a valid Tool is depends on the revision the profile speaks (SPEC 26): its row's
 * `toolShape` names the rules, so a 2026-07-28 tool with an array-root `outputSchema` or a
 * boolean property schema is valid there and `malformed-entry` under the 2025-06-18 shape. The
 * checks are linear in a schema's `properties` and `required` items, never a walk of the schema.
 *
 * A client profile (SPEC 22) also keeps a tool that is invalid for MCP's Tool shape but readable:
 * an `inputSchema` that is an object whose root is not `type: "object"` (or has no `type`), an
 * `outputSchema` that is an object but not of the revision's shape (SPEC 25), or a name that is a
 * string but not a valid tool identifier. Such a name is kept only in the tool's
 * facts, for the client's name rules; everywhere else the tool is named by its position
 * ({@linkcode invalidNameKey}). The five standard profiles keep the seed's `malformed-entry`.
 *
 * @module
 */
import { ANALYSIS_SLICE_MS, MAX_KEPT_INVALID_NAME_CHARS, MAX_PAGES, MAX_TOOLS } from "../limits.ts";
import { invalidNameKey, isToolName, TOOL_NAME } from "../tool_name.ts";
import type { Incomplete, ToolShapeCause } from "../protocol/incomplete.ts";
import type { FactExtractor, ToolFacts } from "../clients/rules/kind.ts";
import type { Revision } from "../protocol/versions.ts";

/** A revision's Tool shape (the `toolShape` of its row). */
type ToolShape = Revision["toolShape"];

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
  readonly #shape: ShapeRules;
  #pages = 0;

  /**
   * `toolShape`: what a valid Tool is, from the row of the revision the profile speaks (its
   * `toolShape`). `extractors`: the facts a client preset's rules need
   * (prepared already); without them (the five standard profiles) no per-tool facts are kept,
   * and every tool must be valid for that Tool shape.
   */
  constructor(toolShape: ToolShape, extractors?: readonly FactExtractor[]) {
    this.#shape = TOOL_SHAPES[toolShape];
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
      const broken = toolShapeFault(entry, this.#shape);
      if (broken && !(client && readableByClients(entry, this.#shape))) {
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
        this.#facts.push({
          name,
          ...(valid ? {} : { key }),
          appOnly,
          page: this.#pages + 1,
          facts,
        });
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

/** One rule of a Tool shape: the phrase id of its breach, and whether an entry keeps it. */
type ShapeRule = readonly [ToolShapeCause, (entry: Json) => boolean];

/**
 * `object-schemas`: an `inputSchema` or `outputSchema` that is an object schema (`type:
 * "object"`, each property an object, `required` a list of strings; other keywords are free).
 */
function isObjectSchema(value: unknown): boolean {
  return isObject(value) && value.type === "object" &&
    optional(
      value.properties,
      (properties) => isObject(properties) && Object.values(properties).every(isObject),
    ) &&
    optional(value.required, (required) => Array.isArray(required) && required.every(isString));
}

/**
 * `open-schemas`: an `inputSchema` or `outputSchema` that is a JSON Schema object, as the
 * revision's schema has it: an object whose `$schema` is a string where present; every other
 * keyword is free (boolean sub-schemas included), so the check is constant work.
 */
function isSchemaObject(value: unknown): value is Json {
  return isObject(value) && optional(value.$schema, isString);
}

function isAnnotations(value: unknown): boolean {
  return isObject(value) && optional(value.title, isString) &&
    ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"].every((hint) =>
      optional(value[hint], isBoolean)
    );
}

/** What one Tool shape checks, and what a client profile reads although it breaks it. */
interface ShapeRules {
  /** The rules of MCP's Tool shape, in the order they are checked. */
  readonly rules: readonly ShapeRule[];
  /**
   * The same rules as a client profile reads them (SPEC 22): where a client reads what the shape
   * forbids, a looser check in the place of the shape's.
   */
  readonly client: readonly ShapeRule[];
}

/**
 * A Tool shape: its two schema rules, between the rules every revision shares, and the looser
 * checks a client profile applies in the place of some of them, by cause.
 */
function toolShape(
  schemas: readonly ShapeRule[],
  clientReads: Partial<Record<ToolShapeCause, (entry: Json) => boolean>>,
): ShapeRules {
  const rules: ShapeRule[] = [
    ["tool-name-not-string", (entry) => isString(entry.name)],
    ["tool-title-not-string", (entry) => optional(entry.title, isString)],
    ["tool-description-not-string", (entry) => optional(entry.description, isString)],
    ...schemas,
    ["annotations-invalid", (entry) => optional(entry.annotations, isAnnotations)],
    ["meta-not-object", (entry) => optional(entry._meta, isObject)],
  ];
  return { rules, client: rules.map(([cause, holds]) => [cause, clientReads[cause] ?? holds]) };
}

/**
 * Each revision's Tool shape, by the `toolShape` of its row. A client profile reads an
 * `inputSchema` whose root `type` is missing or other than `"object"`, and an `outputSchema`
 * that is any object (an array root, boolean sub-schemas, a `$schema` that is not a string),
 * which its `outputSchema` rules judge (SPEC 25); every other rule holds.
 */
const TOOL_SHAPES: Readonly<Record<ToolShape, ShapeRules>> = {
  "object-schemas": toolShape([
    ["input-schema-not-object-schema", (entry) => isObjectSchema(entry.inputSchema)],
    ["output-schema-not-object-schema", (entry) => optional(entry.outputSchema, isObjectSchema)],
  ], {
    "input-schema-not-object-schema": (entry) =>
      isObject(entry.inputSchema) && isObjectSchema({ ...entry.inputSchema, type: "object" }),
    "output-schema-not-object-schema": (entry) => optional(entry.outputSchema, isObject),
  }),
  "open-schemas": toolShape([
    [
      "input-schema-not-object-rooted",
      (entry) => isSchemaObject(entry.inputSchema) && entry.inputSchema.type === "object",
    ],
    ["output-schema-not-schema-object", (entry) => optional(entry.outputSchema, isSchemaObject)],
  ], {
    "input-schema-not-object-rooted": (entry) => isSchemaObject(entry.inputSchema),
    "output-schema-not-schema-object": (entry) => optional(entry.outputSchema, isObject),
  }),
};

/** Whether a client profile keeps `entry`, which breaks the Tool shape `shape`. */
function readableByClients(entry: unknown, shape: ShapeRules): boolean {
  return isObject(entry) && shape.client.every(([, holds]) => holds(entry));
}

/** The first rule of the Tool shape `shape` that `entry` breaks, if any. */
function toolShapeFault(entry: unknown, shape: ShapeRules): ToolShapeCause | undefined {
  if (!isObject(entry)) return "tool-not-object";
  return shape.rules.find(([, holds]) => !holds(entry))?.[0];
}

/**
 * Whether `entry` is a Tool of a revision whose row has `toolShape`: `object-schemas`, the
 * 2025-06-18 Tool, with the same rules as the SDK 1.x `ToolSchema` for those fields;
 * `open-schemas`, the 2026-07-28 Tool of the revision's `schema.ts` (tests/catalog_test.ts
 * checks both). No parsed copy of a schema is built (that dominated the cost of large catalogs).
 * Unknown fields are allowed.
 */
export function isTool(entry: unknown, toolShape: ToolShape): entry is Json & { name: string } {
  return toolShapeFault(entry, TOOL_SHAPES[toolShape]) === undefined;
}
