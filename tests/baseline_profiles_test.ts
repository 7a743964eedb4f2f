/**
 * A baseline whose profiles are not the run's (issue 33): the run says so in every format, and
 * the baseline's findings that depend on a profile not run are not called resolved.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, fixture, guidanceJson, mcpeval, tempDir } from "./_cli.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const PHRASE =
  "The profiles run differ from those of the baseline: findings of a profile not compared are not called resolved";

const DEMO = ["--server", "demo", "--settle-ms", "100"];

Deno.test("a baseline of five profiles, a run of two: no finding resolved, the sets differ in every format", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "baseline.json");
  const written = await mcpeval(
    ["guidance", "--output", `json=${path}`, ...DEMO, "--", ...fixture("demo/server.ts")],
    { permissions: [`--allow-run=${DENO}`, `--allow-write=${path}`] },
  );
  assert.equal(written.code, 0, written.stderr);
  const args = [
    ...DEMO,
    "--profile",
    "none",
    "--profile",
    "roots",
    "--baseline",
    path,
    "--",
    ...fixture("demo/server.ts"),
  ];
  const options = { permissions: [`--allow-run=${DENO}`, `--allow-read=${path}`] };
  const { code, report } = await guidanceJson(args, options);
  assert.equal(code, 0);
  const baseline = report.baseline as NonNullable<typeof report.baseline> & {
    profiles_differ?: { not_run: string[]; not_in_baseline: string[]; not_judged: number };
  };
  // none's and roots' candidates about tools of sampling, elicitation and all cannot occur now
  // (4), and those of the profiles not run were not looked for (4).
  assert.deepEqual(baseline.resolved, []);
  assert.deepEqual(baseline.profiles_differ, {
    not_run: ["sampling", "elicitation", "all"],
    not_in_baseline: [],
    not_judged: 8,
  });
  for (const format of FORMATS.filter((id) => id !== "json")) {
    const result = await mcpeval(["guidance", "--format", format, ...args], options);
    assert.equal(result.code, 0, result.stderr);
    const words = result.stdout.replace(/\s+/g, " ");
    assert.ok(words.includes(PHRASE), `${format}: ${result.stdout}`);
    assert.ok(!/resolved since the baseline/i.test(words), `${format}: ${result.stdout}`);
  }
  // The same profiles as the baseline: nothing differs.
  const same = await guidanceJson(
    [...DEMO, "--baseline", path, "--", ...fixture("demo/server.ts")],
    options,
  );
  assert.equal(same.report.baseline?.resolved.length, 0);
  assert.ok(!("profiles_differ" in (same.report.baseline ?? {})));
  assert.ok(!same.stdout.includes(PHRASE));
});
