/** The hand-written initialize check agrees with the SDK's InitializeResultSchema. */
import { InitializeResultSchema } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { parseInitializeResult } from "../src/protocol/initialize.ts";

type Json = Record<string, unknown>;

const INFO = { name: "s", version: "1" };
const BASE = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: INFO };
const withTop = (patch: Json) => ({ ...BASE, ...patch });
const withCaps = (capabilities: Json) => ({ ...BASE, capabilities });
const withInfo = (patch: Json) => ({ ...BASE, serverInfo: { ...INFO, ...patch } });
const withIcons = (icons: unknown) => withInfo({ icons });
const withMeta = (_meta: unknown) => withTop({ _meta });
const without = (key: string, value: Json = BASE) =>
  Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** Values that pass. */
const VALID: unknown[] = [
  BASE,
  {
    protocolVersion: "2025-11-25",
    capabilities: {
      experimental: { "x.y": { on: true } },
      logging: {},
      completions: {},
      prompts: { listChanged: true },
      resources: { subscribe: false, listChanged: true },
      tools: { listChanged: false },
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { "vendor/ext": {} },
    },
    serverInfo: {
      name: "s",
      title: "S",
      version: "1.0.0",
      websiteUrl: "https://example.com",
      description: "d",
      icons: [
        { src: "data:image/png;base64,AA==" },
        { src: "a.svg", mimeType: "image/svg+xml", sizes: ["any", "48x48"], theme: "dark" },
        { src: "b.png", theme: "light" },
      ],
    },
    instructions: "Use `echo`.",
    _meta: { progressToken: "p", [RELATED_TASK]: { taskId: "t" }, other: [1] },
  },
  withTop({ instructions: "" }),
  withTop({ protocolVersion: "" }),
  withTop({ protocolVersion: "1999-01-01" }),
  withTop({ extra: 1, result: null, error: { code: 1 } }),
  withCaps({ tools: {} }),
  withCaps({ tools: { listChanged: true, extra: "x" } }),
  withCaps({ custom: null, sampling: "not a server capability" }),
  withCaps({ prompts: { listChanged: false, other: 1 }, resources: { extra: [] } }),
  // The SDK's AssertObjectSchema takes any non-null object, arrays included.
  withCaps({ logging: [], completions: [1, 2] }),
  withCaps({ experimental: { a: [] }, extensions: { b: [] } }),
  withCaps({ experimental: {}, extensions: {} }),
  withCaps({ tasks: { list: [], cancel: [], requests: { tools: { call: [] } } } }),
  withCaps({ tasks: { requests: { tools: {}, prompts: "x" }, extra: 1 } }),
  withCaps({ tasks: {} }),
  withInfo({ extra: { deep: true } }),
  withInfo({ icons: [] }),
  withIcons([{ src: "", sizes: [], extra: 1 }]),
  withMeta({}),
  withMeta({ progressToken: 0 }),
  withMeta({ progressToken: -7 }),
  withMeta({ progressToken: Number.MAX_SAFE_INTEGER }),
  withMeta({ [RELATED_TASK]: { taskId: "", extra: 1 } }),
  // Optional keys may be present with the value undefined.
  withTop({ instructions: undefined, _meta: undefined }),
  withCaps({ tools: undefined, logging: undefined }),
  withInfo({ title: undefined, icons: undefined }),
  // zod's records skip an own `__proto__` key, whatever its value.
  JSON.parse(
    '{"protocolVersion":"v","capabilities":{"experimental":{"__proto__":null}},' +
      '"serverInfo":{"name":"s","version":"1"}}',
  ),
  JSON.parse(
    '{"protocolVersion":"v","capabilities":{"extensions":{"__proto__":1,"a":{}}},' +
      '"serverInfo":{"name":"s","version":"1"},"__proto__":null}',
  ),
];

