/**
 * The npm packages the runtime uses, each loaded by {@linkcode loadPackage} when a run first
 * needs it. Deno resolves every npm package that a literal import names, dynamic or not, before
 * a program's first line runs (about 1 ms per package on the bench machine, whether the run
 * reaches it or not), so the runtime imports each by a specifier it computes from deno.json's
 * import map: Deno cannot follow a computed specifier before the run. Their types come from type-only imports, which a run does not
 * load. `tests/packages_test.ts` checks that each loads and that no code import names one.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

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

/** The packages the runtime loads (a record, so that the compiler sees none is left out). */
export const PACKAGE_NAMES: readonly PackageName[] = Object.keys(
  {
    "zod": true,
    "jsonc-parser": true,
    "smol-toml": true,
    "js-yaml": true,
    "dotenv": true,
    "eventsource-parser": true,
    "re2js": true,
    "ajv/dist/ajv.js": true,
  } satisfies { readonly [name in PackageName]: true },
) as PackageName[];

/**
 * What deno.json maps `name` to (its own entry, else the longest `prefix/` entry), in full: a
 * published package's computed import is not resolved through its import map.
 *
 * @example
 * ```ts
 * packageSpecifier("zod"); // "npm:zod@4.6.7"
 * ```
 */
export function packageSpecifier(name: PackageName): string {
  const imports: Readonly<Record<string, string>> = config.imports;
  const exact = imports[name];
  if (exact !== undefined) return exact;
  const prefix = Object.keys(imports)
    .filter((key) => key.endsWith("/") && name.startsWith(key))
    .reduce<string | undefined>(
      (a, b) => a === undefined || b.length > a.length ? b : a,
      undefined,
    );
  if (prefix === undefined) throw new Error(`deno.json maps no package ${name}`);
  return imports[prefix] + name.slice(prefix.length);
}

/**
 * Loads a package's module.
 *
 * @example
 * ```ts
 * const { parse } = await loadPackage("smol-toml");
 * ```
 */
export function loadPackage<N extends PackageName>(name: N): Promise<PackageModules[N]> {
  return import(packageSpecifier(name));
}
