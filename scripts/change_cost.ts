/**
 * The change costs, measured for real: for each kind of extension, a throwaway copy of the
 * tree gets a fictional new member (its module and its registry row, and what else the kind
 * needs), `deno task schema` regenerates the schemas, and `deno check` and the tests that read
 * that registry must pass. It prints the files that changed under `src/` and `docs/`, generated
 * ones apart (a new member's own test comes on top). Too slow for the suite: tests/seams_test.ts derives the
 * same counts from the tree. A rule kind's presets (src/clients/clients.json, with evidence)
 * are not written here: a kind no preset has is valid, and applies nowhere.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env --allow-net=127.0.0.1 scripts/change_cost.ts
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
/** What the copy holds: the code, its data and what the tests read. */
const COPIED = [
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
];
const TEST_FLAGS = [
  "--allow-run",
  "--allow-read",
  "--allow-env",
  "--allow-net=127.0.0.1",
  "--allow-write",
];

/** One kind of extension: what adding a member writes, and the tests that must pass. */
interface Change {
  readonly what: string;
  readonly apply: (edit: Editor) => Promise<void>;
  readonly tests: readonly string[];
}

/** Edits in the copy: a new file, or a text replaced at an anchor that must be there. */
interface Editor {
  write(path: string, text: string): Promise<void>;
  replace(path: string, anchor: string, text: string): Promise<void>;
}