/** Values that fail. */
const INVALID: unknown[] = [
  undefined,
  null,
  [],
  [BASE],
  "x",
  0,
  true,
  {},
  without("protocolVersion"),
  without("capabilities"),
  without("serverInfo"),
  withTop({ serverInfo: without("name", INFO) }),
  withTop({ serverInfo: without("version", INFO) }),
  withTop({ protocolVersion: 20250618 }),
  withTop({ protocolVersion: null }),
  withTop({ capabilities: null }),
  withTop({ capabilities: [] }),
  withTop({ capabilities: "tools" }),
  withTop({ serverInfo: null }),
  withTop({ serverInfo: [] }),
  withTop({ serverInfo: "s" }),
  withTop({ instructions: 1 }),
  withTop({ instructions: null }),
  withTop({ instructions: ["a"] }),
  withInfo({ name: 1 }),
  withInfo({ version: null }),
  withInfo({ title: 1 }),
  withInfo({ websiteUrl: {} }),
  withInfo({ description: null }),
  withCaps({ tools: null }),
  withCaps({ tools: [] }),
  withCaps({ tools: true }),
  withCaps({ tools: { listChanged: "yes" } }),
  withCaps({ prompts: { listChanged: 1 } }),
  withCaps({ prompts: [] }),
  withCaps({ resources: { subscribe: "y" } }),
  withCaps({ resources: { listChanged: null } }),
  withCaps({ logging: null }),
  withCaps({ logging: true }),
  withCaps({ logging: "on" }),
  withCaps({ completions: 0 }),
  withCaps({ experimental: [] }),
  withCaps({ experimental: "x" }),
  withCaps({ experimental: { a: null } }),
  withCaps({ experimental: { a: {}, b: 1 } }),
  withCaps({ experimental: { a: undefined } }),
  withCaps({ extensions: { a: "b" } }),
  withCaps({ extensions: [{}] }),
  withCaps({ tasks: [] }),
  withCaps({ tasks: null }),
  withCaps({ tasks: { list: null } }),
  withCaps({ tasks: { cancel: 1 } }),
  withCaps({ tasks: { requests: [] } }),
  withCaps({ tasks: { requests: { tools: [] } } }),
  withCaps({ tasks: { requests: { tools: { call: "x" } } } }),
  withIcons({}),
  withIcons(null),
  withIcons("a.png"),
  withIcons([null]),
  withIcons([{}]),
  withIcons([{ src: 1 }]),
  withIcons([{ src: "a", mimeType: 1 }]),
  withIcons([{ src: "a", sizes: "48x48" }]),
  withIcons([{ src: "a", sizes: [48] }]),
  withIcons([{ src: "a", theme: "blue" }]),
  withIcons([{ src: "a", theme: null }]),
  withIcons([{ src: "a" }, { src: "b", theme: "Dark" }]),
  withMeta(null),
  withMeta([]),
  withMeta("m"),
  withMeta({ progressToken: 1.5 }),
  withMeta({ progressToken: null }),
  withMeta({ progressToken: {} }),
  withMeta({ progressToken: 2 ** 53 }),
  // JSON.parse reads 1e400 as Infinity.
  JSON.parse(
    '{"protocolVersion":"v","capabilities":{},"serverInfo":{"name":"s","version":"1"},' +
      '"_meta":{"progressToken":1e400}}',
  ),
  withMeta({ [RELATED_TASK]: {} }),
  withMeta({ [RELATED_TASK]: { taskId: 1 } }),
  withMeta({ [RELATED_TASK]: "t" }),
  JSON.parse(
    '{"protocolVersion":"v","capabilities":{"experimental":{"__proto__":{},"a":1}},' +
      '"serverInfo":{"name":"s","version":"1"}}',
  ),
];

Deno.test("the corpus is what it says", () => {
  assert.ok(VALID.length + INVALID.length >= 40);
  for (const value of VALID) {
    assert.ok(InitializeResultSchema.safeParse(value).success, show(value));
  }
  for (const value of INVALID) {
    assert.ok(!InitializeResultSchema.safeParse(value).success, show(value));
  }
});

Deno.test("parseInitializeResult agrees with the SDK's InitializeResultSchema", () => {
  for (const value of [...VALID, ...INVALID]) {
    const facts = parseInitializeResult(value);
    const parsed = InitializeResultSchema.safeParse(value);
    assert.equal(facts !== undefined, parsed.success, show(value));
    if (parsed.success) {
      const { protocolVersion, capabilities, instructions } = parsed.data;
      assert.deepEqual(
        facts,
        { protocolVersion, hasTools: capabilities.tools !== undefined, instructions },
        show(value),
      );
    }
  }
});

Deno.test("the facts of a full result", () => {
  assert.deepEqual(
    parseInitializeResult({ ...withCaps({ tools: {} }), instructions: "Use `echo`." }),
    { protocolVersion: "2025-06-18", hasTools: true, instructions: "Use `echo`." },
  );
  assert.deepEqual(parseInitializeResult(BASE), {
    protocolVersion: "2025-06-18",
    hasTools: false,
    instructions: undefined,
  });
});

function show(value: unknown): string {
  return Deno.inspect(value, { depth: Infinity, compact: true, breakLength: Infinity });
}
