/**
 * What a change touches, measured from the tree. Each kind of extension is a module plus a row
 * in one registry. The files a new one touches are derived, not listed: its module, its row, a
 * test of it, the declarations it needs beside them (a format's own option), and every file that
 * would have to change with it, found in the tree (`tests/_seams.ts` reads the text):
 * - a project module that imports one of the registry's modules (read from the real module graph,
 *   `deno info --json`, dynamic imports included), other than the registry, a sibling of its
 *   folder, or the library's `mod.ts`: a module added in the wrong place;
 * - a source, test, script or fixture that spells out the members' ids outside their registry's
 *   folder: on one line, one id per line (as `deno fmt` writes a long list), a union, a `switch`,
 *   a message that names them (comments do not count);
 * - a source file outside the registry's folder that branches on one member (`=== "junit"`).
 * Docs apart: every docs table that lists the members (a row or a column each) is one doc edit,
 * and must be checked against its registry by a test that reads both. Generated files (`deno task
 * schema`) that name the members are counted apart too. Each kind of break has a test that shows
 * it is seen. `scripts/change_cost.ts` measures the same for real, making each change in a
 * throwaway copy of the tree until `deno check` and every test that reads the registry or the
 * docs it touched pass.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { ROOT } from "./_cli.ts";
import { graph, graphOf, reached } from "./_graph.ts";
import {
  branchesOn,
  docListsIds,
  listsIds,
  named,
  readersOf,
  readsDoc,
  withoutComments,
} from "./_seams.ts";
import { RULE_KIND_IDS } from "../src/clients/rules/registry.ts";
import { OPTION_ROWS } from "../src/cli/options.ts";
import { FORMAT_MODULES } from "../src/config/formats/registry.ts";
import { PROTOCOL_VERSION, PROTOCOL_VERSIONS } from "../src/protocol/versions.ts";
import { FORMAT_OPTIONS, FORMAT_TABLE } from "../src/report/formats/mod.ts";

interface Seam {
  readonly what: string;
  /** The folder of the registered modules (none: a revision is a row only). */
  readonly folder?: string;
  readonly registry: string;
  /** The registry's table: the one place that names every member. */
  readonly table: string;
  /** Files of the folder that are not registered modules (what the modules share). */
  readonly shared: readonly string[];
  /** The members' ids, read from the registry. */
  readonly ids: readonly string[];
  /** Files a new member declares itself in beside its module and its row. */
  readonly declared?: readonly string[];
  /**
   * What its docs tables list, each with the module a test must read to check them (default:
   * its ids, and its registry).
   */
  readonly docs?: readonly { readonly ids: readonly string[]; readonly registry: string }[];
  /** The most code files a new one may touch, generated files and docs apart (issue 38). */
  readonly goal: number;
}

/** The registries, read for their ids. */
const SEAMS: readonly Seam[] = [
  {
    what: "an output format",
    folder: "src/report/formats",
    registry: "src/report/formats/mod.ts",
    table: "FORMAT_TABLE",
    // Not a format: the values of the formats' own options.
    shared: ["src/report/formats/options.ts"],
    ids: Object.keys(FORMAT_TABLE),
    goal: 3,
  },
  {
    what: "an output format with an option of its own",
    folder: "src/report/formats",
    registry: "src/report/formats/mod.ts",
    table: "FORMAT_TABLE",
    shared: ["src/report/formats/options.ts"],
    // The formats' own options: the command line takes each from its declaration.
    ids: FORMAT_OPTIONS.map((option) => option.name),
    declared: ["src/report/formats/options.ts"],
    // A format's table, and the option table of the docs (every option of the command line).
    docs: [
      { ids: Object.keys(FORMAT_TABLE), registry: "src/report/formats/mod.ts" },
      { ids: OPTION_ROWS.map((row) => `--${row.name}`), registry: "src/cli/options.ts" },
    ],
    goal: 4,
  },
  {
    what: "a client rule kind",
    folder: "src/clients/rules",
    registry: "src/clients/rules/registry.ts",
    table: "RULE_KINDS",
    shared: [
      "src/clients/rules/kind.ts",
      "src/clients/rules/schema_facts.ts",
      "src/clients/rules/draft07.ts",
    ],
    // Its module declares the probes that decide it (`RuleKind.probes`): the lab serves them.
    ids: RULE_KIND_IDS,
    goal: 3,
  },
  {
    what: "a config file shape with a new top-level key",
    folder: "src/config/formats",
    registry: "src/config/formats/registry.ts",
    table: "FORMAT_MODULES",
    shared: ["src/config/formats/format.ts"],
    // Each module declares the key that holds its servers; the fleet report takes any key.
    ids: [...new Set(FORMAT_MODULES.map((module) => module.format))],
    goal: 3,
  },
  {
    what: "a protocol revision with the same wire rules",
    registry: "src/protocol/versions.ts",
    table: "REVISIONS",
    shared: [],
    ids: PROTOCOL_VERSIONS,
    goal: 1,
  },
];

