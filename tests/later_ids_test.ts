/**
 * SPEC 10, as amended in part five: every list of ids in the report schemas is a pattern, so a
 * report of a later version, holding ids this version does not know (a finding kind, a hint, a
 * profile label, an incomplete reason, a detail cause, a rule id, an effect, a not-checked
 * reason), still validates, is read as a baseline (what it cannot interpret kept or left out,
 * never refused) and merges; every format shows an unknown id with a fixed phrase. The later
 * reports are this version's own, written by the CLI, with such ids put in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { selectBaseline } from "../src/baseline/read.ts";
import { FleetReportSchema } from "../src/report/fleet/schema.ts";
import { FORMATS, loadFormats, STEP_SUMMARY } from "../src/report/formats/mod.ts";
import { GuidanceReportSchema } from "../src/report/schema.ts";
import type { ReportIds } from "../src/report/types.ts";
import type { FleetReport } from "../src/report/fleet/types.ts";
import {
  assertValidFleet,
  assertValidReport,
  configFile,
  DEMO_FINDINGS,
  DEMO_TARGET,
  DENO,
  entry,
  fixture,
  fleetJson,
  guidanceJson,
  hostile,
  mcpeval,
  profileNone,
  tempDir,
} from "./_cli.ts";
import { assertGithubSarif } from "./_sarif.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** What this version says of an id it does not know. */
const UNKNOWN = "which this version of mcpeval does not know";
const LABEL = "observed:claude-code@2.1.332";
const LATER_HINT = "A hint of a later version.";

/** A finding of a kind this version does not know. */
const ghost = (profile: string, kind = "ghost-candidate") => ({
  kind,
  profile,
  tool: "read-note",
  available_in: [LABEL],
  rule: "max-description-length",
  hint: LATER_HINT,
});

/**
 * The demo server's report (a candidate and a defect in profile none) as a later version could
 * write it: a profile of a label this version does not know, a finding of an unknown kind in
 * each list, a known kind with an unknown rule id and effect, and a reworded hint.
 */
async function laterReport(): Promise<Json> {
  const { report } = await guidanceJson([...DEMO_FINDINGS, ...DEMO_TARGET]);
  const later: Json = structuredClone(report);
  later.profiles.push({ ...later.profiles[1], profile: LABEL });
  later.candidates[0].hint = LATER_HINT;
  later.candidates.push(ghost("none"), {
    kind: "tool-unreachable-in-client",
    profile: "client:claude-code@2.1.332",
    tool: "read-note",
    rule: "max-description-length",
    effect: "hide-server",
    available_in: ["none"],
    hint: LATER_HINT,
  });
  later.defects.push(ghost(LABEL, "ghost-defect"));
  // A known kind in that profile: kept, and not judged (this run does not select the profile).
  later.candidates.push({ ...report.candidates[0], profile: LABEL });
  return later;
}

/** An incomplete report whose reason, hint and cause this version does not know. */
async function laterIncomplete(server: string): Promise<Json> {
  const { report } = await guidanceJson([
    ...profileNone(server),
    "--",
    ...hostile("exit-at-start"),
  ]);
  const later: Json = structuredClone(report);
  later.profiles[0].incomplete = {
    reason: "ghost-reason",
    hint: LATER_HINT,
    detail: { cause: "ghost-cause", signal: "SIGFUTURE" },
  };
  return later;
}

Deno.test("a report with ids of a later version validates, against zod and the printed JSON Schema", async () => {
  for (const later of [await laterReport(), await laterIncomplete("h")]) {
    const read = GuidanceReportSchema.safeParse(later);
    assert.ok(read.success, JSON.stringify(!read.success && read.error.issues));
    await assertValidReport(later);
    const data = read.data!;
    assert.deepEqual(data, later, "read as it is, every id kept");
  }
  // A known kind keeps its shape; an id keeps its pattern; a kind stays in its list.
  const known = await laterReport();
  const broken: ((report: Json) => void)[] = [
    (report) => delete report.candidates[2].rule,
    (report) => (report.candidates[1].kind = "Ghost Kind"),
    (report) => (report.defects[1].kind = "referenced-tool-unavailable"),
    (report) => report.candidates.push({ ...report.defects[0] }),
    (report) => (report.profiles[2].profile = "observed:x@not-a-version"),
    (report) => (report.candidates[0].hint = "two\nlines"),
    (report) => (report.candidates[1].extra = 1),
  ];
  for (const [at, change] of broken.entries()) {
    const report = structuredClone(known);
    change(report);
    assert.equal(GuidanceReportSchema.safeParse(report).success, false, `change ${at}`);
  }
});

