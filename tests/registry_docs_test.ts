/**
 * The docs tables that list a registry's members, against the registry: a member added to a
 * registry is one row (or column) of its table here, and a table never lists a member the
 * registry does not have. The output formats (docs/ci.md), the rule kinds
 * (docs/client-presets.md), the config shapes (docs/config.md) and the protocol revisions
 * (docs/protocol-revisions.md). The formats' own options are options_test's (docs/reference.md).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RULE_KIND_IDS } from "../src/clients/rules/registry.ts";
import { FORMAT_MODULES } from "../src/config/formats/registry.ts";
import { PROTOCOL_VERSIONS } from "../src/protocol/versions.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import { ROOT } from "./_cli.ts";

/** The table of docs/`file` whose header row starts with `header`: its header and its rows' cells. */
function table(file: string, header: string): { header: string[]; rows: string[][] } {
  const lines = Deno.readTextFileSync(join(ROOT, "docs", file)).split("\n");
  const start = lines.findIndex((line) => line.startsWith(header));
  assert.notEqual(start, -1, `${file} has a table headed ${header}`);
  const cells = (line: string) => line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(cells(line));
  }
  return { header: cells(lines[start]), rows };
}

/** The first backticked word of a cell. */
const code = (cell: string) => /`([^`]+)`/.exec(cell)?.[1];

Deno.test("docs/ci.md: a row per output format, in the registry's order", () => {
  const { rows } = table("ci.md", "| format ");
  assert.deepEqual(rows.map(([format]) => code(format)), FORMATS);
});

Deno.test("docs/client-presets.md: a row per rule kind, in the registry's order", () => {
  const { rows } = table("client-presets.md", "| rule ");
  assert.deepEqual(rows.map(([rule]) => code(rule)), RULE_KIND_IDS);
});

Deno.test("docs/config.md: a row per config shape, each naming the key that holds its servers", () => {
  const { rows } = table("config.md", "| client (config_format) ");
  const documented = rows.map(([client]) => code(client.slice(client.lastIndexOf("(")))).sort();
  assert.deepEqual(documented, FORMAT_MODULES.map((module) => module.format).sort());
});

Deno.test("docs/protocol-revisions.md: the overview has a column per revision, oldest first", () => {
  const { header } = table("protocol-revisions.md", "|                               | 2024");
  assert.deepEqual(header.slice(1), PROTOCOL_VERSIONS);
});