/** Where files that would change with a new member are looked for (docs are not code). */
const SCANNED = ["src", "tests", "scripts", "fixtures", "main.ts", "mod.ts"];

/** The checks themselves, which spell the members out to show what they see. */
const CHECKS = ["tests/seams_test.ts", "tests/_seams.ts"];

/** What `deno task schema` writes. */
const isGenerated = (path: string) => /^src\/report\/[^/]+\.schema\.json$/.test(path);

/** The project's files: its code, and its docs (README.md and docs/). */
interface Tree {
  /** Every file's text, by path. */
  readonly texts: ReadonlyMap<string, string>;
  /** Every project module reachable from main.ts and mod.ts, with the modules that import it. */
  readonly importers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The test files' code imports (their helpers and the project's modules). */
  readonly tests: ReadonlyMap<string, ReadonlySet<string>>;
}

const TREE: Tree = await readTree();

async function readTree(): Promise<Tree> {
  const texts = new Map<string, string>();
  for (const root of [...SCANNED, "docs", "README.md"]) {
    const info = await Deno.stat(`${ROOT}/${root}`);
    for (const path of info.isDirectory ? await walk(root) : [root]) {
      if (/\.(ts|json|md)$/.test(path)) texts.set(path, await Deno.readTextFile(`${ROOT}/${path}`));
    }
  }
  const importers = new Map<string, Set<string>>();
  for (const entry of ["main.ts", "mod.ts"]) {
    for (const [from, targets] of await graph(entry)) {
      for (const to of targets) importers.set(to, (importers.get(to) ?? new Set()).add(from));
    }
  }
  const tests = await graphOf(testFiles(texts), { codeOnly: true });
  return { texts, importers, tests };
}

/** The test files, in order. */
function testFiles(texts: ReadonlyMap<string, string>): string[] {
  return [...texts.keys()].filter((path) => /^tests\/[^/]+_test\.ts$/.test(path)).sort();
}

/** Whether `path` is the registry's or one of its folder's. */
const inSeam = (seam: Seam, path: string) =>
  path === seam.registry || (seam.folder !== undefined && dirname(path) === seam.folder);

/** The registered modules of a seam: the folder's modules, apart from the registry and shared. */
function modulesOf({ folder, registry, shared }: Seam, tree: Tree): string[] {
  return [...tree.importers.keys()].filter((path) =>
    folder !== undefined && dirname(path) === folder && path !== registry &&
    !shared.includes(path)
  );
}

/** Importers of a registered module from outside its registry, its folder and `mod.ts`. */
function importedOutside(seam: Seam, tree: Tree): string[] {
  const outside: string[] = [];
  for (const module of modulesOf(seam, tree)) {
    for (const from of tree.importers.get(module) ?? []) {
      if (from === seam.registry || dirname(from) === seam.folder || from === "mod.ts") continue;
      outside.push(`${module} <- ${from}`);
    }
  }
  return outside;
}

