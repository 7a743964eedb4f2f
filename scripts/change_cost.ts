/**
 * The change costs, measured for real: for each kind of extension, a throwaway copy of the tree
 * gets a fictional new member, written as a contributor would (its module, its registry row, its
 * test, and the docs rows its registry's tables need), `deno task schema` regenerates the
 * schemas, and `deno check` and every test that reads what changed must pass: every test that
 * reaches a changed module by its imports (the module graph, `deno info --json`) or reads a
 * changed doc (`tests/_seams.ts`), found, not listed. It prints every file that changed under
 * `src/`, `tests/` and `docs/`: code, docs and generated files apart. Too slow for the suite:
 * tests/seams_test.ts derives the same counts from the tree. A rule kind's presets
 * (src/clients/clients.json, with evidence) are not written here: a kind no preset has is valid,
 * and applies nowhere.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env --allow-net=127.0.0.1 scripts/change_cost.ts [--only WHAT] [--keep]
 *
 * `--only WHAT` makes only the changes whose description holds WHAT; `--keep` leaves each copy
 * (its path printed) to look into.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { graphOf } from "../tests/_graph.ts";
import { readersOf } from "../tests/_seams.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
/** What the copy holds: the code, its data and what the tests read. */
const COPIED = [
  ".ci",
  "src",
  "tests",
  "fixtures",
  "scripts",
  "docs",
  "deno.json",
  "deno.lock",
  "main.ts",
  "mod.ts",
  "README.md",
  "action.yml",
  "LICENSE",
];
/** Where a change's files are counted. */
const COUNTED = ["src", "tests", "docs"];
const TEST_FLAGS = [
  "--allow-run",
  "--allow-read",
  "--allow-env",
  "--allow-net=127.0.0.1",
  "--allow-write",
];

/** One kind of extension: what adding a member writes. */
interface Change {
  readonly what: string;
  readonly apply: (edit: Editor) => Promise<void>;
}

/** Edits in the copy: a new file, or a text replaced at an anchor that must be there. */
interface Editor {
  write(path: string, text: string): Promise<void>;
  replace(path: string, anchor: string, text: string): Promise<void>;
  /** `path`'s text, rewritten. */
  rewrite(path: string, rewrite: (text: string) => string): Promise<void>;
}

/**
 * A fictional format's module: the text report, never in colour (a real format keeps every
 * format's contract: each test that runs every format runs it too); `option`: with a width of
 * its own.
 */
function monoModule(option: boolean): string {
  return [
    `/** A fictional format: the text report, never in colour. @module */`,
    `import type { RenderSource } from "../run.ts";`,
    `import type { RenderOptions } from "./mod.ts";`,
    ...(option ? [`import { MONO_WIDTH, valueOf } from "./options.ts";`] : []),
    `import { render as text } from "./text.ts";`,
    ``,
    `/** The text report without colour. */`,
    `export function render(source: RenderSource, options: RenderOptions): Iterable<string> {`,
    option
      ? `  const width = valueOf(options.values, MONO_WIDTH) ?? options.width;\n` +
        `  return text(source, { color: false, ...(width === undefined ? {} : { width }) });`
      : `  return text(source, { ...options, color: false });`,
    `}`,
    ``,
  ].join("\n");
}

/** The fictional format's test, through its registry. */
const MONO_TEST = `import assert from "node:assert/strict";
import { loadFormats } from "../src/report/formats/mod.ts";

Deno.test("mono: the text report without colour", async () => {
  const formats = await loadFormats(["mono", "text"]);
  const source = {
    kind: "fleet",
    fleet: { servers: [], config_format: "mcpServers", complete: true, passed: true },
  } as never;
  const joined = (rendered: string | Iterable<string>) =>
    typeof rendered === "string" ? rendered : [...rendered].join("");
  assert.equal(
    joined(formats.get("mono")!.render(source, { color: true })),
    joined(formats.get("text")!.render(source, { color: false })),
  );
});
`;

