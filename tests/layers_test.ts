/**
 * The shape of the code: imports flow only downward through the layers, and there is no cycle.
 * Read from the real module graph (`deno info --json`), type-only and dynamic imports included.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./_cli.ts";
import { graph } from "./_graph.ts";

/** The leaf facts: modules of `src/` that import nothing of the project above them. */
const LEAVES = [
  "limits",
  "profiles",
  "tool_name",
  "version",
  "time",
  "exit",
  "target",
  "printable",
  "config_facts",
  "errors",
  "json_text",
] as const;

/**
 * Layers from the bottom up; a module may import only from its own layer or a lower one. The
 * request (what a run checks, validated) sits below the config files it may name: reading a
 * config file resolves its entries into requests, never the other way round.
 */
const LAYERS: readonly [string, RegExp][] = [
  ["leaf facts", new RegExp(`^(deno\\.json|src/(${LEAVES.join("|")})\\.ts)$`)],
  ["protocol", /^src\/protocol\//],
  ["clients", /^src\/clients\//],
  ["analysis", /^src\/analysis\//],
  ["transport", /^src\/transport\//],
  ["discovery", /^src\/discovery\//],
  ["report", /^src\/report\//],
  ["request", /^src\/request\//],
  ["config", /^src\/config\//],
  ["baseline", /^src\/baseline\//],
  ["lab", /^src\/lab\//],
  ["run", /^src\/run\//],
  ["cli", /^src\/cli\//],
  ["entry", /^(main|mod)\.ts$/],
];

/** Imports that the ranks alone would allow but that the design forbids. */
const FORBIDDEN: readonly [string, string][] = [
  ["analysis", "transport"],
  ["analysis", "discovery"],
  ["report", "transport"],
];

function layerOf(path: string): number {
  const index = LAYERS.findIndex(([, pattern]) => pattern.test(path));
  assert.notEqual(index, -1, `${path} belongs to no layer: add it to LAYERS`);
  return index;
}

/** Every import that runs back up a layer (or that the design forbids), as `from -> to`. */
function upward(edges: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  for (const [from, targets] of edges) {
    for (const to of targets) {
      const [a, b] = [layerOf(from), layerOf(to)];
      const forbidden = FORBIDDEN.some(([x, y]) => LAYERS[a][0] === x && LAYERS[b][0] === y);
      if (b > a || forbidden) found.push(`${from} (${LAYERS[a][0]}) -> ${to} (${LAYERS[b][0]})`);
    }
  }
  return found;
}

/** Strongly connected components with more than one module (or a self-import). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

for (const entry of ["main.ts", "mod.ts", "src/lab/mod.ts"]) {
  Deno.test(`${entry}: every import flows downward through the layers, with no cycle`, async () => {
    const edges = await graph(entry);
    assert.ok(edges.size > 10, "the module graph was read");
    assert.deepEqual(upward(edges), []);
    assert.deepEqual(cycles(edges), []);
  });
}

Deno.test("every leaf fact the layers name is a module of src/", () => {
  for (const leaf of LEAVES) assert.ok(existsSync(join(ROOT, "src", `${leaf}.ts`)), leaf);
});

Deno.test("the layer check sees an arrow back up, a forbidden import and a cycle", () => {
  assert.ok(layerOf("src/transport/http.ts") > layerOf("src/protocol/messages.ts"));
  // The arrow issue 38 found: the run request importing a config module that imports it back.
  const back = new Map([
    ["src/request/run.ts", new Set(["src/config/request.ts"])],
    ["src/config/request.ts", new Set(["src/request/request.ts"])],
    ["src/request/request.ts", new Set<string>()],
  ]);
  assert.deepEqual(upward(back), [
    "src/request/run.ts (request) -> src/config/request.ts (config)",
  ]);
  assert.deepEqual(
    upward(new Map([["src/analysis/rules.ts", new Set(["src/transport/http.ts"])]])),
    [
      "src/analysis/rules.ts (analysis) -> src/transport/http.ts (transport)",
    ],
  );
  const edges = new Map([["a", new Set(["b"])], ["b", new Set(["a"])], ["c", new Set<string>()]]);
  assert.deepEqual(cycles(edges), [["a", "b"]]);
});
