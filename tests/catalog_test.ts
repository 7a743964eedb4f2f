/** The catalog's Tool check agrees with the SDK's ToolSchema on the 2025-06-18 fields. */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { isTool } from "../src/discovery/catalog.ts";

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

Deno.test("isTool agrees with the SDK's ToolSchema", () => {
  for (const entry of ENTRIES) {
    assert.equal(isTool(entry), ToolSchema.safeParse(entry).success, JSON.stringify(entry));
  }
});
