/**
 * The project's own module graph, read from `deno info --json` (type-only and dynamic imports
 * included), for the tests of the code's shape.
 */
import assert from "node:assert/strict";
import { relative } from "node:path";
import { DENO, ROOT } from "./_cli.ts";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

/** The project's own modules reachable from `entry`, each with the project modules it imports. */
export async function graph(entry: string): Promise<Map<string, Set<string>>> {
  const output = await new Deno.Command(DENO, {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(output.code, 0);
  const { modules } = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: InfoModule[];
  };
  const local = (specifier: string) =>
    specifier.startsWith("file://") ? relative(ROOT, new URL(specifier).pathname) : undefined;
  const edges = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = local(module.specifier);
    if (from === undefined) continue;
    const targets = new Set<string>();
    for (const dependency of module.dependencies ?? []) {
      for (const resolved of [dependency.code, dependency.type]) {
        const to = resolved && local(resolved.specifier);
        if (to !== undefined) targets.add(to);
      }
    }
    edges.set(from, targets);
  }
  return edges;
}
