/**
 * The npm packages of the runtime (src/packages.ts): each resolves through deno.json to a full
 * specifier and loads by it, and no code import names one, so that Deno resolves none of them
 * before `mcpeval` or the library starts.
 */
import assert from "node:assert/strict";
import { loadPackage, PACKAGE_NAMES, packageSpecifier } from "../src/packages.ts";
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

/** The modules `entry` reaches by code imports (static or literal dynamic; not type-only). */
async function codeGraph(entry: string): Promise<string[]> {
  const output = await new Deno.Command(DENO, {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(output.code, 0);
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    redirects: Record<string, string>;
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
  };
  const bySpecifier = new Map(info.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>();
  const pending = [...info.roots];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const specifier = info.redirects[next] ?? next;
    if (reached.has(specifier)) continue;
    reached.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dependency.code) pending.push(dependency.code.specifier);
    }
  }
  return [...reached];
}

for (const entry of ["main.ts", "mod.ts"]) {
  Deno.test(`${entry}: no code import names an npm package (they load through loadPackage)`, async () => {
    const modules = await codeGraph(entry);
    assert.ok(modules.some((specifier) => specifier.endsWith("/src/packages.ts")));
    assert.deepEqual(modules.filter((specifier) => specifier.startsWith("npm:")), []);
  });
}
