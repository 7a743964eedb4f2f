/**
 * One option table: the options `mcpeval guidance` parses (src/cli/args.ts) are the options its
 * help lists and the options docs/reference.md's table documents, no more and no fewer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { OPTION_NAMES } from "../src/cli/args.ts";
import { GUIDANCE_HELP } from "../src/cli/help.ts";
import { ROOT } from "./_cli.ts";

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

Deno.test("guidance help lists every option it parses, and no other", () => {
  const listed = [...GUIDANCE_HELP.matchAll(/^ {2}(?:-[a-z], )?(--[a-z-]+)/gm)].map((m) => m[1]);
  assert.deepEqual(sorted(listed), sorted(OPTION_NAMES));
});

Deno.test("docs/reference.md's option table documents every option, and no other", async () => {
  const text = await Deno.readTextFile(join(ROOT, "docs", "reference.md"));
  const rows = text.split("\n").filter((line) => /^\| `-/.test(line));
  const documented = rows.flatMap((row) =>
    [...row.split("|")[1].matchAll(/`(--[a-z-]+)/g)].map((m) => m[1])
  );
  assert.deepEqual(sorted(documented), sorted(OPTION_NAMES));
});