/** The code files outside the seam that spell out its members, or branch on one (src only). */
function spelledOutside(seam: Seam, tree: Tree): string[] {
  const found: string[] = [];
  for (const [path, text] of tree.texts) {
    if (!path.endsWith(".ts") || inSeam(seam, path) || seam.declared?.includes(path)) continue;
    if (CHECKS.includes(path)) continue;
    const code = withoutComments(text);
    const branches = path.startsWith("src/") ? branchesOn(code, seam.ids) : [];
    if (listsIds(code, seam.ids) || branches.length > 0) found.push(path);
  }
  return found;
}

/** The registry's code without its table: what names the members a second time there. */
function secondLists(seam: Seam, tree: Tree): string[] {
  return [...tree.texts].filter(([path]) => path.endsWith(".ts") && inSeam(seam, path))
    .filter(([path, text]) => {
      const code = withoutComments(text);
      return listsIds(path === seam.registry ? withoutTable(code, seam.table) : code, seam.ids);
    })
    .map(([path]) => path);
}

/** `code` with the value of `const NAME = ...` blanked (its brackets matched, strings kept apart). */
function withoutTable(code: string, name: string): string {
  const start = new RegExp(`\\bconst ${name}\\b[^=]*=\\s*`).exec(code);
  assert.ok(start, `the table ${name} is declared`);
  let at = start.index + start[0].length;
  let depth = 0;
  let quote: string | undefined;
  const from = at;
  for (; at < code.length; at++) {
    const char = code[at];
    if (quote) {
      if (char === "\\") at++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === "`") quote = char;
    else if (char === "{" || char === "[" || char === "(") depth++;
    else if ((char === "}" || char === "]" || char === ")") && --depth === 0) break;
  }
  return code.slice(0, from) + code.slice(from, at + 1).replaceAll(/[^\n]/g, " ") +
    code.slice(at + 1);
}

/** The docs with a table of the seam's members, each with the tests that check it. */
function docsOf(seam: Seam, tree: Tree): { doc: string; checkedBy: string[] }[] {
  return (seam.docs ?? [{ ids: seam.ids, registry: seam.registry }]).flatMap(({ ids, registry }) =>
    docsListing(ids, registry, tree)
  );
}

/** The docs with a table of `ids`, each with the tests that read it and `registry`. */
function docsListing(
  ids: readonly string[],
  registry: string,
  tree: Tree,
): { doc: string; checkedBy: string[] }[] {
  const tests = new Map(testFiles(tree.texts).map((path) => [path, tree.texts.get(path)!]));
  const readers = new Set(readersOf(tests, tree.tests, { modules: [registry] }));
  return [...tree.texts].filter(([path, text]) => path.endsWith(".md") && docListsIds(text, ids))
    .map(([doc]) => ({
      doc,
      checkedBy: [...readers].filter((test) =>
        [...reached(tree.tests, test)].some((module) =>
          module.startsWith("tests/") &&
          readsDoc(withoutComments(tree.texts.get(module) ?? ""), doc, false)
        )
      ),
    }));
}

/** The generated files that name every member. */
function generatedOf(seam: Seam, tree: Tree): string[] {
  return [...tree.texts].filter(([path, text]) =>
    isGenerated(path) && named(text, seam.ids).length === seam.ids.length
  ).map(([path]) => path);
}

/** The files a new member touches: code, docs and generated apart. */
function costOf(seam: Seam, tree: Tree = TREE) {
  const wrongPlace = importedOutside(seam, tree).map((edge) => edge.split(" <- ")[1]);
  const code = [
    ...(seam.folder ? [`${seam.folder}/NEW.ts`] : []),
    `${seam.registry} (a row)`,
    ...(seam.folder ? ["tests/... (a test of it)"] : []),
    ...seam.declared ?? [],
    ...new Set([...spelledOutside(seam, tree), ...wrongPlace]),
  ];
  return {
    code,
    docs: docsOf(seam, tree).map(({ doc }) => doc),
    generated: generatedOf(seam, tree),
  };
}

