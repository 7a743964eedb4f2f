/**
 * The npm packages of the runtime (src/packages.ts): each resolves through deno.json to a full
 * specifier and loads by it, and no code import names one, so that Deno resolves none of them
 * before `mcpeval` or the library starts.
 */
import assert from "node:assert/strict";
import { loadPackage, PACKAGE_NAMES, packageSpecifier } from "../src/packages.ts";
import { codeGraph } from "../scripts/code_graph.ts";
import { DENO, ROOT } from "./_cli.ts";

Deno.test("each runtime package has a full npm specifier in deno.json, and loads by it", async () => {
  for (const name of PACKAGE_NAMES) {
    assert.match(packageSpecifier(name), /^npm:\/?[@a-z0-9][^@]*@\d+\.\d+\.\d+/, name);
    const module = await loadPackage(name);
    assert.ok(Object.keys(module).length > 0, name);
  }
  // A subpath resolves through its package's `prefix/` entry.
  assert.equal(packageSpecifier("ajv/dist/ajv.js"), "npm:/ajv@8.20.0/dist/ajv.js");
});

for (const entry of ["main.ts", "mod.ts"]) {
  Deno.test(`${entry}: no code import names an npm package (they load through loadPackage)`, async () => {
    const { modules, packages } = await codeGraph(DENO, ROOT, entry);
    assert.ok(modules.some((specifier) => specifier.endsWith("/src/packages.ts")));
    assert.deepEqual(packages, []);
  });
}
