/**
 * What a change touches, measured. Each kind of extension is a module plus a row in one
 * registry. The files a new one touches are derived, not listed: its module and its row, a test
 * of it, the data files that name every member (the client presets name their rule kinds), and
 * every file that would have to change with it, found in the tree:
 * - a project module that imports one of the registry's modules (read from the real module graph,
 *   `deno info --json`, dynamic imports included), other than the registry, a sibling of its
 *   folder, or the library's `mod.ts` that re-exports it: a module added in the wrong place;
 * - a source file whose string literals name every member's id (a second list of them), or a
 *   source, test, script or fixture with a line whose strings name all of them but one (a loop
 *   over the list, or a message that spells it out). Comments, docs and the registry's own
 *   folder do not count.
 * Generated files (`deno task schema`) that name the members are counted apart.
 * `scripts/change_cost.ts` measures the same for real, adding a fictional member to a
 * throwaway copy of the tree until `deno check` and the registries' tests pass.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { ROOT } from "./_cli.ts";
import { graph } from "./_graph.ts";
import { RULE_KIND_IDS } from "../src/clients/rules/registry.ts";
import { FORMAT_MODULES } from "../src/config/formats/registry.ts";
import { PROTOCOL_VERSION, PROTOCOL_VERSIONS } from "../src/protocol/versions.ts";
import { FORMAT_OPTIONS, FORMATS } from "../src/report/formats/mod.ts";

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

interface Seam {
  readonly what: string;
  /** The folder of the registered modules (none: a revision is a row only). */
  readonly folder?: string;
  readonly registry: string;
  /** Files of the folder that are not registered modules (what the modules share). */
  readonly shared: readonly string[];
  /** The members' ids, read from the registry. */
  readonly ids: readonly string[];
  /** Data that names each member where it is used (checked to name most of them). */
  readonly data: readonly string[];
  /** Docs a test checks against the registry: a new member is a row there too. */
  readonly docs?: readonly string[];
  /** The most files a new one may touch, generated files apart (issue 30). */
  readonly goal: number;
}

/** The registries, read for their ids. */
const SEAMS: readonly Seam[] = [
  {
    what: "an output format",
    folder: "src/report/formats",
    registry: "src/report/formats/mod.ts",
    // Not a format: the values of the formats' own options.
    shared: ["src/report/formats/options.ts"],
    ids: FORMATS,
    data: [],
    goal: 3,
  },
  {
    what: "an output format with an option of its own",
    folder: "src/report/formats",
    registry: "src/report/formats/mod.ts",
    shared: ["src/report/formats/options.ts"],
    // The formats' own options: the command line takes each from its declaration.
    ids: FORMAT_OPTIONS.map((option) => option.name),
    // Its declaration.
    data: ["src/report/formats/options.ts"],
    // Its row of the option table (options_test).
    docs: ["docs/reference.md"],
    goal: 5,
  },
  {
    what: "a client rule kind",
    folder: "src/clients/rules",
    registry: "src/clients/rules/registry.ts",
    shared: ["src/clients/rules/kind.ts", "src/clients/rules/schema_facts.ts"],
    ids: RULE_KIND_IDS,
    // The probes that decide it (the presets that have it are derived from observations).
    data: ["src/lab/probe_catalog.ts"],
    goal: 4,
  },
  {
    what: "a config file shape with a new top-level key",
    folder: "src/config/formats",
    registry: "src/config/formats/registry.ts",
    shared: ["src/config/formats/format.ts"],
    // Each module declares the key that holds its servers; the fleet report takes any key.
    ids: [...new Set(FORMAT_MODULES.map((module) => module.format))],
    data: [],
    goal: 3,
  },
  {
    what: "a protocol revision with the same wire rules",
    registry: "src/protocol/versions.ts",
    shared: [],
    ids: PROTOCOL_VERSIONS,
    data: [],
    goal: 2,
  },
];

/** Where files that would change with a new member are looked for (docs are not code). */
const SCANNED = ["src", "tests", "scripts", "fixtures", "main.ts", "mod.ts"];

/** What `deno task schema` writes. */
const isGenerated = (path: string) => /^src\/report\/[^/]+\.schema\.json$/.test(path);

const imported = await importers();
const files = await scannedFiles();

/** The string literals of each line of code of a file (comment lines dropped): where ids are named. */
async function codeLines(path: string): Promise<string[]> {
  return (await Deno.readTextFile(`${ROOT}/${path}`)).split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .map((line) =>
      (line.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g) ?? []).join(" ")
    );
}

/** The ids `text` names, each as a whole word (quoted, or in a message). */
function named(text: string, ids: readonly string[]): string[] {
  return ids.filter((id) => new RegExp(`(?<![\\w.-])${RegExp.escape(id)}(?![\\w-])`).test(text));
}

