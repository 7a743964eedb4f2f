/**
 * A baseline inside the documented bounds can hold hundreds of thousands of findings; the
 * report lists at most MAX_RESOLVED_LISTED of the resolved ones and counts the rest, so that
 * every format is bounded by the run, not by the baseline (tested in all five formats at once;
 * mcpeval's peak memory on it is printed by `deno task bench`, not asserted here).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_RESOLVED_LISTED } from "../src/limits.ts";
import { assertValidReport, fixture, measure, ROOT, tempDir } from "./_cli.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const RESOLVED = 220_000;

Deno.test({
  name:
    `a baseline with ${RESOLVED} resolved findings: ${MAX_RESOLVED_LISTED} listed, the rest counted`,
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using dir = await tempDir();
    const baseline = JSON.parse(
      await Deno.readTextFile(join(ROOT, "tests", "data", "baselines", "guidance-0.2.0.json")),
    );
    // Its required-tool defects would be resolved too: only the added candidates are counted.
    baseline.defects = [];
    for (let i = 0; i < RESOLVED; i++) {
      baseline.candidates.push({
        kind: "referenced-tool-unavailable",
        profile: "none",
        tool: `gone-tool-${i}`,
        available_in: ["all"],
        hint: "worded by an earlier version",
      });
    }
    const path = join(dir.path, "baseline.json");
    await Deno.writeTextFile(path, JSON.stringify(baseline));
    const outputs = FORMATS.filter((id) => id !== "text").map((format) =>
      `${format}=${join(dir.path, `report.${format}`)}`
    );
    const output = await measure([
      "guidance",
      "--server",
      "demo",
      "--settle-ms",
      "100",
      "--baseline",
      path,
      ...outputs.flatMap((spec) => ["--output", spec]),
      "--",
      ...fixture("demo/server.ts"),
    ]);
    assert.equal(output.code, 0, output.stderr);
    const report = JSON.parse(await Deno.readTextFile(join(dir.path, "report.json")));
    await assertValidReport(report);
    assert.equal(report.baseline.resolved.length, MAX_RESOLVED_LISTED);
    assert.equal(report.baseline.resolved_not_listed, RESOLVED - MAX_RESOLVED_LISTED);
    assert.match(
      output.stdout,
      new RegExp(
        `\\n {2}and ${
          RESOLVED - MAX_RESOLVED_LISTED
        } more resolved findings, not listed \\(at most ${MAX_RESOLVED_LISTED} are\\)\\n`,
      ),
    );
    const sarif = JSON.parse(await Deno.readTextFile(join(dir.path, "report.sarif")));
    const absent = sarif.runs[0].results.filter((r: { baselineState?: string }) =>
      r.baselineState === "absent"
    );
    assert.equal(absent.length, MAX_RESOLVED_LISTED);
  },
});
