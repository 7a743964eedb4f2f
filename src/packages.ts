/**
 * The npm packages the runtime uses, each loaded by {@linkcode loadPackage} when a run first
 * needs it. Deno resolves every npm package that a literal import names, dynamic or not, before
 * a program's first line runs (about 1 ms per package on the bench machine, whether the run
 * reaches it or not), so the runtime names them here as values, which Deno does not follow.
 * Their types come from type-only imports, which a run does not load. Each specifier is the one
 * deno.json maps the package to (and deno.lock pins): `tests/packages_test.ts` checks it.
 *
 * @module
 */

/** Each package's module types, by the name the runtime loads it by. */
interface PackageModules {
  "zod": typeof import("zod");
  "jsonc-parser": typeof import("jsonc-parser");
  "smol-toml": typeof import("smol-toml");
  "js-yaml": typeof import("js-yaml");
  "dotenv": typeof import("dotenv");
  "eventsource-parser": typeof import("eventsource-parser");
  "re2js": typeof import("re2js");
  "ajv/dist/ajv.js": typeof import("ajv/dist/ajv.js");
}

/** A package the runtime loads. */
export type PackageName = keyof PackageModules;

/** Each package's full specifier: a JSR or compiled mcpeval has no import map to resolve a name. */
export const PACKAGES: { readonly [name in PackageName]: string } = {
  "zod": "npm:zod@4.6.7",
  "jsonc-parser": "npm:jsonc-parser@3.3.1",
  "smol-toml": "npm:smol-toml@1.9.1",
  "js-yaml": "npm:js-yaml@5.5.0",
  "dotenv": "npm:dotenv@18.0.10",
  "eventsource-parser": "npm:eventsource-parser@4.1.3",
  "re2js": "npm:re2js@2.10.0",
  "ajv/dist/ajv.js": "npm:ajv@8.20.0/dist/ajv.js",
};

/**
 * Loads a package's module.
 *
 * @example
 * ```ts
 * const { parse } = await loadPackage("smol-toml");
 * ```
 */
export function loadPackage<N extends PackageName>(name: N): Promise<PackageModules[N]> {
  return import(PACKAGES[name]);
}
