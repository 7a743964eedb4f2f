/**
 * The client rule registry in process: each kind's judgement on per-tool facts, effects and
 * their defaults, the bounds of the schema facts, and the shape of the registry (a new kind is
 * its module and a row in the table).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parsePresets } from "../src/clients/presets.ts";
import type { ToolFacts } from "../src/clients/rules/kind.ts";
import { extractorsFor, prepareRules, RULE_KINDS } from "../src/clients/rules/registry.ts";
import { reachability } from "../src/analysis/reachability.ts";
import { MAX_SCHEMA_DEPTH } from "../src/limits.ts";
import { ROOT } from "./_cli.ts";

const evidence = { source: "https://example.com/x", verified_at: "2026-12-01" };
const facts = (names: string[]): ToolFacts[] =>
  names.map((name) => ({ name, appOnly: false, facts: {} }));

Deno.test("gemini-cli's rewriting: names cut in the middle at 63 collide, and the later one wins", () => {
  const a = `${"x".repeat(40)}-one-${"y".repeat(40)}`;
  const b = `${"x".repeat(40)}-two-${"y".repeat(40)}`;
  const rule = {
    id: "name-collision",
    value: "gemini-cli",
    effect: "drop-tool",
    ...evidence,
  } as const;
  const tools = facts(["plain", a, "get/user", "get_user", b]);
  const { hidden } = reachability([rule], "srv", { listed: [], appOnly: new Set(), facts: tools });
  assert.deepEqual([...hidden.keys()], [a, "get/user"]);
});

Deno.test("claude-code's and opencode's rewriting: one keeps the first, the other the later", () => {
  const tools = facts(["get.user", "plain", "get_user", "a b", "a_b"]);
  const judged = (value: string) => [
    ...reachability([{ id: "name-collision", value, effect: "drop-tool", ...evidence }], "s.v", {
      listed: [],
      appOnly: new Set(),
      facts: tools,
    }).hidden.keys(),
  ];
  // Both replace characters outside [A-Za-z0-9_-] with "_" (as observed by the lab).
  assert.deepEqual(judged("claude-code"), ["get_user", "a_b"]);
  assert.deepEqual(judged("opencode"), ["get.user", "a b"]);
});

Deno.test("a rule's observed evidence: {client, version, date, probe}, or the file is refused", () => {
  const file = (observed: unknown) => ({
    schema: "mcpeval.client-presets/v1",
    clients: {
      p: {
        client_info: { name: "p", version: "1" },
        capabilities: {},
        instructions_shown: null,
        sources: [{ url: "https://example.com/x", verified_at: "2026-12-01" }],
        rules: [{ id: "hide-app-only", value: true, ...evidence, observed }],
      },
    },
  });
  const good = { client: "p", version: "1.0.0", date: "2026-12-02", probe: "main/app-only" };
  const parsed = parsePresets(file(good));
  assert.ok(typeof parsed !== "string");
  assert.deepEqual(parsed.get("p")!.rules[0].observed, good);
  assert.equal(
    parsePresets(file({ ...good, date: "yesterday" })),
    "field clients.p.rules[0].observed.date must be a date (YYYY-MM-DD)",
  );
});

Deno.test("a whole-server effect hides every tool, reported once on its cause", () => {
  const rules = [
    { id: "max-name-length", value: 3, effect: "drop-tool", ...evidence },
    { id: "hide-app-only", value: true, effect: "drop-server", ...evidence },
  ] as const;
  const tools = [...facts(["abcd", "ab"]), { name: "app", appOnly: true, facts: {} }];
  const { hidden } = reachability(rules, "s", { listed: [], appOnly: new Set(), facts: tools });
  assert.deepEqual(Object.fromEntries(hidden), {
    abcd: { rule: "max-name-length", effect: "drop-tool", reported: true },
    ab: { rule: "hide-app-only", effect: "drop-server", reported: false },
    app: { rule: "hide-app-only", effect: "drop-server", reported: true },
  });
});

Deno.test("a cap counts what the other rules left, after the tools of earlier servers", () => {
  const rule = { id: "max-tools", value: 3, effect: "truncate", ...evidence } as const;
  const { hidden } = reachability([rule], "s", {
    listed: ["a", "b", "c"],
    appOnly: new Set(),
  }, 2);
  assert.deepEqual([...hidden.keys()], ["b", "c"]);
  const warn = { ...rule, effect: "warn" } as const;
  const warned = reachability([warn], "s", { listed: ["a", "b", "c"], appOnly: new Set() }, 2);
  assert.equal(warned.hidden.size, 0);
  assert.deepEqual(warned.warnings, [{ rule: "max-tools", tool: "b" }]);
});

Deno.test("schema facts: bounded walks, so a schema past a bound is not judged", async () => {
  const rules = [{ id: "schema-invalid" }, { id: "schema-unresolvable-ref" }];
  await prepareRules(rules);
  const [invalid, dangling] = extractorsFor(rules);
  const bad = { type: "object", properties: { x: { type: "strng" }, y: { $ref: "#/nope" } } };
  assert.equal(invalid.extract({ inputSchema: bad }), true);
  assert.equal(dangling.extract({ inputSchema: bad }), true);
  let deep: Record<string, unknown> = bad;
  for (let i = 0; i < MAX_SCHEMA_DEPTH; i++) deep = { type: "object", properties: { d: deep } };
  assert.equal(invalid.extract({ inputSchema: deep }), false);
  assert.equal(dangling.extract({ inputSchema: deep }), false);
  const fine = {
    type: "object",
    properties: { y: { $ref: "#/$defs/a~1b" } },
    $defs: { "a/b": {} },
  };
  assert.equal(invalid.extract({ inputSchema: fine }), false);
  assert.equal(dangling.extract({ inputSchema: fine }), false);
  // Remote references and anchors are not judged (claims least).
  assert.equal(dangling.extract({ inputSchema: { type: "object", $ref: "https://x/y" } }), false);
});

Deno.test("schema-description-not-string: only where Codex deserializes a description", () => {
  const [fact] = extractorsFor([{ id: "schema-description-not-string" }]);
  const judged = (properties: unknown, root: Record<string, unknown> = {}) =>
    fact.extract({ inputSchema: { type: "object", properties, ...root } });
  // Codex's JsonSchema holds description as an optional string: these fail to convert.
  assert.equal(judged({ x: { type: "string", description: 7 } }), true);
  assert.equal(judged({ x: { type: "integer", description: { text: "a" } } }), true);
  assert.equal(
    judged({ o: { type: "object", properties: { x: { type: "boolean", description: [] } } } }),
    true,
  );
  assert.equal(
    judged({ a: { type: "array", items: { type: "number", description: false } } }),
    true,
  );
  // Kept: a string or null description, no description, a type Codex infers or rewrites.
  assert.equal(judged({ x: { type: "string", description: "a" } }), false);
  assert.equal(judged({ x: { type: "string", description: null } }), false);
  assert.equal(judged({ x: { type: "string" } }), false);
  assert.equal(judged({ x: { description: 7 } }), false);
  assert.equal(judged({ x: { type: ["string", "null"], description: 7 } }), false);
  // Not judged: an object-typed node (older Codex ignored its description), rewritten paths.
  assert.equal(judged({ o: { type: "object", description: 7 } }), false);
  assert.equal(judged({ x: { type: "string", description: 7, $ref: "#/$defs/x" } }), false);
  assert.equal(judged({ x: { type: "string", description: 7 } }, { anyOf: [{}] }), false);
  assert.equal(
    judged({ a: { type: "object", items: { type: "string", description: 7 } } }),
    false,
  );
  // A schema past a bound is not judged.
  let deep: Record<string, unknown> = { x: { type: "string", description: 7 } };
  for (let i = 0; i < MAX_SCHEMA_DEPTH; i++) deep = { d: { type: "object", properties: deep } };
  assert.equal(judged(deep), false);
  const tools = [
    { name: "bad", appOnly: false, facts: { "schema-description-not-string": true } },
    { name: "fine", appOnly: false, facts: { "schema-description-not-string": false } },
  ];
  const rule = { id: "schema-description-not-string", value: true, ...evidence } as const;
  const { hidden } = reachability([{ ...rule, effect: "drop-tool" }], "s", {
    listed: [],
    appOnly: new Set(),
    facts: tools,
  });
  assert.deepEqual([...hidden.keys()], ["bad"]);
});

Deno.test("output-schema-unknown-type: a type keyword naming no JSON type, where draft-07 says more", async () => {
  const rules = [{ id: "output-schema-unknown-type" }, { id: "output-schema-invalid" }];
  await prepareRules(rules);
  const [unknown, invalid] = extractorsFor(rules);
  const judged = (outputSchema: unknown) =>
    [unknown, invalid].map((f) => f.extract({ outputSchema }));
  const object = (properties: unknown) => ({ type: "object", properties });
  assert.deepEqual(judged(object({ x: { type: "strng" } })), [true, true]);
  assert.deepEqual(judged(object({ x: { type: ["string", "nul"] } })), [true, true]);
  // The draft-07 meta-schema refuses more (Continue CLI 1.5.47 sent this one).
  assert.deepEqual(judged(object({ x: { type: "string", minLength: -1 } })), [false, true]);
  // Kept: every JSON type, a property named `type`, no outputSchema, a root that is not an object.
  assert.deepEqual(judged(object({ type: { type: ["integer", "null"] } })), [false, false]);
  assert.equal(unknown.extract({}), false);
  assert.equal(unknown.extract({ outputSchema: [{ type: "strng" }] }), false);
  // A schema past a bound is not judged.
  let deep: Record<string, unknown> = object({ x: { type: "strng" } });
  for (let i = 0; i < MAX_SCHEMA_DEPTH; i++) deep = object({ d: deep });
  assert.equal(unknown.extract({ outputSchema: deep }), false);
});

Deno.test("preset data: effects are checked per kind, and a cap without an effect only warns", () => {
  const preset = (rules: unknown[]) => ({
    schema: "mcpeval.client-presets/v1",
    clients: {
      x: {
        client_info: { name: "x", version: "1" },
        capabilities: {},
        instructions_shown: null,
        rules,
        sources: [{ url: "https://example.com/x", verified_at: "2026-12-01" }],
      },
    },
  });
  const parsed = parsePresets(preset([{ id: "max-tools", value: 5, ...evidence }]));
  assert.ok(typeof parsed !== "string");
  assert.equal(parsed.get("x")!.rules[0].effect, "warn");
  assert.equal(
    parsePresets(preset([{ id: "hide-app-only", value: true, effect: "truncate", ...evidence }])),
    "field clients.x.rules[0].effect must be one of: drop-tool",
  );
  assert.equal(
    parsePresets(preset([{ id: "schema-invalid", value: "draft-2020-12", ...evidence }])),
    "field clients.x.rules[0].value is not of the kind a schema-invalid rule takes",
  );
  const all = preset([]);
  (all.clients as Record<string, unknown>).all = all.clients.x;
  assert.equal(parsePresets(all), "names a client 'all', which --client all means");
});

Deno.test("every rule kind is one module, imported only by the registry", async () => {
  const dir = join(ROOT, "src", "clients", "rules");
  const shared = new Set(["kind.ts", "registry.ts", "schema_facts.ts", "draft07.ts"]);
  const modules = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => !shared.has(n));
  assert.equal(modules.length, Object.keys(RULE_KINDS).length);
  const sources = [...walk(join(ROOT, "src")), ...walk(join(ROOT, "tests"))];
  for (const module of modules) {
    const importers = sources.filter((path) =>
      Deno.readTextFileSync(path).includes(`/${module}"`) ||
      Deno.readTextFileSync(path).includes(`./${module}"`)
    );
    assert.deepEqual(importers.map((p) => p.slice(ROOT.length)), ["src/clients/rules/registry.ts"]);
  }
  for (const kind of Object.values(RULE_KINDS)) assert.ok(kind.effects.length > 0, kind.id);
  await Promise.resolve();
});

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (path.endsWith(".ts")) yield path;
  }
}
