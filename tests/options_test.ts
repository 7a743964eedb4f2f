/**
 * One option table (src/cli/options.ts): the options `mcpeval guidance` parses are the options
 * its help lists and the options docs/reference.md's table documents, no more and no fewer, with
 * the table's value, default and kind of run; each kind of run refuses what the table says.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI_LABELS, OPTION_NAMES, parseGuidanceArgs } from "../src/cli/args.ts";
import { InvocationError } from "../src/cli/errors.ts";
import { GUIDANCE_HELP, MERGE_HELP } from "../src/cli/help.ts";
import { MERGE_OPTIONS, OPTION_ROWS, type OptionRow, type RunMode } from "../src/cli/options.ts";
import { LIBRARY_LABELS } from "../src/request/request.ts";
import { ROOT } from "./_cli.ts";
import { testContext } from "./_context.ts";

const ROWS: readonly OptionRow[] = OPTION_ROWS;
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();
const listedIn = (help: string) =>
  [...help.matchAll(/^ {2}(?:-[a-z], )?(--[a-z-]+)/gm)].map((m) => m[1]);

Deno.test("guidance help lists every option it parses, and no other", () => {
  assert.deepEqual(sorted(listedIn(GUIDANCE_HELP)), sorted(OPTION_NAMES));
});

Deno.test("merge help lists the merge options of the table, and no other", () => {
  assert.deepEqual(sorted(listedIn(MERGE_HELP)), sorted(MERGE_OPTIONS.map((r) => `--${r.name}`)));
});

/** docs/reference.md's option table: `| \`--name VALUE\` | default | meaning |` rows. */
async function documentedRows() {
  const text = await Deno.readTextFile(join(ROOT, "docs", "reference.md"));
  return text.split("\n").filter((line) => /^\| `-/.test(line)).map((line) => {
    // Cells are split at unescaped pipes; `\|` stands for `|` inside a cell.
    const [option, standard, meaning] = line.split(/(?<!\\)\|/).slice(1, 4).map((cell) =>
      cell.trim().replaceAll("\\|", "|")
    );
    const names = [...option.matchAll(/`(-[a-z]|--[a-z-]+)(?: ([^`]+))?`/g)];
    const long = names.find((m) => m[1].startsWith("--"))!;
    return {
      name: long[1].slice(2),
      value: long[2],
      standard,
      meaning,
      names: names.map((m) => m[1]),
    };
  });
}

Deno.test("docs/reference.md's option table documents every option, and no other", async () => {
  const documented = await documentedRows();
  assert.deepEqual(sorted(documented.map((row) => `--${row.name}`)), sorted(OPTION_NAMES));
  assert.equal(documented.length, ROWS.length, "each option has one row");
});

Deno.test("docs/reference.md's option table: the table's short name, value and default", async () => {
  for (const doc of await documentedRows()) {
    const row = ROWS.find((row) => row.name === doc.name)!;
    const short = row.short ? [`-${row.short}`] : [];
    assert.deepEqual(doc.names, [...short, `--${row.name}`], doc.name);
    // The help's placeholder, its spelling in full, or the choices themselves (`a|b`).
    const values = [row.value, row.docValue, row.choices?.join("|")].filter(Boolean);
    if (row.type === "boolean") assert.equal(doc.value, undefined, `--${doc.name} takes no value`);
    else {assert.ok(
        values.includes(doc.value),
        `--${doc.name} ${doc.value}: the table has ${values}`,
      );}
    if (row.default !== undefined) assert.equal(doc.standard, `\`${row.default}\``, doc.name);
  }
});

Deno.test("docs/reference.md's option table: the kind of run each option applies to", async () => {
  for (const doc of await documentedRows()) {
    const row = ROWS.find((row) => row.name === doc.name)!;
    const refused = row.refused ?? {};
    // "with `--config`": a fleet's option, and every such option (but --config) says so.
    const configOnly = refused.stdio !== undefined && refused.http !== undefined;
    assert.equal(doc.meaning.startsWith("with `--config`"), configOnly, doc.name);
    if (doc.meaning.startsWith("stdio:")) assert.ok(refused.http, `--${doc.name}: not over HTTP`);
    if (doc.meaning.startsWith("HTTP:")) assert.ok(refused.stdio, `--${doc.name}: not for stdio`);
  }
});

Deno.test("docs/reference.md's option table: an option `with --X` is refused without --X", async () => {
  let checked = 0;
  for (const doc of await documentedRows()) {
    const needs = /^with `--([a-z-]+)`:/.exec(doc.meaning)?.[1];
    if (needs === undefined || needs === "config") continue;
    const row = ROWS.find((row) => row.name === doc.name)!;
    const option = row.type === "boolean" ? [`--${row.name}`] : [`--${row.name}`, "x"];
    await assert.rejects(
      () => parseGuidanceArgs(ARGV.stdio(option), testContext()),
      { message: `--${row.name} needs --${needs}` },
    );
    checked++;
  }
  assert.ok(checked >= 1, "an option that needs another was found");
});

/** A command line of each kind of run, with `option` added. */
const ARGV: Record<RunMode, (option: string[]) => string[]> = {
  stdio: (option) => ["--server", "s", ...option, "--", "server"],
  http: (option) => ["--server", "s", ...option, "--url", "http://127.0.0.1:1/mcp"],
  config: (option) => ["--config", "mcp.json", ...option],
};

Deno.test("each kind of run refuses the options the table refuses there, with its phrase", async () => {
  let checked = 0;
  for (const row of ROWS) {
    const option = row.type === "boolean" ? [`--${row.name}`] : [`--${row.name}`, "x"];
    for (const [mode, phrase] of Object.entries(row.refused ?? {})) {
      await assert.rejects(
        () => parseGuidanceArgs(ARGV[mode as RunMode](option), testContext()),
        new InvocationError(`--${row.name} ${phrase}`),
      );
      checked++;
    }
  }
  assert.ok(checked >= 10, "the refusals were found");
});

Deno.test("the kinds of run exclude each other, named in a fixed order", async () => {
  const cases: [string[], string][] = [
    [["--config", "c", "--", "s"], "Give either --config or a server command after '--', not both"],
    [["--config", "c", "--url", "u"], "Give either --config or --url, not both"],
    [
      ["--server", "s", "--url", "u", "--", "s"],
      "Give either a server command after '--' or --url, not both",
    ],
  ];
  for (const [argv, message] of cases) {
    await assert.rejects(
      () => parseGuidanceArgs(argv, testContext()),
      new InvocationError(message),
    );
  }
});

Deno.test("the table's rows: one per name, and what they name is a row", () => {
  const names = ROWS.map((row) => row.name);
  assert.equal(new Set(names).size, names.length);
  for (const row of ROWS) {
    assert.ok(row.help || row.configHelp, `--${row.name} is in the help`);
    // A default that depends on the run names its choices: "tail on a terminal, else discard".
    if (row.default !== undefined && row.choices) {
      const named = row.default.split(/[^a-z-]+/).filter((word) => row.choices!.includes(word));
      assert.ok(row.choices.includes(row.default) || named.length > 1, row.name);
    }
  }
});

Deno.test("the command line labels every request field: an option of the table, or a place", () => {
  assert.deepEqual(sorted(Object.keys(CLI_LABELS)), sorted(Object.keys(LIBRARY_LABELS)));
  for (const label of Object.values(CLI_LABELS)) {
    assert.ok(OPTION_NAMES.includes(label) || /^The server/.test(label), label);
  }
});
