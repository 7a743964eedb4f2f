/**
 * The project's own module graph, read from `deno info --json` (type-only and dynamic imports
 * included, unless only code imports are asked for), for the tests of the code's shape and
 * `scripts/change_cost.ts`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { DENO, ROOT } from "./_cli.ts";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

/** Which imports make an edge: every one, or only those that load code (not `import type`). */
export interface GraphOptions {
  /** Only imports that load code. */
  readonly codeOnly?: boolean;
  /** The tree to read (default this one). */
  readonly root?: string;
}

/** The project's own modules reachable from `entry`, each with the project modules it imports. */
export function graph(
  entry: string,
  options: GraphOptions = {},
): Promise<Map<string, Set<string>>> {
  return graphOf([entry], options);
}

/**
 * The same for several entries at once (one `deno info` of a module that imports them all):
 * every project module reachable from any of them.
 */
export async function graphOf(
  entries: readonly string[],
  { codeOnly = false, root = ROOT }: GraphOptions = {},
): Promise<Map<string, Set<string>>> {
  const imports = entries.map((path) =>
    `import ${JSON.stringify(pathToFileURL(join(root, path)).href)};`
  );
  const entry = entries.length === 1
    ? entries[0]
    : `data:application/typescript;base64,${btoa(imports.join("\n"))}`;
  const output = await new Deno.Command(DENO, {
    args: ["info", "--json", entry],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(output.code, 0, `deno info ${entries.join(" ")}`);
  const { modules } = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: InfoModule[];
  };
  const local = (specifier: string) =>
    specifier.startsWith("file://") ? relative(root, new URL(specifier).pathname) : undefined;
  const edges = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = local(module.specifier);
    if (from === undefined) continue;
    const targets = new Set<string>();
    for (const dependency of module.dependencies ?? []) {
      for (const resolved of codeOnly ? [dependency.code] : [dependency.code, dependency.type]) {
        const to = resolved && local(resolved.specifier);
        if (to !== undefined) targets.add(to);
      }
    }
    edges.set(from, targets);
  }
  return edges;
}

/** The modules `from` reaches in `edges` (itself included). */
export function reached(
  edges: ReadonlyMap<string, ReadonlySet<string>>,
  from: string,
): Set<string> {
  const seen = new Set<string>();
  const pending = [from];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...edges.get(next) ?? []);
  }
  return seen;
}
