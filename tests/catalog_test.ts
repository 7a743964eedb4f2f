/**
 * The catalog's Tool check, per revision (SPEC 26): the `object-schemas` shape (2025-06-18, and
 * every other revision before 2026-07-28) agrees with the SDK 1.x `ToolSchema`; the
 * `open-schemas` shape (2026-07-28) follows that revision's `schema.ts`, entry by entry; a page
 * is validated with the shape of the revision's row, for the five standard profiles and for a
 * client profile.
 */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { CatalogBuilder, isTool } from "../src/discovery/catalog.ts";
import { PROTOCOL_VERSIONS, type Revision, revisionOf } from "../src/protocol/versions.ts";

type ToolShape = Revision["toolShape"];

const schema = { type: "object" };
const ENTRIES: unknown[] = [
  { name: "a", inputSchema: schema },
  { name: "a", title: "A", description: "d", inputSchema: schema, _meta: {}, extra: 1 },
  {
    name: "a",
    inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  },
  { name: "a", inputSchema: schema, outputSchema: { type: "object", additionalProperties: false } },
  { name: "a", inputSchema: schema, annotations: { title: "t", readOnlyHint: true, custom: 1 } },
  {
    name: "a",
    inputSchema: { type: "object", $schema: "http://json-schema.org/draft-07/schema#" },
  },
  null,
  [],
  "a",
  {},
  { name: 1, inputSchema: schema },
  { name: "a" },
  { name: "a", inputSchema: null },
  { name: "a", inputSchema: [] },
  { name: "a", inputSchema: { type: "string" } },
  { name: "a", inputSchema: { properties: {} } },
  { name: "a", inputSchema: { type: "object", properties: { q: "string" } } },
  { name: "a", inputSchema: { type: "object", properties: { q: true } } },
  { name: "a", inputSchema: { type: "object", properties: [] } },
  { name: "a", inputSchema: { type: "object", required: "q" } },
  { name: "a", inputSchema: { type: "object", required: [1] } },
  { name: "a", inputSchema: schema, outputSchema: { type: "array" } },
  { name: "a", inputSchema: schema, outputSchema: null },
  { name: "a", inputSchema: schema, title: 3 },
  { name: "a", inputSchema: schema, description: null },
  { name: "a", inputSchema: schema, annotations: { readOnlyHint: "yes" } },
  { name: "a", inputSchema: schema, annotations: "x" },
  { name: "a", inputSchema: schema, _meta: [] },
];

Deno.test("object-schemas: isTool agrees with the SDK 1.x ToolSchema (2025-06-18)", () => {
  for (const entry of ENTRIES) {
    assert.equal(
      isTool(entry, "object-schemas"),
      ToolSchema.safeParse(entry).success,
      JSON.stringify(entry),
    );
  }
});

/** A tool with `inputSchema` (an object schema unless given) and the other fields given. */
const tool = (fields: Record<string, unknown>) => ({ name: "a", inputSchema: schema, ...fields });

/**
 * Entries and whether each is a Tool under `object-schemas` and under `open-schemas`. The
 * 2026-07-28 `schema.ts`: `inputSchema: { $schema?: string; type: "object"; [key: string]:
 * unknown }`, `outputSchema?: { $schema?: string; [key: string]: unknown }` (SEP-2106); the
 * other fields as in 2025-06-18.
 */
const BY_SHAPE: readonly [entry: unknown, objectSchemas: boolean, openSchemas: boolean][] = [
  // What 2026-07-28 allows and 2025-06-18 does not: any outputSchema root, boolean sub-schemas.
  [tool({ outputSchema: { type: "array", items: { type: "string" } } }), false, true],
  [tool({ outputSchema: { anyOf: [{ type: "string" }, { type: "null" }] } }), false, true],
  [tool({ outputSchema: {} }), false, true],
  [tool({ outputSchema: { type: "object", properties: { x: true } } }), false, true],
  [tool({ inputSchema: { type: "object", properties: { x: true, y: false } } }), false, true],
  // The revision's schema leaves every keyword but `type` and `$schema` to JSON Schema.
  [tool({ inputSchema: { type: "object", properties: [] } }), false, true],
  [tool({ inputSchema: { type: "object", required: "x" } }), false, true],
  // Boolean sub-schemas where 2025-06-18 checks nothing: valid in both.
  [tool({ inputSchema: { type: "object", additionalProperties: false, items: true } }), true, true],
  [tool({ inputSchema: { type: "object", properties: { x: { items: true } } } }), true, true],
  [tool({ outputSchema: { type: "object", additionalProperties: false } }), true, true],
  // What 2026-07-28 forbids and 2025-06-18 (which has no `$schema`) allows.
  [tool({ inputSchema: { type: "object", $schema: 7 } }), true, false],
  [tool({ outputSchema: { type: "object", $schema: null } }), true, false],
  // Invalid in both.
  [tool({ outputSchema: true }), false, false],
  [tool({ outputSchema: [] }), false, false],
  [tool({ outputSchema: null }), false, false],
  [tool({ inputSchema: { type: "array" } }), false, false],
  [tool({ inputSchema: {} }), false, false],
  [tool({ inputSchema: true }), false, false],
  [tool({ inputSchema: undefined }), false, false],
  [tool({ title: 3 }), false, false],
  [tool({ annotations: { readOnlyHint: "yes" } }), false, false],
  [tool({ _meta: [] }), false, false],
  [{ ...tool({}), name: 1 }, false, false],
  // Valid in both.
  [
    tool({
      outputSchema: { type: "object", $schema: "https://json-schema.org/draft/2020-12/schema" },
    }),
    true,
    true,
  ],
  [tool({ icons: [], execution: {} }), true, true],
];

