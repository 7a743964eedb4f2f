/**
 * CI-native outputs through the real CLI: GitHub workflow commands and step summary, JUnit XML
 * (checked with a real XML parser), SARIF 2.1.0 (checked against its JSON Schema), and report
 * files written beside the console output.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import assert from "node:assert/strict";
import { join } from "node:path";
import { CANARY } from "../fixtures/hostile.ts";
import {
  assertValidReport,
  DEMO_FINDINGS as FINDINGS,
  DEMO_TARGET as DEMO,
  DENO,
  hostile,
  mcpeval,
  profileNone,
  tempDir,
  tempFile,
  withoutPlainProgress,
} from "./_cli.ts";
import { assertValidSarif } from "./_sarif.ts";

const INCOMPLETE = [...profileNone(), "--", ...hostile("list-error")];

Deno.test("--format github: a warning per candidate, an error per defect, a notice with the result", async () => {
  const result = await mcpeval(["guidance", "--format", "github", ...FINDINGS, ...DEMO]);
  assert.equal(result.code, 1);
  assert.equal(withoutPlainProgress(result.stderr), "");
  const lines = result.stdout.trimEnd().split("\n");
  const title = "mcpeval guidance (demo)%3A";
  assert.deepEqual(lines.map((line) => line.slice(0, line.indexOf("::", 2))), [
    `::warning title=${title} referenced-tool-unavailable`,
    `::error title=${title} required-tool-unavailable`,
    "::notice title=mcpeval guidance (demo)",
  ]);
  assert.match(
    lines[1],
    /::none: required tool list-workspace-files is missing; available in roots\. /,
  );
  assert.match(
    lines[2],
    /::Result: failed: 1 required-tool defect; 1 review candidate \(never fail the gate\)/,
  );
});

Deno.test("--format github: an error per incomplete profile", async () => {
  const result = await mcpeval(["guidance", "--format", "github", ...INCOMPLETE]);
  assert.equal(result.code, 3);
  assert.deepEqual(result.stdout.trimEnd().split("\n").map((l) => l.split("::")[1].split(" ")[0]), [
    "error",
    "notice",
  ]);
  assert.match(
    result.stdout,
    /::none: incomplete: list-error\. The server answered tools\/list with an error\./,
  );
  assert.ok(!result.stdout.includes(CANARY));
});

Deno.test("--format github appends a Markdown summary to GITHUB_STEP_SUMMARY", async () => {
  await using file = await tempFile({ suffix: ".md" });
  const summary = file.path;
  await Deno.writeTextFile(summary, "earlier step\n");
  const result = await mcpeval(["guidance", "--format", "github", ...FINDINGS, ...DEMO], {
    permissions: [
      `--allow-run=${DENO}`,
      "--allow-env=GITHUB_STEP_SUMMARY",
      `--allow-write=${summary}`,
    ],
    env: { GITHUB_STEP_SUMMARY: summary },
  });
  assert.equal(result.code, 1, result.stderr);
  const text = await Deno.readTextFile(summary);
  assert.ok(text.startsWith("earlier step\n## mcpeval guidance: demo\n"));
  assert.match(text, /\*\*Result: failed\*\*: 1 required-tool defect/);
  assert.match(text, /\| none \| 2 \| yes \| complete \|/);
  assert.match(text, /### Review candidates \(1\)/);
  assert.match(text, /\| none \| `list-workspace-files` \| roots \|/);
  assert.match(text, /### Defects \(1\)/);
  assert.ok(
    text.indexOf("### Defects") < text.indexOf("### Review candidates"),
    "defects before review candidates",
  );
});

Deno.test("the step summary without write permission: exit 2 naming the flag, before discovery", async () => {
  await using dir = await tempDir();
  const summary = join(dir.path, "summary.md");
  const result = await mcpeval(["guidance", "--format", "github", ...FINDINGS, ...DEMO], {
    permissions: [`--allow-run=${DENO}`, "--allow-env=GITHUB_STEP_SUMMARY"],
    env: { GITHUB_STEP_SUMMARY: summary },
  });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    `mcpeval: Permission to write the step summary is missing: add --allow-write=${summary}\n`,
  );
});

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  isArray: (name) => ["testsuite", "testcase", "property"].includes(name),
});

Deno.test("--format junit: a suite per profile, a case per check, valid XML", async () => {
  const result = await mcpeval(["guidance", "--format", "junit", ...FINDINGS, ...DEMO]);
  assert.equal(result.code, 1);
  assert.equal(XMLValidator.validate(result.stdout), true);
  const { testsuites } = xml.parse(result.stdout);
  assert.deepEqual(
    [testsuites.tests, testsuites.failures, testsuites.errors, testsuites.skipped],
    ["5", "1", "0", "1"],
  );
  assert.deepEqual(testsuites.testsuite.map((s: { name: string }) => s.name), [
    "mcpeval.demo.none",
    "mcpeval.demo.roots",
  ]);
  const none = testsuite(testsuites, 0);
  assert.deepEqual(none.map((c) => [c.name, c.outcome]), [
    ["discovery", "passed"],
    ["requires list-workspace-files", "failure"],
    ["references list-workspace-files", "skipped"],
  ]);
  assert.deepEqual(testsuite(testsuites, 1).map((c) => [c.name, c.outcome]), [
    ["discovery", "passed"],
    ["requires list-workspace-files", "passed"],
  ]);
});

Deno.test("--format junit: an incomplete profile is an error", async () => {
  const result = await mcpeval(["guidance", "--format", "junit", ...INCOMPLETE]);
  assert.equal(result.code, 3);
  assert.equal(XMLValidator.validate(result.stdout), true);
  const { testsuites } = xml.parse(result.stdout);
  assert.deepEqual(testsuite(testsuites, 0).map((c) => [c.name, c.outcome]), [[
    "discovery",
    "error",
  ]]);
  assert.ok(!result.stdout.includes(CANARY));
});

function testsuite(
  testsuites: { testsuite: { testcase: Record<string, unknown>[] }[] },
  index: number,
) {
  return testsuites.testsuite[index].testcase.map((c) => ({
    name: c.name,
    outcome: "failure" in c
      ? "failure"
      : "error" in c
      ? "error"
      : "skipped" in c
      ? "skipped"
      : "passed",
  }));
}

Deno.test("--format sarif: valid SARIF 2.1.0, candidates as warnings, defects as errors", async () => {
  const result = await mcpeval(["guidance", "--format", "sarif", ...FINDINGS, ...DEMO]);
  assert.equal(result.code, 1);
  const log = JSON.parse(result.stdout);
  assertValidSarif(log);
  assert.equal(log.version, "2.1.0");
  const [run] = log.runs;
  assert.deepEqual(run.tool.driver.rules.map((r: { id: string }) => r.id), [
    "referenced-tool-unavailable",
    "required-tool-unavailable",
    "profile-incomplete",
  ]);
  assert.deepEqual(
    run.results.map((
      r: {
        ruleId: string;
        level: string;
        locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
      },
    ) => [
      r.ruleId,
      r.level,
      r.locations[0].logicalLocations[0].fullyQualifiedName,
    ]),
    [
      ["referenced-tool-unavailable", "warning", "demo/none/list-workspace-files"],
      ["required-tool-unavailable", "error", "demo/none/list-workspace-files"],
    ],
  );
});

Deno.test("--format sarif: an incomplete profile is an error result; valid SARIF", async () => {
  const result = await mcpeval(["guidance", "--format", "sarif", ...INCOMPLETE]);
  assert.equal(result.code, 3);
  const log = JSON.parse(result.stdout);
  assertValidSarif(log);
  assert.deepEqual(
    log.runs[0].results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level]),
    [
      ["profile-incomplete", "error"],
    ],
  );
  assert.equal(log.runs[0].invocations[0].executionSuccessful, false);
});

Deno.test("--output writes machine reports to files while the console shows text", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  const [json, sarif, junit] = ["report.json", "report.sarif", "report.xml"].map((name) =>
    join(dir, name)
  );
  const result = await mcpeval(
    [
      "guidance",
      "--output",
      `json=${json}`,
      "--output",
      `sarif=${sarif}`,
      "--output",
      `junit=${junit}`,
      ...FINDINGS,
      ...DEMO,
    ],
    { permissions: [`--allow-run=${DENO}`, `--allow-write=${dir}`] },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /^mcpeval guidance {2}server demo\n/);
  const report = JSON.parse(await Deno.readTextFile(json));
  await assertValidReport(report);
  assert.equal(report.defects.length, 1);
  assertValidSarif(JSON.parse(await Deno.readTextFile(sarif)));
  assert.equal(XMLValidator.validate(await Deno.readTextFile(junit)), true);
});

Deno.test("--output without write permission: exit 2 naming the flag, nothing discovered", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "report.json");
  const result = await mcpeval(["guidance", "--output", `json=${file}`, ...FINDINGS, ...DEMO]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    `mcpeval: Permission to write a report file is missing: add --allow-write=${file}\n`,
  );
});

Deno.test("--format github: past 10 errors, one per server with a count; past 10 servers, the rest in one", async () => {
  const { buildFleetReport } = await import("../src/report/fleet/build.ts");
  const servers = Array.from({ length: 15 }, (_, i) => ({
    name: `off-${String(i + 1).padStart(2, "0")}`,
    reason: "disabled" as const,
  }));
  await using file = await tempFile({ suffix: ".json" });
  await Deno.writeTextFile(file.path, JSON.stringify(buildFleetReport("mcpServers", servers)));
  const result = await mcpeval(["merge", file.path, "--format", "github"], {
    permissions: [`--allow-read=${file.path}`],
  });
  assert.equal(result.code, 3, result.stderr);
  const errors = result.stdout.split("\n").filter((line) => line.startsWith("::error "));
  assert.equal(errors.length, 10);
  assert.match(errors[0], /^::error title=mcpeval guidance \(off-01\)%3A not checked::off-01: /);
  assert.equal(
    errors[9],
    "::error title=mcpeval guidance (6 more servers)%3A 6 errors::not checked: 6; the step summary lists each",
  );
  assert.match(result.stdout, /::notice title=mcpeval guidance \(config mcpServers\)::Result: /);
});