/** A fictional format (its module, its row, its test, its docs row after the last one). */
async function addFormat(edit: Editor, option: boolean): Promise<void> {
  await edit.write("src/report/formats/mono.ts", monoModule(option));
  await edit.replace(
    "src/report/formats/mod.ts",
    "  /** The GitHub step summary",
    `  mono: {\n    selectable: true,\n${option ? "    options: [MONO_WIDTH],\n" : ""}` +
      `    load: (): Promise<FormatModule> => import("./mono.ts"),\n  },\n` +
      "  /** The GitHub step summary",
  );
  await edit.write("tests/mono_format_test.ts", MONO_TEST);
  await edit.replace(
    "docs/ci.md",
    "\n\nWith `--baseline` each format",
    "\n| `mono` | the text report, never in colour |\n\nWith `--baseline` each format",
  );
  // Its row in the merge-memory table, which the bench measures for every format.
  await edit.replace(
    "docs/performance.md",
    "| 9. `merge` of 8 shard reports of 55 MiB each, as sarif ",
    "| 9. `merge` of 8 shard reports of 55 MiB each, as mono | not measured | | | < 600 MiB |\n" +
      "| 9. `merge` of 8 shard reports of 55 MiB each, as sarif ",
  );
}

const CHANGES: readonly Change[] = [
  { what: "an output format", apply: (edit) => addFormat(edit, false) },
  {
    what: "an output format with an option of its own",
    apply: async (edit) => {
      await addFormat(edit, true);
      await edit.replace(
        "src/report/formats/mod.ts",
        "  SARIF_LOCATION,\n",
        "  MONO_WIDTH,\n  SARIF_LOCATION,\n",
      );
      await edit.replace(
        "src/report/formats/options.ts",
        "/** Where every result of a SARIF log points",
        `/** \`--mono-width N\`: the mono report's width, 40 to 400 columns. */\n` +
          `export const MONO_WIDTH: FormatOption<number> = {\n  name: "mono-width",\n  value: "N",\n` +
          `  help: ["mono: the width of its lines, in columns"],\n  report: "a mono report",\n` +
          `  parse: (text) => /^[0-9]{2,3}$/.test(text) && Number(text) >= 40 && Number(text) <= 400\n` +
          `    ? { value: Number(text) }\n    : { problem: "must be a width from 40 to 400" },\n};\n\n` +
          "/** Where every result of a SARIF log points",
      );
      await edit.replace(
        "docs/reference.md",
        "| `--sarif-location PATH[:LINE]`",
        "| `--mono-width N` | | mono: the width of its lines, in columns |\n| `--sarif-location PATH[:LINE]`",
      );
    },
  },
  {
    what: "a client rule kind",
    apply: async ({ write, replace }) => {
      // A kind of one yes-or-no fact, with the probe that decides it (served by the lab; the
      // committed observations, made before it, are read without it).
      await write(
        "src/clients/rules/schema_no_properties.ts",
        `/** A fictional kind. @module */\nimport { type RuleKind, TOOL_EFFECTS, toolsWithFact } from "./kind.ts";\n\n` +
          `/** Input schemas without properties. */\nexport const schemaNoProperties: RuleKind = {\n` +
          `  id: "schema-no-properties",\n  check: "its inputSchema has no properties",\n  effects: TOOL_EFFECTS,\n` +
          `  validValue: (value) => value === true,\n` +
          `  fact: {\n    id: "schema-no-properties",\n    extract: (tool) => (tool.inputSchema as { properties?: unknown }).properties === undefined,\n  },\n` +
          `  judge: toolsWithFact("schema-no-properties"),\n` +
          `  probes: [{ label: "in-no-props", inputSchema: { type: "object" }, value: true }],\n};\n`,
      );
      const registry = "src/clients/rules/registry.ts";
      await replace(
        registry,
        `import type {`,
        `import { schemaNoProperties } from "./schema_no_properties.ts";\nimport type {`,
      );
      await replace(
        registry,
        `  "name-collision": nameCollision,\n`,
        `  "schema-no-properties": schemaNoProperties,\n  "name-collision": nameCollision,\n`,
      );
      await write(
        "tests/schema_no_properties_test.ts",
        `import assert from "node:assert/strict";\nimport { RULE_KINDS } from "../src/clients/rules/registry.ts";\n\n` +
          `Deno.test("schema-no-properties: the schemas without properties", () => {\n` +
          `  const fact = RULE_KINDS["schema-no-properties"].fact!;\n` +
          `  assert.equal(fact.extract({ inputSchema: { type: "object" } }), true);\n` +
          `  assert.equal(fact.extract({ inputSchema: { type: "object", properties: {} } }), false);\n});\n`,
      );
      await replace(
        "docs/client-presets.md",
        "| `name-collision`                |",
        "| `schema-no-properties` | `true` | tools whose `inputSchema` has no properties | `drop-tool` |\n| `name-collision`                |",
      );
    },
  },
  {
    what: "a config file shape with a new top-level key",
    apply: async ({ write, replace }) => {
      await write(
        "src/config/formats/agents.ts",
        `/** A fictional shape. @module */\nimport { checkEntry } from "../spec.ts";\n` +
          `import { type FormatModule, tableEntries } from "./format.ts";\n` +
          `import { mcpServersEntry } from "./mcp_servers.ts";\n\n/** The fictional shape. */\n` +
          `export const agents: FormatModule = {\n  clients: "Agents",\n  format: "agentServers",\n  expected: "agentServers (Agents)",\n` +
          `  syntax: ["json"],\n  table: (document) =>\n    document.value(["agentServers"]) === undefined ? undefined : "agentServers",\n` +
          `  entries: (document) => tableEntries(document, ["agentServers"], "agentServers"),\n` +
          `  entry: (value) => checkEntry(mcpServersEntry(value)),\n};\n`,
      );
      const registry = "src/config/formats/registry.ts";
      await replace(
        registry,
        `import type {`,
        `import { agents } from "./agents.ts";\nimport type {`,
      );
      await replace(registry, `  goose,\n];`, `  goose,\n  agents,\n];`);
      await write(
        "tests/agents_config_test.ts",
        `import assert from "node:assert/strict";\nimport { readConfig } from "../src/config/parse.ts";\n\n` +
          `Deno.test("agents: its table of servers", async () => {\n` +
          `  const parsed = await readConfig('{"agentServers": {"a": {"command": "x"}}}', { path: "a.json" });\n` +
          `  assert.equal(parsed.format, "agentServers");\n});\n`,
      );
      await replace(
        "docs/config.md",
        "| Kiro, Roo Code (`mcpServers`)",
        "| Agents (`agentServers`) | `agents.json` | as `mcpServers` | fictional |\n| Kiro, Roo Code (`mcpServers`)",
      );
    },
  },
  {
    what: "a protocol revision with the same wire rules",
    apply: async ({ replace, rewrite }) => {
      // A newer row with the newest one's rules.
      const { PROTOCOL_VERSIONS, REVISIONS } = await import("../src/protocol/versions.ts");
      const newest = PROTOCOL_VERSIONS.at(-1)!;
      const row = JSON.stringify(REVISIONS[newest]);
      const end = `} as const satisfies Record<string, Revision>;`;
      await replace("src/protocol/versions.ts", end, `  "2098-05-05": ${row},\n${end}`);
      // Its column of the overview: the same as the newest's.
      await rewrite("docs/protocol-revisions.md", (text) => {
        const lines = text.split("\n");
        const header = lines.findIndex((line) => line.startsWith("|") && line.includes(newest));
        for (let at = header; lines[at]?.startsWith("|"); at++) {
          lines[at] += at === header ? " 2098-05-05 |" : at === header + 1 ? " --- |" : " same |";
        }
        return lines.join("\n");
      });
    },
  },
];