/** The tree with `path`'s text edited (a throwaway change, in memory). */
function edited(path: string, edit: (text: string) => string, tree: Tree = TREE): Tree {
  const texts = new Map(tree.texts);
  const before = texts.get(path);
  assert.ok(before !== undefined, `${path} is read`);
  texts.set(path, edit(before));
  return { ...tree, texts };
}

/** The tree with a new file (in memory). */
function withFile(path: string, text: string, tree: Tree = TREE): Tree {
  return { ...tree, texts: new Map([...tree.texts, [path, text]]) };
}

const seamOf = (what: string) => SEAMS.find((seam) => seam.what.startsWith(what))!;

for (const seam of SEAMS.filter((seam) => seam.folder !== undefined)) {
  Deno.test(`${seam.what}: each module is imported by its registry only (${seam.registry})`, () => {
    const modules = modulesOf(seam, TREE);
    assert.ok(modules.length >= 3, `${seam.folder}: its modules were found`);
    const unregistered = modules.filter((module) =>
      !TREE.importers.get(module)?.has(seam.registry)
    );
    assert.deepEqual(unregistered, [], "every module of the folder is a row of the registry");
    assert.deepEqual(importedOutside(seam, TREE), []);
  });
}

for (const seam of SEAMS) {
  Deno.test(`${seam.what}: its registry names each member once, in ${seam.table}`, () => {
    assert.deepEqual(secondLists(seam, TREE), []);
  });

  Deno.test(`${seam.what}: a new one touches at most ${seam.goal} code files, nothing generated`, () => {
    const { code, generated } = costOf(seam);
    assert.ok(code.length <= seam.goal, `${code.length} files: ${code.join(", ")}`);
    assert.deepEqual(generated, []);
  });

  Deno.test(`${seam.what}: every docs table of its members is checked against the registry`, () => {
    for (const { doc, checkedBy } of docsOf(seam, TREE)) {
      assert.ok(checkedBy.length > 0, `${doc} lists the members and no test checks it`);
    }
  });
}

Deno.test("the change costs, measured (code files; docs and generated apart)", () => {
  const costs: Record<string, string> = {};
  for (const seam of SEAMS) {
    const { code, docs, generated } = costOf(seam);
    costs[seam.what] = `${code.length} + ${docs.length} docs + ${generated.length} generated`;
  }
  // What issue 38 asks; a change here is a change of design.
  assert.deepEqual(costs, {
    // A format's row in docs/performance.md's merge memory table: a measurement, run by the bench.
    "an output format": "3 + 2 docs + 0 generated",
    "an output format with an option of its own": "4 + 3 docs + 0 generated",
    "a client rule kind": "3 + 1 docs + 0 generated",
    "a config file shape with a new top-level key": "3 + 1 docs + 0 generated",
    "a protocol revision with the same wire rules": "1 + 1 docs + 0 generated",
  });
});

// Each break of issue 38 is seen: a throwaway edit (in memory) shows the check that finds it.

Deno.test("seen: a list of the members written one id per line, as deno fmt writes it", () => {
  const seam = seamOf("an output format");
  const list = `for (const format of [\n${
    seam.ids.map((id) => `  "${id}",\n`).join("")
  }]) console.log(format);\n`;
  const tree = edited("tests/output_test.ts", (text) => text + list);
  assert.ok(costOf(seam, tree).code.includes("tests/output_test.ts"));
  assert.ok(!costOf(seam).code.includes("tests/output_test.ts"));
});

Deno.test("seen: a format branch outside the format module (src/cli/output.ts)", () => {
  const seam = seamOf("an output format");
  const tree = edited(
    "src/cli/output.ts",
    (text) =>
      text +
      `\nexport const many = (format: string) => format === "junit" || format === "sarif";\n`,
  );
  assert.ok(costOf(seam, tree).code.includes("src/cli/output.ts"));
});

