/**
 * A silent server, told once per run of profiles (issue 39): `--client all` against a server
 * that never answers ends within one timeout (the profiles after a first wave that heard nothing
 * end `server-silent`), while a server that answers anything, or is silent only during its first
 * start's download, has every profile run. Through the real CLI; the watch itself in-process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinPresets } from "../src/clients/presets.ts";
import { SilenceWatch } from "../src/discovery/silence.ts";
import { CONCURRENCY } from "../src/limits.ts";
import { INCOMPLETE_HINTS, INCOMPLETE_REASONS } from "../src/protocol/incomplete.ts";
import { DENO, guidanceJson, hostile, ROOT, tempDir } from "./_cli.ts";

/** A small injected timeout: the run's length is a few of them. */
const TIMEOUT_MS = 3_000;
const QUICK = ["--settle-ms", "0", "--timeout-ms", String(TIMEOUT_MS)];

/**
 * A program named `server` that starts `command` (a Deno command line): not a package runner,
 * nor `deno` (every deno start may download, `mayDownload`), so its profiles start five at once.
 */
async function asProgram(dir: string, command: readonly string[]): Promise<string> {
  const path = join(dir, "server");
  const line = command.map((word) => `'${word}'`).join(" ");
  await Deno.writeTextFile(path, `#!/bin/sh\nexec ${line}\n`, { mode: 0o755 });
  return path;
}

Deno.test("--client all against a server that never answers: one wave times out, the rest server-silent, within one timeout plus 5 s", async () => {
  await using bin = await tempDir();
  const server = await asProgram(bin.path, hostile("silent"));
  const { code, report, ms } = await guidanceJson(
    ["--server", "h", "--client", "all", ...QUICK, "--", server],
    { boundMs: 120_000, permissions: [`--allow-run=${server},${DENO}`] },
  );
  assert.equal(code, 3);
  const reasons = report.profiles.map((profile) => profile.incomplete?.reason);
  const presets = builtinPresets().size;
  assert.ok(presets > CONCURRENCY.default, "more presets than one wave");
  assert.deepEqual(reasons, [
    ...Array(CONCURRENCY.default).fill("timeout"),
    ...Array(presets - CONCURRENCY.default).fill("server-silent"),
  ]);
  const skipped = report.profiles.find((p) => p.incomplete?.reason === "server-silent");
  assert.equal(skipped?.incomplete?.hint, INCOMPLETE_HINTS["server-silent"]);
  assert.equal(skipped?.pages, 0);
  // Before: three waves of five, each waiting out its timeout.
  assert.ok(ms < TIMEOUT_MS + 5_000, `the run took ${Math.round(ms)} ms`);
});

Deno.test("a deno server that never answers: its lone first start, then one wave, the rest server-silent", async () => {
  // Every deno start may download: the first profile starts alone, the wave after it decides.
  const { code, report } = await guidanceJson(
    ["--server", "h", "--client", "all", ...QUICK, "--", ...hostile("silent")],
    { boundMs: 120_000 },
  );
  assert.equal(code, 3);
  const presets = builtinPresets().size;
  assert.deepEqual(report.profiles.map((profile) => profile.incomplete?.reason), [
    ...Array(1 + CONCURRENCY.default).fill("timeout"),
    ...Array(presets - 1 - CONCURRENCY.default).fill("server-silent"),
  ]);
});

Deno.test("a server that answers anything is never skipped: every profile runs to its own timeout", async () => {
  // It answers initialize, then never tools/list: every profile times out, none server-silent.
  const { code, report } = await guidanceJson(
    [
      "--server",
      "h",
      "--client",
      "all",
      "--settle-ms",
      "0",
      "--timeout-ms",
      "1000",
      "--",
      ...hostile("silent-list"),
    ],
    { boundMs: 120_000 },
  );
  assert.equal(code, 3);
  assert.deepEqual(
    new Set(report.profiles.map((profile) => profile.incomplete?.reason)),
    new Set(["timeout"]),
  );
});

Deno.test("a server silent only during its first start's download: every profile completes", async () => {
  // A program named npx (a package runner): its first start is silent for 2 s (a download),
  // then every start answers at once; the first wave is the profiles after that lone one.
  await using cache = await tempDir();
  await using bin = await tempDir();
  const npx = join(bin.path, "npx");
  const line = [
    DENO,
    "run",
    "--quiet",
    `--allow-read=${cache.path}`,
    `--allow-write=${cache.path}`,
    join(ROOT, "fixtures", "cold_start.ts"),
    cache.path,
    "2000",
  ].map((word) => `'${word}'`).join(" ");
  await Deno.writeTextFile(npx, `#!/bin/sh\nexec ${line}\n`, { mode: 0o755 });
  const { code, report, stderr } = await guidanceJson(
    ["--server", "cold", "--client", "all", "--settle-ms", "0", "--timeout-ms", "20000", "--", npx],
    { boundMs: 120_000, permissions: [`--allow-run=${npx},${DENO}`] },
  );
  assert.equal(code, 0, stderr);
  assert.equal(report.profiles.length, builtinPresets().size);
  assert.ok(report.profiles.every((profile) => profile.complete), JSON.stringify(report.profiles));
});

Deno.test("the watch: silent only when every profile of the wave timed out and nothing was heard", async () => {
  const silent = new SilenceWatch(0, 2);
  assert.ok(!silent.past(1) && silent.past(2));
  silent.ended(0, true);
  silent.ended(1, true);
  assert.equal(await silent.verdict, true);
  assert.equal(silent.silent, true);

  const heard = new SilenceWatch(0, 2);
  heard.ended(0, true);
  heard.heard();
  heard.ended(1, true);
  assert.equal(await heard.verdict, false);

  const otherwise = new SilenceWatch(0, 2);
  otherwise.ended(1, false);
  assert.equal(await otherwise.verdict, false);

  // After a lone warming profile (position 0), the wave is positions 1 and 2.
  const warm = new SilenceWatch(1, 3);
  warm.ended(0, true);
  warm.ended(1, true);
  warm.ended(2, true);
  assert.equal(await warm.verdict, true);

  assert.equal(await new SilenceWatch(0, 0).verdict, false);
  const released = new SilenceWatch(0, 5);
  released.release();
  assert.equal(await released.verdict, false);
});

Deno.test("docs/reference.md lists every incomplete reason, in table order", async () => {
  const text = await Deno.readTextFile(join(ROOT, "docs", "reference.md"));
  const section = text.slice(text.indexOf("### Incomplete reasons"));
  const table = section.slice(0, section.indexOf("\n###"));
  const listed = [...table.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((match) => match[1]);
  assert.deepEqual(listed, INCOMPLETE_REASONS);
});