/** Every file under `folder` (relative to it), recursively. */
async function filesOf(folder: string, under = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(folder, under))) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory) found.push(...await filesOf(folder, path));
    else if (entry.isFile) found.push(path);
  }
  return found;
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

async function run(cwd: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  const result = await new Deno.Command(DENO, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return {
    ok: result.success,
    output: decoder.decode(result.stdout) + decoder.decode(result.stderr),
  };
}

/** What `deno task schema` writes. */
const isGenerated = (path: string) => /^src\/report\/[^/]+\.schema\.json$/.test(path);

async function copyTree(copy: string): Promise<void> {
  for (const entry of COPIED) {
    const from = join(ROOT, entry);
    const to = join(copy, entry);
    if ((await Deno.stat(from)).isDirectory) {
      for (const path of await filesOf(from)) {
        if (path.startsWith(".cache/")) continue;
        await Deno.mkdir(join(to, path, ".."), { recursive: true });
        await Deno.copyFile(join(from, path), join(to, path));
      }
    } else await Deno.copyFile(from, to);
  }
}

/** The tests of the copy that read a changed module or a changed doc, and the new tests. */
async function testsOf(copy: string, changed: readonly string[]): Promise<string[]> {
  const tests = (await filesOf(join(copy, "tests"))).filter((path) => /^[^/]+_test\.ts$/.test(path))
    .map((path) => `tests/${path}`).sort();
  const texts = new Map<string, string>();
  for (const path of tests) texts.set(path, await Deno.readTextFile(join(copy, path)));
  const edges = await graphOf(tests, { codeOnly: true, root: copy });
  const readers = readersOf(texts, edges, {
    modules: changed.filter((path) => path.startsWith("src/")),
    docs: changed.filter((path) => path.startsWith("docs/")),
  });
  return [...new Set([...readers, ...changed.filter((path) => tests.includes(path))])].sort();
}

async function measure(change: Change, keep: boolean): Promise<void> {
  const copy = await Deno.makeTempDir({ prefix: "mcpeval-change-cost-" });
  try {
    await copyTree(copy);
    const replace = async (path: string, anchor: string, text: string) => {
      const before = await Deno.readTextFile(join(copy, path));
      if (!before.includes(anchor)) throw new Error(`${path}: "${anchor.trim()}" not found`);
      await Deno.writeTextFile(join(copy, path), before.replace(anchor, text));
    };
    await change.apply({
      write: (path, text) => Deno.writeTextFile(join(copy, path), text),
      replace,
      rewrite: async (path, rewrite) => {
        await Deno.writeTextFile(
          join(copy, path),
          rewrite(await Deno.readTextFile(join(copy, path))),
        );
      },
    });
    await run(copy, ["fmt", ...COUNTED]);
    await run(copy, ["task", "schema"]);
    const changed: string[] = [];
    for (const folder of COUNTED) {
      for (const path of await filesOf(join(copy, folder))) {
        const original = await readOrUndefined(join(ROOT, folder, path));
        if (original !== await Deno.readTextFile(join(copy, folder, path))) {
          changed.push(`${folder}/${path}`);
        }
      }
    }
    const tests = await testsOf(copy, changed);
    const checked = await run(copy, ["check", "main.ts", "mod.ts", ...tests]);
    const tested = await run(copy, ["test", "--parallel", ...TEST_FLAGS, ...tests]);
    const generated = changed.filter(isGenerated);
    const docs = changed.filter((path) => path.startsWith("docs/"));
    const code = changed.filter((path) => !generated.includes(path) && !docs.includes(path));
    // deno test's failures, each `NAME => ./tests/FILE:LINE:COLUMN` (colours taken out).
    // deno-lint-ignore no-control-regex -- the terminal's colour codes are what is removed
    const plain = tested.output.replaceAll(/\x1b\[[0-9;]*m/g, "");
    const failed = [...plain.matchAll(/^(\S.*) => \.\/(tests\/\S+?):\d+/gm)]
      .map((match) => `  FAILED ${match[2]}: ${match[1]}`);
    const lines = [
      `${change.what}: ${code.length} code + ${docs.length} docs + ${generated.length} generated` +
      ` (check ${checked.ok ? "ok" : "FAILED"}, ${tests.length} tests ${
        tested.ok ? "ok" : "FAILED"
      })`,
      ...code.map((path) => `  ${path}`),
      ...docs.map((path) => `  ${path} (docs)`),
      ...generated.map((path) => `  ${path} (generated)`),
      `  tests: ${tests.map((path) => path.slice(6, -8)).join(" ")}`,
      ...[...new Set(failed)],
      // deno check's own lines ("Check FILE") say nothing: the errors, at most 20 lines of them.
      ...(checked.ok ? [] : [
        // deno-lint-ignore no-control-regex -- the terminal's colour codes are what is removed
        checked.output.replaceAll(/\x1b\[[0-9;]*m/g, "").split("\n")
          .filter((line) => !/^Check /.test(line)).slice(0, 20).join("\n"),
      ]),
    ];
    await Deno.stdout.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  } finally {
    if (keep) await Deno.stdout.write(new TextEncoder().encode(`  kept: ${copy}\n`));
    else await Deno.remove(copy, { recursive: true });
  }
}

const { values } = parseArgs({
  args: Deno.args,
  options: { only: { type: "string" }, keep: { type: "boolean" } },
});
for (const change of CHANGES) {
  if (values.only === undefined || change.what.includes(values.only)) {
    await measure(change, values.keep === true);
  }
}