const CHANGES: readonly Change[] = [
  {
    what: "an output format",
    apply: async ({ write, replace }) => {
      await write(
        "src/report/formats/tsv.ts",
        `/** A fictional format. @module */\nimport type { RenderSource } from "../run.ts";\n\n` +
          `/** One line. */\nexport function render(source: RenderSource): string {\n  return \`\${source.kind}\\n\`;\n}\n`,
      );
      await replace(
        "src/report/formats/mod.ts",
        "  /** The GitHub step summary",
        `  tsv: { selectable: true, load: (): Promise<FormatModule> => import("./tsv.ts") },\n` +
          "  /** The GitHub step summary",
      );
    },
    tests: [
      "cli_test",
      "mistakes_test",
      "formats_test",
      "options_test",
      "public_api_test",
      "seams_test",
    ],
  },
  {
    what: "an output format with an option of its own",
    apply: async ({ write, replace }) => {
      await write(
        "src/report/formats/tsv.ts",
        `/** A fictional format. @module */\nimport type { RenderSource } from "../run.ts";\n` +
          `import type { RenderOptions } from "./mod.ts";\nimport { TSV_SEPARATOR, valueOf } from "./options.ts";\n\n` +
          `/** One line. */\nexport function render(source: RenderSource, options: RenderOptions): string {\n` +
          `  return \`\${source.kind}\${valueOf(options.values, TSV_SEPARATOR) ?? "\\t"}\\n\`;\n}\n`,
      );
      await replace(
        "src/report/formats/mod.ts",
        "  /** The GitHub step summary",
        `  tsv: {\n    selectable: true,\n    options: [TSV_SEPARATOR],\n` +
          `    load: (): Promise<FormatModule> => import("./tsv.ts"),\n  },\n` +
          "  /** The GitHub step summary",
      );
      await replace(
        "src/report/formats/mod.ts",
        "  SARIF_LOCATION,\n",
        "  SARIF_LOCATION,\n  TSV_SEPARATOR,\n",
      );
      await replace(
        "src/report/formats/options.ts",
        "/** Where every result of a SARIF log points",
        `/** \`--tsv-separator C\`: one character between columns. */\n` +
          `export const TSV_SEPARATOR: FormatOption<string> = {\n  name: "tsv-separator",\n  value: "C",\n` +
          `  help: ["TSV: the character between columns"],\n  report: "a TSV report",\n` +
          `  parse: (text) => text.length === 1 ? { value: text } : { problem: "must be one character" },\n};\n\n` +
          "/** Where every result of a SARIF log points",
      );
      await replace(
        "docs/reference.md",
        "| `--sarif-location PATH[:LINE]`",
        "| `--tsv-separator C` | | TSV: the character between columns |\n| `--sarif-location PATH[:LINE]`",
      );
    },
    tests: [
      "cli_test",
      "mistakes_test",
      "formats_test",
      "options_test",
      "public_api_test",
      "seams_test",
    ],
  },
  {
    what: "a client rule kind",
    apply: async ({ write, replace }) => {
      await write(
        "src/clients/rules/min_name_length.ts",
        `/** A fictional kind. @module */\nimport { isCount, type RuleKind, TOOL_EFFECTS } from "./kind.ts";\n\n` +
          `/** Tool names shorter than the value. */\nexport const minNameLength: RuleKind = {\n` +
          `  id: "min-name-length",\n  check: "its name is shorter than the client accepts",\n  effects: TOOL_EFFECTS,\n  validValue: isCount,\n` +
          `  judge: (rule, tools) =>\n    tools.filter((tool) => tool.name.length < (rule.value as number)).map((tool) => tool.name),\n};\n`,
      );
      const registry = "src/clients/rules/registry.ts";
      await replace(
        registry,
        `import type {`,
        `import { minNameLength } from "./min_name_length.ts";\nimport type {`,
      );
      await replace(
        registry,
        `export const RULE_KINDS = {\n`,
        `export const RULE_KINDS = {\n  "min-name-length": minNameLength,\n`,
      );
    },
    tests: ["client_rules_test", "clients_test", "schema_test", "seams_test", "options_test"],
  },
  {
    what: "a config file shape with a new top-level key",
    apply: async ({ write, replace }) => {
      await write(
        "src/config/formats/agents.ts",
        `/** A fictional shape. @module */\nimport { checkEntry } from "../spec.ts";\n` +
          `import { type FormatModule, tableEntries } from "./format.ts";\n` +
          `import { mcpServersEntry } from "./mcp_servers.ts";\n\n/** The fictional shape. */\n` +
          `export const agents: FormatModule = {\n  clients: "Agents",\n  format: "agentServers",\n` +
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
      await replace(
        registry,
        `FORMAT_MODULES: readonly FormatModule[] = [\n`,
        `FORMAT_MODULES: readonly FormatModule[] = [\n  agents,\n`,
      );
    },
    tests: [
      "config_formats_test",
      "config_registry_test",
      "config_test",
      "schema_test",
      "seams_test",
      "options_test",
    ],
  },
  {
    what: "a protocol revision with the same wire rules",
    apply: async ({ replace }) => {
      // A newer row with the newest one's rules.
      const { PROTOCOL_VERSIONS, REVISIONS } = await import("../src/protocol/versions.ts");
      const row = JSON.stringify(REVISIONS[PROTOCOL_VERSIONS.at(-1)!]);
      const end = `} as const satisfies Record<string, Revision>;`;
      await replace("src/protocol/versions.ts", end, `  "2098-05-05": ${row},\n${end}`);
    },
    tests: [
      "cli_test",
      "opening_test",
      "protocol_negotiation_test",
      "protocol_versions_test",
      "seams_test",
      "options_test",
    ],
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

async function run(cwd: string, args: string[]): Promise<boolean> {
  const { success } = await new Deno.Command(DENO, { args, cwd, stdout: "null", stderr: "null" })
    .output();
  return success;
}

/** What `deno task schema` writes. */
const isGenerated = (path: string) => /^src\/report\/[^/]+\.schema\.json$/.test(path);

async function measure(change: Change): Promise<void> {
  const copy = await Deno.makeTempDir({ prefix: "mcpeval-change-cost-" });
  try {
    for (const entry of COPIED) {
      const from = join(ROOT, entry);
      const to = join(copy, entry);
      if ((await Deno.stat(from)).isDirectory) {
        for (const path of await filesOf(from)) {
          await Deno.mkdir(join(to, path, ".."), { recursive: true });
          await Deno.copyFile(join(from, path), join(to, path));
        }
      } else await Deno.copyFile(from, to);
    }
    await change.apply({
      write: (path, text) => Deno.writeTextFile(join(copy, path), text),
      replace: async (path, anchor, text) => {
        const before = await Deno.readTextFile(join(copy, path));
        if (!before.includes(anchor)) throw new Error(`${path}: "${anchor.trim()}" not found`);
        await Deno.writeTextFile(join(copy, path), before.replace(anchor, text));
      },
    });
    await run(copy, ["fmt", "src", "docs"]);
    await run(copy, ["task", "schema"]);
    const changed: string[] = [];
    for (const folder of ["src", "docs"]) {
      for (const path of await filesOf(join(copy, folder))) {
        const original = await readOrUndefined(join(ROOT, folder, path));
        if (original !== await Deno.readTextFile(join(copy, folder, path))) {
          changed.push(`${folder}/${path}`);
        }
      }
    }
    const checked = await run(copy, ["check", "main.ts", "mod.ts"]);
    const tested = await run(copy, [
      "test",
      ...TEST_FLAGS,
      ...change.tests.map((t) => `tests/${t}.ts`),
    ]);
    const written = changed.filter((path) => !isGenerated(path));
    const generated = changed.filter(isGenerated);
    const lines = [
      `${change.what}: ${written.length} written + a test + ${generated.length} generated` +
      ` (check ${checked ? "ok" : "FAILED"}, tests ${tested ? "ok" : "FAILED"})`,
      ...written.map((path) => `  ${path}`),
      ...generated.map((path) => `  ${path} (generated)`),
    ];
    await Deno.stdout.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

for (const change of CHANGES) await measure(change);
