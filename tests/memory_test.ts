/**
 * The memory bound: five profiles, each served 10,000 tools with large schemas (about 4 KB of
 * JSON a tool, 20 pages), keep mcpeval's peak RSS under the figure stated in the README.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertNoneLeft, DENO, hostile, ProcessMarker, ROOT } from "./_cli.ts";

/** The bound stated in the README (measured 267-286 MB; the rest is room for GC timing). */
const PEAK_RSS_LIMIT_MIB = 360;

Deno.test({
  name: `memory: 5 x 10,000 large tools stay under ${PEAK_RSS_LIMIT_MIB} MiB peak RSS`,
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const marker = new ProcessMarker();
    const output = await new Deno.Command(DENO, {
      args: [
        "run",
        "--quiet",
        "--allow-all",
        join(ROOT, "tests", "_measure.ts"),
        "guidance",
        "--server",
        "big",
        "--settle-ms",
        "0",
        "--format",
        "json",
        "--",
        ...hostile("tools-10000-large"),
      ],
      env: { NO_COLOR: "1", ...marker.env },
    }).output();
    assertNoneLeft(await marker.reap(), "tests/_measure.ts");
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const report = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.deepEqual(report.profiles.map((p: { tool_count: number }) => p.tool_count), [
      10_000,
      10_000,
      10_000,
      10_000,
      10_000,
    ]);
    const peakKib = Number(/peak_rss_kib=(\d+)/.exec(stderr)?.[1]);
    assert.ok(peakKib > 0);
    assert.ok(peakKib / 1024 < PEAK_RSS_LIMIT_MIB, `peak RSS ${Math.round(peakKib / 1024)} MiB`);
  },
});