/** The registered modules of a seam: the folder's modules, apart from the registry and shared. */
function modulesOf({ folder, registry, shared }: Seam): string[] {
  return [...imported.keys()].filter((path) =>
    folder !== undefined && dirname(path) === folder && path !== registry &&
    !shared.includes(path)
  );
}

/** Importers of a registered module from outside its registry, its folder and `mod.ts`. */
function importedOutside(seam: Seam): string[] {
  const outside: string[] = [];
  for (const module of modulesOf(seam)) {
    for (const from of imported.get(module) ?? []) {
      if (from === seam.registry || dirname(from) === seam.folder || from === "mod.ts") continue;
      outside.push(`${module} <- ${from}`);
    }
  }
  return outside;
}

/** Files outside the registry and its folder that spell out the members' ids. */
async function listing(seam: Seam): Promise<{ code: string[]; generated: string[] }> {
  const code: string[] = [];
  const generated: string[] = [];
  const { ids } = seam;
  for (const path of files) {
    if (path === seam.registry || (seam.folder && dirname(path) === seam.folder)) continue;
    if (seam.data.includes(path)) continue;
    if (isGenerated(path)) {
      const text = await Deno.readTextFile(`${ROOT}/${path}`);
      if (named(text, ids).length === ids.length) generated.push(path);
      continue;
    }
    if (!path.endsWith(".ts")) continue;
    const lines = await codeLines(path);
    const everyId = path.startsWith("src/") && named(lines.join("\n"), ids).length === ids.length;
    const aLine = ids.length >= 3 &&
      lines.some((line) => named(line, ids).length >= ids.length - 1);
    if (everyId || aLine) code.push(path);
  }
  return { code, generated };
}

/** The files a new member touches, generated ones apart. */
async function costOf(seam: Seam): Promise<{ touches: string[]; generated: string[] }> {
  const { code, generated } = await listing(seam);
  const wrongPlace = importedOutside(seam).map((edge) => edge.split(" <- ")[1]);
  const touches = [
    ...(seam.folder ? [`${seam.folder}/NEW.ts`] : []),
    `${seam.registry} (a row)`,
    "tests/... (a test of it)",
    ...seam.data,
    ...seam.docs ?? [],
    ...new Set([...code, ...wrongPlace]),
  ];
  return { touches, generated };
}

for (const seam of SEAMS.filter((seam) => seam.folder !== undefined)) {
  Deno.test(`${seam.what}: each module is imported by its registry only (${seam.registry})`, () => {
    const modules = modulesOf(seam);
    assert.ok(modules.length >= 3, `${seam.folder}: its modules were found`);
    const unregistered = modules.filter((module) => !imported.get(module)?.has(seam.registry));
    assert.deepEqual(unregistered, [], "every module of the folder is a row of the registry");
    assert.deepEqual(importedOutside(seam), []);
  });
}

for (const seam of SEAMS) {
  Deno.test(`${seam.what}: a new one touches at most ${seam.goal} files`, async () => {
    for (const path of seam.data) {
      const text = await Deno.readTextFile(`${ROOT}/${path}`);
      assert.ok(named(text, seam.ids).length * 2 > seam.ids.length, `${path} names the members`);
    }
    const { touches } = await costOf(seam);
    assert.ok(touches.length <= seam.goal, `${touches.length} files: ${touches.join(", ")}`);
  });
}

Deno.test("the change costs, measured (generated schemas apart)", async () => {
  const costs: Record<string, string> = {};
  for (const seam of SEAMS) {
    const { touches, generated } = await costOf(seam);
    costs[seam.what] = `${touches.length} + ${generated.length} generated`;
  }
  // What the docs and issue 30 give; a change here is a change of design.
  assert.deepEqual(costs, {
    "an output format": "3 + 0 generated",
    "an output format with an option of its own": "5 + 0 generated",
    "a client rule kind": "4 + 0 generated",
    "a config file shape with a new top-level key": "3 + 0 generated",
    "a protocol revision with the same wire rules": "2 + 0 generated",
  });
});

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

Deno.test("a new client rule kind changes no report schema: rule ids are a pattern (SPEC 10)", async () => {
  for (const schema of ["guidance-report", "guidance-fleet"]) {
    const text = await Deno.readTextFile(`${ROOT}/src/report/${schema}.schema.json`);
    assert.deepEqual(named(text, RULE_KIND_IDS), [], schema);
  }
});

async function* walk(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}/${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else yield path;
  }
}

async function scannedFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const root of SCANNED) {
    const info = await Deno.stat(`${ROOT}/${root}`);
    if (!info.isDirectory) found.push(root);
    else for await (const path of walk(root)) found.push(path);
  }
  return found;
}
