/**
 * The memory bound: five profiles, each served 10,000 tools with large schemas (about 4 KB of
 * JSON a tool, 20 pages), keep mcpeval's peak RSS under the figure stated in the README.
 */
import assert from "node:assert/strict";
import { hostile, measure } from "./_cli.ts";

/** The bound stated in the README (measured 267-286 MB; the rest is room for GC timing). */
const PEAK_RSS_LIMIT_MIB = 360;

Deno.test({
  name: `memory: 5 x 10,000 large tools stay under ${PEAK_RSS_LIMIT_MIB} MiB peak RSS`,
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const output = await measure([
      "guidance",
      "--server",
      "big",
      "--settle-ms",
      "0",
      "--format",
      "json",
      "--",
      ...hostile("tools-10000-large"),
    ]);
    assert.equal(output.code, 0, output.stderr);
    const report = JSON.parse(output.stdout);
    assert.deepEqual(report.profiles.map((p: { tool_count: number }) => p.tool_count), [
      10_000,
      10_000,
      10_000,
      10_000,
      10_000,
    ]);
    assert.ok(output.peakMib > 0);
    assert.ok(output.peakMib < PEAK_RSS_LIMIT_MIB, `peak RSS ${Math.round(output.peakMib)} MiB`);
  },
});
