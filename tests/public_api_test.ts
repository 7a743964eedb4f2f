/**
 * The library's public names (`jsr:@mcpeval/guidance/lib`, mod.ts): the run functions, what they
 * take, throw and give (the reports and their schemas), and the facts a report's values come
 * from. The validator, the request and plan types, CLI internals and the single-format renderers
 * are not among them, and each thing has one name. A name added or removed here is a change of
 * the library's API.
 */
import assert from "node:assert/strict";
import { DENO, ROOT } from "./_cli.ts";

const PUBLIC_NAMES = [
  "AUTO",
  "BaselineInput",
  "BaselineReport",
  "BaselineState",
  "CONFIG_FIELDS",
  "CandidateReport",
  "ClientProfile",
  "ClientReport",
  "ConfigField",
  "ConfigFormat",
  "DETAIL_PHRASES",
  "DefectReport",
  "DetailCause",
  "FILTERED_REQUIRED_HINT",
  "FindingKind",
  "FleetInput",
  "FleetParseResult",
  "FleetReport",
  "FleetReportSchema",
  "FleetSchema",
  "FleetServer",
  "FleetShardReport",
  "GuidanceInput",
  "GuidanceReport",
  "GuidanceReportSchema",
  "HttpTargetInput",
  "INCOMPLETE_HINTS",
  "IncompleteDetailReport",
  "IncompleteReason",
  "IncompleteReport",
  "KnownIds",
  "NOT_CHECKED_HINTS",
  "NotCheckedReason",
  "ObservedLabel",
  "ObservedReport",
  "ObservedRule",
  "PROFILES",
  "PROTOCOL_VERSIONS",
  "Profile",
  "ProfileDrift",
  "ProfileLabel",
  "ProfileReport",
  "ProfilesDifferReport",
  "ProtocolVersion",
  "REVISIONS",
  "RULES",
  "RULE_KINDS",
  "RULE_KIND_IDS",
  "ReportIds",
  "ReportIssue",
  "ReportParseResult",
  "ReportSchema",
  "RequestError",
  "ResolvedFindingReport",
  "RuleKindId",
  "RunConfigOptions",
  "RunError",
  "RunGuidanceOptions",
  "SIGNALS",
  "SettingsInput",
  "SignalName",
  "SpawnError",
  "StdioTargetInput",
  "TOOL_FILTER_RULE_IDS",
  "TargetInput",
  "ToolFilterRuleId",
  "UnknownFindingReport",
  "UnknownReferenceReport",
  "UserError",
  "runConfig",
  "runGuidance",
];

Deno.test("mod.ts exports exactly the library's public names", async () => {
  const output = await new Deno.Command(DENO, {
    args: ["doc", "--json", "mod.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(output.success, "deno doc --json mod.ts");
  const doc = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols: { name: string }[] }>;
  };
  const [module] = Object.values(doc.nodes);
  const names = [...new Set(module.symbols.map((symbol) => symbol.name))].sort();
  assert.deepEqual(names, PUBLIC_NAMES);
  // The surface a library user needs (issue 38): a name more is a name to keep. The parts of a
  // report (each candidate, defect, profile and server shape) are named in ./report instead.
  assert.ok(PUBLIC_NAMES.length <= 80, `${PUBLIC_NAMES.length} names`);
});

Deno.test("./report (src/report/mod.ts) names every part of a report the library's reports hold", async () => {
  const output = await new Deno.Command(DENO, {
    args: ["doc", "--json", "src/report/mod.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(output.success, "deno doc --json src/report/mod.ts");
  const doc = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols: { name: string }[] }>;
  };
  const [module] = Object.values(doc.nodes);
  const names = new Set(module.symbols.map((symbol) => symbol.name));
  for (
    const part of [
      "ReferencedCandidateReport",
      "ReferenceCutCandidateReport",
      "UnreachableCandidateReport",
      "CapExceededCandidateReport",
      "DisabledInConfigCandidateReport",
      "PresetDisagreesCandidateReport",
      "RequiredToolDefectReport",
      "BaselineToolDefectReport",
      "CompleteProfileReport",
      "IncompleteProfileReport",
      "ComparedProfileDrift",
      "NotComparedProfileDrift",
      "CheckedServer",
      "NotCheckedServer",
      "GuidanceReport",
      "FleetReport",
    ]
  ) {
    assert.ok(names.has(part), part);
  }
});

Deno.test("mod.ts: the values a library user calls or reads, none of the CLI's", async () => {
  const library = await import("../mod.ts");
  for (const name of ["runGuidance", "runConfig", "GuidanceReportSchema", "FleetReportSchema"]) {
    assert.ok(name in library, name);
  }
  const internal = ["validateRun", "parsePresets", "FieldLabels", "RequestField", "ObservedRef"];
  for (
    const name of ["run", "processContext", "renderText", "renderSarif", "FORMATS", ...internal]
  ) {
    assert.ok(!(name in library), name);
  }
});