Deno.test("a report with ids of a later version is a baseline: unknown kinds left out, unknown labels not run", async () => {
  const later = await laterReport();
  const selection = selectBaseline(later, "demo");
  assert.ok(selection.ok);
  const { baseline } = selection;
  assert.deepEqual([...baseline.catalogs.keys()], ["none", "roots", LABEL]);
  // The ghost kinds and the rule this version does not know can neither match nor be shown.
  assert.deepEqual(
    baseline.findings.map((finding) => finding.kind),
    ["referenced-tool-unavailable", "referenced-tool-unavailable", "required-tool-unavailable"],
  );

  await using dir = await tempDir();
  const path = join(dir.path, "later.json");
  await Deno.writeTextFile(path, JSON.stringify(later));
  const permissions = [`--allow-run=${DENO}`, `--allow-read=${path}`];
  const { report, code } = await guidanceJson(
    ["--baseline", path, ...DEMO_FINDINGS, ...DEMO_TARGET],
    { permissions },
  );
  assert.equal(code, 1, "the defect fails the run");
  assert.deepEqual(
    [...report.candidates, ...report.defects].map((f) => f.baseline_state),
    ["unchanged", "unchanged"],
    "a reworded hint does not make a finding new",
  );
  const compared = report as Json;
  assert.deepEqual(compared.baseline.resolved, []);
  assert.deepEqual(compared.baseline.profiles_differ, {
    not_run: [LABEL],
    not_in_baseline: [],
    not_judged: 1,
  });
  const text = await mcpeval(
    ["guidance", "--baseline", path, ...DEMO_FINDINGS, ...DEMO_TARGET],
    { permissions },
  );
  assert.equal(text.code, 1, text.stderr);
  assert.ok(text.stdout.includes(`not run: ${LABEL}`), text.stdout);

  // An incomplete report of a later version is read, and refused for what it is.
  const incomplete = join(dir.path, "incomplete.json");
  await Deno.writeTextFile(incomplete, JSON.stringify(await laterIncomplete("demo")));
  const refused = await mcpeval(
    ["guidance", "--baseline", incomplete, ...DEMO_FINDINGS, ...DEMO_TARGET],
    { permissions: [`--allow-run=${DENO}`, `--allow-read=${incomplete}`] },
  );
  assert.equal(refused.code, 2);
  assert.equal(
    refused.stderr,
    "mcpeval: --baseline is the report of an incomplete run; write the baseline from a run whose discovery completed\n",
  );
});

Deno.test("a config filter's finding in a baseline is read with its filter's rule id", () => {
  const finding = {
    kind: "tool-disabled-in-config",
    profile: "none",
    tool: "read-note",
    rule: "disabled-tools",
    available_in: [],
    hint: LATER_HINT,
  };
  const report = {
    schema: "mcpeval.guidance-report/v1",
    mcpeval_version: "0.2.0",
    server: "demo",
    profiles: [{ profile: "none", tools: ["read-note"] }],
    candidates: [finding, { ...finding, tool: "search-notes", rule: "ghost-filter" }],
    complete: true,
  };
  const selection = selectBaseline(report, "demo");
  assert.ok(selection.ok);
  assert.deepEqual(selection.baseline.findings, [
    {
      kind: "tool-disabled-in-config",
      profile: "none",
      tool: "read-note",
      availableIn: [],
      rule: "disabled-tools",
    },
  ]);
});

/**
 * A fleet report of three servers (demo checked, broken incomplete, off not
 * checked) as a later version could write it.
 */
async function laterFleet(): Promise<Json> {
  await using config = await configFile({
    mcpServers: {
      demo: entry(fixture("demo_server.ts")),
      broken: entry(hostile("exit-at-start")),
      off: { command: "x", disabled: true },
    },
  });
  const { fleet } = await fleetJson(
    [
      "--config",
      config.path,
      "--profile",
      "none",
      "--profile",
      "roots",
      "--require-tool",
      "demo:list-workspace-files",
      "--settle-ms",
      "100",
    ],
    { permissions: [`--allow-read=${config.path}`, `--allow-run=${DENO}`] },
  );
  const later: Json = structuredClone(fleet);
  const [demo, broken, off] = later.servers;
  const report = await laterReport();
  demo.report = { ...report, settings: demo.report.settings };
  const incomplete = broken.report.profiles.find((p: Json) => !p.complete);
  incomplete.incomplete = {
    reason: "ghost-reason",
    hint: LATER_HINT,
    detail: { cause: "ghost-cause" },
  };
  // Every server of one run has the same profiles.
  broken.report.profiles.push({ ...broken.report.profiles[1], profile: LABEL });
  Object.assign(off, {
    reason: "ghost-not-checked",
    hint: "a hint of a later version",
    field: "newField",
  });
  return later;
}

