/**
 * The npm packages of the runtime (src/packages.ts): each is the package deno.json maps its name
 * to, each loads, and no literal import names one, so that Deno resolves none of them before
 * `mcpeval` or the library starts.
 */
import assert from "node:assert/strict";
import { loadPackage, type PackageName, PACKAGES } from "../src/packages.ts";
import { DENO, ROOT } from "./_cli.ts";

const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as {
  imports: Record<string, string>;
};

/** What deno.json maps `name` to: its own entry, else the longest `prefix/` entry, as `npm:`. */
function mapped(name: string): string | undefined {
  const exact = config.imports[name];
  if (exact !== undefined) return exact;
  const prefix = Object.keys(config.imports)
    .filter((key) => key.endsWith("/") && name.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix === undefined) return undefined;
  return (config.imports[prefix] + name.slice(prefix.length)).replace(/^npm:\//, "npm:");
}

Deno.test("each runtime package is the one deno.json maps its name to", () => {
  for (const [name, specifier] of Object.entries(PACKAGES)) {
    assert.equal(specifier, mapped(name), name);
  }
});

Deno.test("each runtime package loads by its specifier", async () => {
  for (const name of Object.keys(PACKAGES) as PackageName[]) {
    const module = await loadPackage(name);
    assert.ok(Object.keys(module).length > 0, name);
  }
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
    assert.ok(modules.length > 10, "the module graph was read");
    assert.deepEqual(modules.filter((specifier) => specifier.startsWith("npm:")), []);
  });
}