Deno.test("isTool per Tool shape: what 2026-07-28 allows, and what it still forbids", () => {
  for (const [entry, objectSchemas, openSchemas] of BY_SHAPE) {
    const text = JSON.stringify(entry);
    assert.equal(isTool(entry, "object-schemas"), objectSchemas, `object-schemas: ${text}`);
    assert.equal(isTool(entry, "open-schemas"), openSchemas, `open-schemas: ${text}`);
  }
});

/** A valid 2026-07-28 Tool with an array-root outputSchema (the tools page's example). */
const LIST_USERS = {
  name: "list-users",
  inputSchema: { type: "object", additionalProperties: false },
  outputSchema: { type: "array", items: { type: "object", properties: { id: true } } },
};
/** A valid 2026-07-28 Tool with boolean property schemas. */
const SET_FLAGS = {
  name: "set-flags",
  inputSchema: { type: "object", properties: { verbose: true, legacy: false } },
};

/** What one page gives: the listed tools, or the reason and cause it ends the profile with. */
async function pageOutcome(shape: ToolShape, tools: unknown[], client = false) {
  const catalog = new CatalogBuilder(shape, client ? [] : undefined);
  const outcome = await catalog.addPage({ tools });
  return "incomplete" in outcome
    ? [outcome.incomplete.reason, outcome.incomplete.detail?.cause, outcome.incomplete.detail?.tool]
    : catalog.listed();
}

Deno.test("a page is validated with the Tool shape of the revision's row", async () => {
  const open = PROTOCOL_VERSIONS.filter((v) => revisionOf(v).toolShape === "open-schemas");
  assert.ok(open.length > 0 && open.length < PROTOCOL_VERSIONS.length, "both shapes have rows");
  for (const version of PROTOCOL_VERSIONS) {
    const shape = revisionOf(version).toolShape;
    for (const client of [false, true]) {
      const listed = await pageOutcome(shape, [
        { name: "echo", inputSchema: schema },
        LIST_USERS,
        SET_FLAGS,
      ], client);
      const boolean = await pageOutcome(shape, [SET_FLAGS], client);
      if (shape === "open-schemas") {
        assert.deepEqual(listed, ["echo", "list-users", "set-flags"], version);
        assert.deepEqual(boolean, ["set-flags"], version);
      } else {
        // A client profile keeps an outputSchema that is an object (SPEC 25), which its rules
        // judge; the five standard profiles say malformed-entry.
        assert.deepEqual(
          listed,
          client
            ? ["malformed-entry", "input-schema-not-object-schema", "set-flags"]
            : ["malformed-entry", "output-schema-not-object-schema", "list-users"],
          version,
        );
        assert.deepEqual(
          boolean,
          ["malformed-entry", "input-schema-not-object-schema", "set-flags"],
          version,
        );
      }
    }
  }
});

Deno.test("open-schemas: its own causes, and what a client profile keeps", async () => {
  const rootArray = { name: "root", inputSchema: { type: "array" } };
  const untyped = { name: "untyped", inputSchema: { properties: { x: true } } };
  assert.deepEqual(await pageOutcome("open-schemas", [rootArray]), [
    "malformed-entry",
    "input-schema-not-object-rooted",
    "root",
  ]);
  // A client profile reads an inputSchema whose root type is missing or not "object" (SPEC 22).
  assert.deepEqual(await pageOutcome("open-schemas", [rootArray, untyped], true), [
    "root",
    "untyped",
  ]);
  for (const client of [false, true]) {
    for (
      const [entry, cause] of [
        [{ name: "a", inputSchema: [] }, "input-schema-not-object-rooted"],
        [
          { name: "a", inputSchema: { type: "object", $schema: 1 } },
          "input-schema-not-object-rooted",
        ],
        [{ name: "a", inputSchema: schema, outputSchema: [] }, "output-schema-not-schema-object"],
        [
          { name: "a", inputSchema: schema, outputSchema: false },
          "output-schema-not-schema-object",
        ],
        [
          { name: "a", inputSchema: schema, outputSchema: { $schema: 2 } },
          "output-schema-not-schema-object",
        ],
      ] as const
    ) {
      // A client profile keeps an outputSchema that is any object (its rules judge it).
      const kept = client && "outputSchema" in entry && typeof entry.outputSchema === "object" &&
        !Array.isArray(entry.outputSchema);
      assert.deepEqual(
        await pageOutcome("open-schemas", [entry], client),
        kept ? ["a"] : ["malformed-entry", cause, "a"],
        JSON.stringify(entry),
      );
    }
  }
});
