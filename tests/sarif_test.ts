/**
 * SARIF that GitHub code scanning accepts: valid against the SARIF 2.1.0 schema, and every
 * result at a physical location (`--sarif-location PATH[:LINE]`, by default `mcpeval/SERVER`
 * line 1), checked against GitHub's documented upload requirements (tests/_sarif.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DEMO_FINDINGS,
  DEMO_TARGET as DEMO,
  DENO,
  hostile,
  mcpeval,
  profileNone,
  tempDir,
} from "./_cli.ts";
import { assertGithubSarif, githubSarifProblems } from "./_sarif.ts";
import { run } from "../src/cli/run.ts";
import { testContext } from "./_context.ts";

const FINDINGS = [...DEMO_FINDINGS, "--require-tool", "serach-notes"];

type Log = {
  runs: {
    results: {
      ruleId: string;
      message: { text: string };
      partialFingerprints: Record<string, string>;
      locations: {
        physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
      }[];
    }[];
  }[];
};

const where = (log: Log) =>
  log.runs[0].results.map((r) => {
    const { artifactLocation, region } = r.locations[0].physicalLocation;
    return `${r.ruleId} ${artifactLocation.uri}:${region.startLine}`;
  });

Deno.test("SARIF: every result at the default location mcpeval/SERVER line 1, accepted by GitHub", async () => {
  const result = await mcpeval(["guidance", "--format", "sarif", ...FINDINGS, ...DEMO]);
  assert.equal(result.code, 1);
  const log = JSON.parse(result.stdout);
  assertGithubSarif(log);
  assert.deepEqual(where(log), [
    "referenced-tool-unavailable mcpeval/demo:1",
    "required-tool-unavailable mcpeval/demo:1",
    "required-tool-unavailable mcpeval/demo:1",
    "required-tool-unavailable mcpeval/demo:1",
  ]);
  // Stable fingerprints: the same finding matches its earlier alert.
  assert.deepEqual(
    log.runs[0].results.map((r: Log["runs"][0]["results"][0]) => r.partialFingerprints),
    [
      { "mcpevalResult/v1": "referenced-tool-unavailable/demo/none/list-workspace-files" },
      { "mcpevalResult/v1": "required-tool-unavailable/demo/none/list-workspace-files" },
      { "mcpevalResult/v1": "required-tool-unavailable/demo/none/serach-notes" },
      { "mcpevalResult/v1": "required-tool-unavailable/demo/roots/serach-notes" },
    ],
  );
  // A required tool that no profile lists, close to one that is: the message says which.
  assert.match(
    log.runs[0].results[2].message.text,
    /^none: required tool serach-notes is missing; listed in no selected profile; did you mean search-notes\?/,
  );
});

Deno.test("SARIF: --sarif-location PATH:LINE, in a report file beside the text on stdout", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "mcpeval.sarif");
  const result = await mcpeval(
    [
      "guidance",
      "--output",
      `sarif=${file}`,
      "--sarif-location",
      "src/my server/main.ts:42",
      ...FINDINGS,
      ...DEMO,
    ],
    { permissions: [`--allow-run=${DENO}`, `--allow-write=${dir.path}`] },
  );
  assert.match(result.stderr, /--sarif-location must be PATH or PATH:LINE/);
  assert.equal(result.code, 2, "a path with a space is refused");
  const ok = await mcpeval(
    [
      "guidance",
      "--output",
      `sarif=${file}`,
      "--sarif-location",
      "src/server.ts:42",
      ...FINDINGS,
      ...DEMO,
    ],
    { permissions: [`--allow-run=${DENO}`, `--allow-write=${dir.path}`] },
  );
  assert.equal(ok.code, 1, ok.stderr);
  const log = JSON.parse(await Deno.readTextFile(file));
  assertGithubSarif(log);
  assert.ok(where(log).every((w) => w.endsWith(" src/server.ts:42")), String(where(log)));
});

Deno.test("SARIF: an incomplete profile is an error result at the location too", async () => {
  const result = await mcpeval([
    "guidance",
    "--format",
    "sarif",
    "--sarif-location",
    "server.py",
    ...profileNone(),
    "--",
    ...hostile("exit-at-start"),
  ]);
  assert.equal(result.code, 3);
  const log = JSON.parse(result.stdout);
  assertGithubSarif(log);
  assert.deepEqual(where(log), ["profile-incomplete server.py:1"]);
  assert.match(log.runs[0].results[0].message.text, /exited with status 1 before answering/);
});

// In-process: each is refused before anything starts.
Deno.test("--sarif-location: only relative repository paths", async () => {
  for (
    const bad of [
      "/etc/passwd",
      "../outside.ts",
      "a/./b",
      "https://example.com/x",
      "C:/x",
      "a\\b",
      "a//b",
      "x:0",
    ]
  ) {
    const ctx = testContext();
    const code = await run(
      ["guidance", "--server", "a", "--format", "sarif", "--sarif-location", bad, ...DEMO],
      ctx,
    );
    assert.equal(code, 2, bad);
    assert.deepEqual(ctx.opened, [], bad);
    assert.equal(
      ctx.err(),
      "mcpeval: --sarif-location must be PATH or PATH:LINE, PATH relative to the repository root with '/' between folders (no '..', no spaces)\n",
      bad,
    );
  }
});

Deno.test("the GitHub check itself: a result with only a logical location is refused", () => {
  const log = {
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "x",
          rules: [{
            id: "r",
            shortDescription: { text: "s" },
            fullDescription: { text: "f" },
            help: { text: "h" },
          }],
        },
      },
      results: [{
        ruleId: "r",
        message: { text: "m" },
        locations: [{ logicalLocations: [{ name: "a" }] }],
      }],
    }],
  };
  assert.deepEqual(githubSarifProblems(log), [
    "runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri: required",
  ]);
});
