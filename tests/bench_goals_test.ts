/**
 * The bench's goals are stated once (scripts/bench_goals.ts): docs/performance.md's tables,
 * pasted from `deno task bench`, give each row the goal of its case and no other, and every goal
 * is in them. Pure: the tables are read, nothing is run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Goal, GOALS } from "../scripts/bench_goals.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import { ROOT } from "./_cli.ts";

/** Every row of a table of `text` with a `goal` column: its case and its goal cell. */
function goalRows(text: string): { case: string; goal: string }[] {
  const rows: { case: string; goal: string }[] = [];
  let column = -1;
  for (const line of text.split("\n")) {
    if (!line.startsWith("|")) {
      column = -1;
      continue;
    }
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    if (column === -1) {
      column = cells.indexOf("goal");
      continue;
    }
    if (/^-+:?$/.test(cells[0])) continue;
    rows.push({ case: cells[0], goal: cells[column] });
  }
  return rows;
}

/** The goal whose row the case is: the longest `row` it starts with. */
function goalOf(label: string): [string, Goal] | undefined {
  return Object.entries(GOALS as Readonly<Record<string, Goal>>)
    .filter(([, goal]) => label.startsWith(goal.row))
    .sort(([, a], [, b]) => b.row.length - a.row.length)[0];
}

Deno.test("docs/performance.md: each row has its case's goal from scripts/bench_goals.ts, and every goal a row", async () => {
  const rows = goalRows(await Deno.readTextFile(join(ROOT, "docs", "performance.md")));
  assert.ok(rows.length > 30, "the tables were read");
  const seen = new Set<string>();
  for (const row of rows) {
    const found = goalOf(row.case);
    // A ratio in the goal column (the fidelity floor's) is no goal.
    const goal = /^[<≤]/.test(row.goal) ? row.goal : "";
    assert.equal(goal, found?.[1].goal ?? "", row.case);
    if (found) seen.add(found[0]);
  }
  assert.deepEqual([...seen].sort(), Object.keys(GOALS).sort());
});

Deno.test("the goals the project states (issue 38), each once", () => {
  assert.equal(GOALS.fiveProfiles.goal, "≤ 1.03x");
  assert.equal(GOALS.everyPreset.goal, "< 2 s, < 200 MiB");
  assert.equal(GOALS.version.goal, "≤ 1.50x");
  const rows = Object.values(GOALS).map((goal) => goal.row);
  assert.equal(new Set(rows).size, rows.length, "one goal per row");
});

Deno.test("docs/performance.md: the merge's memory is measured in every format", async () => {
  const rows = goalRows(await Deno.readTextFile(join(ROOT, "docs", "performance.md")))
    .filter((row) => row.case.startsWith(GOALS.mergeMemory.row));
  for (const format of FORMATS) {
    assert.ok(rows.some((row) => row.case.includes(`as ${format}`)), format);
  }
});
