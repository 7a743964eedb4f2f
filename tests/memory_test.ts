/**
 * The memory bound: five profiles, each served 10,000 tools with large schemas (about 4 KB of
 * JSON a tool, 20 pages), keep mcpeval's peak RSS under the figure stated in the README.
 */
import assert from "node:assert/strict";
import { fixtureLog, hostile, httpFixture, measure, startHttp } from "./_cli.ts";

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

Deno.test({
  name: "memory: a gzip bomb is never inflated: 5 profiles end message-too-large under 1 GiB",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using log = await fixtureLog();
    // The fixture compresses when asked (200 MiB in about 200 KB), as a real server would.
    await using server = await startHttp(httpFixture("http_hostile.ts", "gzip-bomb"), {
      MCPEVAL_FIXTURE_LOG: log.path,
    });
    const output = await measure([
      "guidance",
      "--server",
      "h",
      "--settle-ms",
      "0",
      "--timeout-ms",
      "120000",
      "--format",
      "json",
      "--url",
      server.url,
    ]);
    assert.equal(output.code, 3, output.stderr);
    const report = JSON.parse(output.stdout);
    assert.deepEqual(
      report.profiles.map((p: { incomplete?: { reason: string } }) => p.incomplete?.reason),
      Array(5).fill("message-too-large"),
    );
    assert.ok(output.peakMib < 1024, `peak RSS ${Math.round(output.peakMib)} MiB`);
    const requests = log.entries() as { headers: Record<string, string> }[];
    assert.ok(requests.length > 0);
    for (const { headers } of requests) assert.equal(headers["accept-encoding"], "identity");
  },
});