/** `fleet` with only the servers `names`, its `complete` and `passed` recomputed. */
function part(fleet: Json, names: readonly string[]): Json {
  const servers = fleet.servers.filter((server: Json) => names.includes(server.name));
  const complete = servers.every((server: Json) => server.checked && server.report.complete);
  const passed = complete ? servers.every((server: Json) => server.report.passed) : null;
  return { ...fleet, servers, complete, passed };
}

Deno.test("a fleet report with ids of a later version validates, merges and renders in every format", async () => {
  const later = await laterFleet();
  const read = FleetReportSchema.safeParse(later);
  assert.ok(read.success, JSON.stringify(!read.success && read.error.issues));
  await assertValidFleet(later);

  // Through the CLI: two parts merged give the whole report back, every id kept.
  await using dir = await tempDir();
  const files = [["demo", "off"], ["broken"]].map((names, at) => {
    const path = join(dir.path, `part-${at + 1}.json`);
    Deno.writeTextFileSync(path, JSON.stringify(part(later, names)));
    return path;
  });
  const permissions = [`--allow-read=${files.join(",")}`];
  const json = await mcpeval(["merge", ...files, "--format", "json"], { permissions });
  assert.equal(json.code, 3, json.stderr);
  const merged = JSON.parse(json.stdout);
  assert.deepEqual(merged, {
    ...later,
    servers: ["demo", "off", "broken"].map((name) =>
      later.servers.find((s: Json) => s.name === name)
    ),
  });
  await assertValidFleet(merged);

  const text = await mcpeval(["merge", ...files], { permissions });
  assert.equal(text.code, 3, text.stderr);
  const words = text.stdout.replaceAll(/\s+/g, " ");
  for (
    const said of [
      `has a finding of kind ghost-candidate, ${UNKNOWN}`,
      "not checked: ghost-not-checked (newField)",
      "hint: this version of mcpeval does not know this reason",
      `ghost-reason`,
      `Cause ghost-cause, ${UNKNOWN}.`,
      "max-description-length rule hide every tool of this server (hide-server)",
    ]
  ) {
    assert.ok(words.includes(said), `${said}\n${text.stdout}`);
  }
  assert.ok(!text.stdout.includes(LATER_HINT), "a hint is said in this version's words");
  assert.ok(!text.stdout.includes("a hint of a later version"));

  const sarif = await mcpeval(["merge", ...files, "--format", "sarif"], { permissions });
  assert.equal(sarif.code, 3, sarif.stderr);
  const log = JSON.parse(sarif.stdout);
  assertGithubSarif(log);
  const ruleIds = log.runs[0].tool.driver.rules.map((rule: Json) => rule.id);
  assert.ok(ruleIds.includes("ghost-candidate") && ruleIds.includes("ghost-defect"), ruleIds);
  const ghostDefect = log.runs[0].results.find((r: Json) => r.ruleId === "ghost-defect");
  assert.equal(ghostDefect.level, "error", "a defect of a kind this version does not know gates");

  // In-process, every format (the step summary included) from the merge as the CLI renders it.
  const fleet: FleetReport<ReportIds> = read.data!;
  const formats = await loadFormats([...FORMATS, STEP_SUMMARY]);
  for (const [format, module] of formats) {
    const rendered = module.render({ kind: "merge", fleet }, { color: false });
    const output = typeof rendered === "string" ? rendered : [...rendered].join("");
    assert.ok(output.includes("ghost-candidate"), format);
    assert.ok(output.includes("ghost-defect"), format);
    if (format !== "json") assert.ok(!output.includes(LATER_HINT), format);
  }
});

Deno.test("a fleet report with ids of a later version is the baseline of one of its servers", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "fleet.json");
  await Deno.writeTextFile(path, JSON.stringify(await laterFleet()));
  const { report, code } = await guidanceJson(
    ["--baseline", path, ...DEMO_FINDINGS, ...DEMO_TARGET],
    { permissions: [`--allow-run=${DENO}`, `--allow-read=${path}`] },
  );
  assert.equal(code, 1);
  assert.deepEqual((report as Json).baseline.profiles_differ.not_run, [LABEL]);
});