Deno.test("seen: a hand-written union of the members beside their table (RuleKindId)", () => {
  const seam = seamOf("a client rule kind");
  const union = `\nexport type Hand =\n${seam.ids.map((id) => `  | "${id}"\n`).join("")};\n`;
  const tree = edited(seam.registry, (text) => text + union);
  assert.deepEqual(secondLists(seam, tree), [seam.registry]);
});

Deno.test("seen: a hand-written message that lists the members (EXPECTED_TABLES)", () => {
  const seam = seamOf("a config file shape");
  const message =
    `\nexport const EXPECTED = "mcpServers, servers (VS Code), mcp_servers (Codex TOML), context_servers (Zed), mcp (opencode), a YAML mcpServers list (Continue) or extensions (Goose YAML)";\n`;
  const tree = edited(seam.registry, (text) => text + message);
  assert.deepEqual(secondLists(seam, tree), [seam.registry]);
});

Deno.test("seen: a docs table of the members that no test checks", () => {
  const seam = seamOf("a client rule kind");
  const table = `| rule | what |\n| --- | --- |\n${
    seam.ids.map((id) => `| \`${id}\` | x |\n`).join("")
  }`;
  const tree = withFile("docs/unchecked.md", table);
  const docs = docsOf(seam, tree);
  assert.deepEqual(docs.find(({ doc }) => doc === "docs/unchecked.md")?.checkedBy, []);
});

Deno.test("seen: a closed list of the members in a generated schema", () => {
  const seam = seamOf("a client rule kind");
  const tree = edited(
    "src/report/guidance-report.schema.json",
    (text) => text.replace("{", `{"x-rules": ${JSON.stringify(seam.ids)},`),
  );
  assert.deepEqual(costOf(seam, tree).generated, ["src/report/guidance-report.schema.json"]);
});

Deno.test("seen: a registered module imported from outside its registry", () => {
  const seam = seamOf("a client rule kind");
  const [module] = modulesOf(seam, TREE);
  const importers = new Map(TREE.importers);
  importers.set(module, new Set([...importers.get(module)!, "src/report/build.ts"]));
  assert.deepEqual(importedOutside(seam, { ...TREE, importers }), [
    `${module} <- src/report/build.ts`,
  ]);
});

Deno.test("the tests that read a registry or a doc are found: a revision's include observed_test", () => {
  const tests = new Map(testFiles(TREE.texts).map((path) => [path, TREE.texts.get(path)!]));
  const revision = readersOf(tests, TREE.tests, { modules: ["src/protocol/versions.ts"] });
  assert.ok(revision.includes("tests/observed_test.ts"), "observed_test reads the revisions");
  const docs = readersOf(tests, TREE.tests, { docs: ["docs/client-presets.md"] });
  assert.ok(docs.includes("tests/observed_test.ts"), "observed_test reads client-presets.md");
});

Deno.test("a protocol revision with the same wire rules is one row of src/protocol/versions.ts", () => {
  // Callers ask the row: no other source file names a revision's date.
  const named: string[] = [];
  for (const [path, text] of TREE.texts) {
    if (!path.startsWith("src/") || path === "src/protocol/versions.ts" || !path.endsWith(".ts")) {
      continue;
    }
    if (/"20\d\d-\d\d-\d\d"/.test(withoutComments(text))) named.push(path);
  }
  assert.deepEqual(named, []);
});

Deno.test("a new protocol revision changes no report schema: they take any revision's date", () => {
  for (const schema of ["guidance-report", "guidance-fleet"]) {
    const text = TREE.texts.get(`src/report/${schema}.schema.json`)!;
    // Only the default's date, in a hint that names the default.
    const dates = new Set(text.match(/20\d\d-\d\d-\d\d/g));
    assert.deepEqual([...dates], [PROTOCOL_VERSION], schema);
  }
});

async function walk(folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}/${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) found.push(...await walk(path));
    else found.push(path);
  }
  return found;
}
