/**
 * What Deno reads before a program's first line runs: the modules an entry reaches by code
 * imports, static or literal dynamic ones (type-only imports are not loaded), read from
 * `deno info --json`. For the bench's start-up row and `tests/packages_test.ts`.
 *
 * @module
 */

/**
 * The modules `entry` reaches by code imports, and the npm packages among them with theirs;
 * with `staticOnly`, only by static imports (what loads before the entry's first line runs).
 */
export async function codeGraph(
  deno: string,
  root: string,
  entry: string,
  { staticOnly = false }: { readonly staticOnly?: boolean } = {},
): Promise<{ modules: string[]; packages: string[] }> {
  const output = await new Deno.Command(deno, {
    args: ["info", "--json", entry],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!output.success) throw new Error(`deno info ${entry} failed`);
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    redirects: Record<string, string>;
    modules: {
      specifier: string;
      npmPackage?: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
    npmPackages: Record<string, { dependencies?: string[] }>;
  };
  const bySpecifier = new Map(info.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>();
  const direct: string[] = [];
  const pending = [...info.roots];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const specifier = info.redirects[next] ?? next;
    if (reached.has(specifier)) continue;
    reached.add(specifier);
    const module = bySpecifier.get(specifier);
    if (module?.npmPackage) direct.push(module.npmPackage);
    for (const dependency of module?.dependencies ?? []) {
      if (dependency.code && !(staticOnly && dependency.isDynamic)) {
        pending.push(dependency.code.specifier);
      }
    }
  }
  const packages = new Set<string>();
  for (let name = direct.pop(); name !== undefined; name = direct.pop()) {
    if (packages.has(name)) continue;
    packages.add(name);
    direct.push(...(info.npmPackages[name]?.dependencies ?? []));
  }
  return { modules: [...reached], packages: [...packages] };
}
