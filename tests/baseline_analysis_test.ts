/** The baseline comparison and the baseline's selection: pure functions. */
import assert from "node:assert/strict";
import { type Baseline, compareWithBaseline } from "../src/analysis/baseline.ts";
import type { Finding } from "../src/analysis/findings.ts";
import type { Profile } from "../src/profiles.ts";
import { INCOMPLETE_HINTS } from "../src/protocol/incomplete.ts";
import { selectBaseline } from "../src/baseline/read.ts";

const candidate = (profile: Profile, tool: string, availableIn: Profile[]): Finding => ({
  kind: "referenced-tool-unavailable",
  profile,
  tool,
  availableIn,
});

const BASELINE: Baseline = {
  catalogs: new Map<Profile, string[]>([
    ["none", ["echo", "old"]],
    ["roots", ["echo", "old", "pick"]],
  ]),
  findings: [candidate("none", "pick", ["roots"]), candidate("roots", "gone", ["all"])],
};

Deno.test("compareWithBaseline: drift per profile, states, resolved, and no defect unless asked", () => {
  const current = [
    { profile: "none", tools: ["echo", "new"] },
    { profile: "roots", tools: ["echo", "old", "pick"] },
    { profile: "sampling", tools: ["echo"] },
  ] as const;
  const findings = [candidate("none", "pick", ["roots"]), candidate("sampling", "pick", ["roots"])];
  const comparison = compareWithBaseline(current, findings, BASELINE, {
    requireBaselineTools: false,
  });
  assert.deepEqual(comparison.drift, [
    { profile: "none", compared: true, added: ["new"], removed: ["old"] },
    { profile: "roots", compared: true, added: [], removed: [] },
    { profile: "sampling", compared: false, reason: "not-in-baseline" },
  ]);
  assert.deepEqual(comparison.findings, findings);
  assert.deepEqual(comparison.states, ["unchanged", "new"]);
  // roots' `gone` was listed in all, which this run did not compare: not judged, not resolved.
  assert.deepEqual(comparison.resolved, []);
  assert.deepEqual(comparison.profilesDiffer, {
    notRun: [],
    notInBaseline: ["sampling"],
    notJudged: 1,
  });
  // Its profiles compared, a finding no longer produced is resolved.
  const judged = compareWithBaseline(current, findings, {
    ...BASELINE,
    findings: [candidate("none", "pick", ["roots"]), candidate("roots", "gone", ["none"])],
  }, { requireBaselineTools: false });
  assert.deepEqual(judged.resolved, [candidate("roots", "gone", ["none"])]);
  assert.equal(judged.profilesDiffer?.notJudged, 0);
});

Deno.test("compareWithBaseline: --require-baseline-tools makes each lost tool a defect, after the other findings", () => {
  const current = [
    { profile: "none", tools: ["echo"] },
    { profile: "roots", tools: ["echo", "pick"] },
  ] as const;
  const required: Finding = {
    kind: "required-tool-unavailable",
    profile: "none",
    tool: "zed",
    availableIn: [],
  };
  const comparison = compareWithBaseline(current, [required], BASELINE, {
    requireBaselineTools: true,
  });
  const kind = "baseline-tool-unavailable";
  assert.deepEqual(comparison.findings, [
    required,
    { kind, profile: "none", tool: "old", availableIn: [] },
    { kind, profile: "roots", tool: "old", availableIn: [] },
  ]);
  assert.deepEqual(comparison.states, ["new", "new", "new"]);
  // Both baseline candidates no longer occur in compared profiles; the one whose tool was listed
  // in all, not compared, is not called resolved.
  assert.deepEqual(comparison.resolved, [candidate("none", "pick", ["roots"])]);
  assert.equal(comparison.profilesDiffer, undefined);
});

Deno.test("compareWithBaseline: an incomplete run compares only complete catalogs and concludes nothing else", () => {
  const comparison = compareWithBaseline(
    [{ profile: "none", tools: ["echo"] }, { profile: "roots", tools: null }],
    null,
    BASELINE,
    { requireBaselineTools: true },
  );
  assert.deepEqual(comparison, {
    drift: [
      { profile: "none", compared: true, added: [], removed: ["old"] },
      { profile: "roots", compared: false, reason: "incomplete" },
    ],
    findings: [],
    states: [],
    resolved: [],
  });
});

Deno.test("selectBaseline: not a report, another server, an incomplete run", () => {
  assert.deepEqual(selectBaseline({ schema: "x" }, "demo"), {
    ok: false,
    problem: "not-a-report",
    at: "schema",
  });
  assert.deepEqual(selectBaseline([], "demo"), { ok: false, problem: "not-a-report" });
  const report = {
    schema: "mcpeval.guidance-report/v1",
    mcpeval_version: "0.1.0",
    server: "demo",
    transport: "stdio",
    protocol_version: "2025-06-18",
    reference_detection: "inline-code-known-tools",
    settings: {
      settle_ms: 0,
      timeout_ms: 100,
      max_pages: 20,
      max_tools: 10000,
      max_roots_requests_per_client_request: 8,
      max_message_bytes: 67108864,
    },
    required_tools: [],
    profiles: [{
      profile: "none",
      complete: true,
      instructions_present: false,
      tool_count: 1,
      tools: ["echo"],
      pages: 1,
      incomplete: null,
    }],
    candidates: [],
    defects: [],
    complete: true,
    passed: true,
  };
  const selected = selectBaseline(report, "demo");
  assert.ok(selected.ok);
  assert.deepEqual([...selected.baseline.catalogs], [["none", ["echo"]]]);
  assert.deepEqual(selectBaseline(report, "other"), { ok: false, problem: "another-server" });
  const incomplete = {
    ...report,
    profiles: [{
      ...report.profiles[0],
      complete: false,
      tool_count: null,
      tools: null,
      incomplete: { reason: "timeout", hint: INCOMPLETE_HINTS.timeout },
    }],
    complete: false,
    passed: null,
  };
  assert.deepEqual(selectBaseline(incomplete, "demo"), { ok: false, problem: "incomplete" });
  const tools = { ...report, profiles: [{ ...report.profiles[0], tools: ["echo", "two words"] }] };
  assert.deepEqual(selectBaseline(tools, "demo"), {
    ok: false,
    problem: "not-a-report",
    at: "profiles.0.tools.1",
  });
});
