/**
 * What a change touches. Each kind of extension is a module plus a row in one registry: read
 * from the real module graph (`deno info --json`, dynamic imports included), a registered module
 * is imported only by its registry (or a sibling of its own folder, or the library's `mod.ts`
 * that re-exports it), so adding one touches no other file of the code. The counts below are
 * those of a new one, with the files named; generated files (`deno task schema`) are counted
 * apart.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { ROOT } from "./_cli.ts";
import { graph } from "./_graph.ts";
import { PROTOCOL_VERSION } from "../src/protocol/versions.ts";

/** Every project module reachable from main.ts and mod.ts, with the modules that import it. */
async function importers(): Promise<Map<string, Set<string>>> {
  const by = new Map<string, Set<string>>();
  for (const entry of ["main.ts", "mod.ts"]) {
    for (const [from, targets] of await graph(entry)) {
      for (const to of targets) by.set(to, (by.get(to) ?? new Set()).add(from));
    }
  }
  return by;
}

/** The registries: a folder of modules, the one table that imports them, and the shared files. */
const REGISTRIES = [
  {
    what: "an output format",
    folder: "src/report/formats",
    registry: "src/report/formats/mod.ts",
    // Not a format: the values of the formats' own options.
    shared: ["src/report/formats/options.ts"],
    // The files a new one touches: its module, its row, its test.
    touches: ["src/report/formats/NEW.ts", "src/report/formats/mod.ts (a row)", "tests/..."],
  },
  {
    what: "a client rule kind",
    folder: "src/clients/rules",
    registry: "src/clients/rules/registry.ts",
    shared: ["src/clients/rules/kind.ts", "src/clients/rules/schema_facts.ts"],
    touches: [
      "src/clients/rules/NEW.ts",
      "src/clients/rules/registry.ts (a row)",
      "src/clients/clients.json (the presets that have it, with evidence)",
      "tests/...",
    ],
  },
  {
    what: "a config file shape",
    folder: "src/config/formats",
    registry: "src/config/formats/registry.ts",
    shared: ["src/config/formats/format.ts"],
    touches: ["src/config/formats/NEW.ts", "src/config/formats/registry.ts (a row)", "tests/..."],
  },
] as const;

const imported = await importers();

for (const { what, folder, registry, shared } of REGISTRIES) {
  Deno.test(`${what}: each module is imported only by its registry (${registry})`, () => {
    const modules = [...imported.keys()].filter((path) =>
      dirname(path) === folder && path !== registry && !(shared as readonly string[]).includes(path)
    );
    assert.ok(modules.length >= 3, `${folder}: its modules were found`);
    const outside: string[] = [];
    for (const module of modules) {
      for (const from of imported.get(module) ?? []) {
        // Its registry, a sibling (a format reusing another's helper), or the library surface.
        if (from === registry || dirname(from) === folder || from === "mod.ts") continue;
        outside.push(`${module} <- ${from}`);
      }
    }
    assert.deepEqual(outside, []);
  });
}

Deno.test("a protocol revision with the same wire rules is one row of src/protocol/versions.ts", async () => {
  // Callers ask the row: no other source file names a revision's date.
  const named: string[] = [];
  for await (const path of walk("src")) {
    if (path === "src/protocol/versions.ts" || !path.endsWith(".ts")) continue;
    const code = (await Deno.readTextFile(`${ROOT}/${path}`)).split("\n")
      .filter((line) => !/^\s*(\*|\/\/)/.test(line));
    if (code.some((line) => /"20\d\d-\d\d-\d\d"/.test(line))) named.push(path);
  }
  assert.deepEqual(named, []);
});

Deno.test("a new protocol revision changes no report schema: they take any revision's date", async () => {
  for (const schema of ["guidance-report", "guidance-fleet"]) {
    const text = await Deno.readTextFile(`${ROOT}/src/report/${schema}.schema.json`);
    // Only the default's date, in a hint that names the default.
    const dates = new Set(text.match(/20\d\d-\d\d-\d\d/g));
    assert.deepEqual([...dates], [PROTOCOL_VERSION], schema);
  }
});

Deno.test("the files a change touches, by kind (the counts the docs give)", () => {
  const counts = Object.fromEntries(REGISTRIES.map(({ what, touches }) => [what, touches.length]));
  assert.deepEqual(counts, {
    "an output format": 3,
    "a client rule kind": 4,
    "a config file shape": 3,
  });
});

async function* walk(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}/${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else yield path;
  }
}
