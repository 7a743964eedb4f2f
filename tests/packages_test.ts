/**
 * The npm packages of the runtime: each is imported by its plain name, pinned to one version in
 * deno.json, and none loads before `mcpeval` starts (each with the module of the run that needs
 * it).
 */
import assert from "node:assert/strict";
import config from "../deno.json" with { type: "json" };
import { codeGraph } from "../scripts/code_graph.ts";
import { DENO, ROOT } from "./_cli.ts";

/** deno.json's entry for an npm package name (its own, else its `name/` prefix entry). */
function pinned(name: string): string | undefined {
  const imports: Readonly<Record<string, string>> = config.imports;
  return imports[name] ?? imports[`${name}/`];
}

for (const entry of ["main.ts", "mod.ts"]) {
  Deno.test(`${entry}: every npm package it imports is pinned to one version in deno.json`, async () => {
    const { packages } = await codeGraph(DENO, ROOT, entry);
    assert.ok(packages.length > 0);
    const direct = new Set(packages.map((id) => id.replace(/@[^@]+$/, "")));
    const own = Object.keys(config.imports).map((key) => key.replace(/\/$/, ""));
    for (const name of direct) {
      if (!own.includes(name)) continue; // a dependency of a package
      assert.match(pinned(name)!, /^npm:\/?[@a-z0-9][^@]*@\d+\.\d+\.\d+/, name);
    }
  });
}

Deno.test("main.ts: no npm package loads before the command runs (each with its run)", async () => {
  const { modules, packages } = await codeGraph(DENO, ROOT, "main.ts", { staticOnly: true });
  assert.ok(modules.some((specifier) => specifier.endsWith("/main.ts")));
  assert.deepEqual(packages, []);
});
