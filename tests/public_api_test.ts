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
  "BaselineToolDefectReport",
  "CONFIG_FIELDS",
  "CandidateReport",
  "CapExceededCandidateReport",
  "CheckedServer",
  "ClientProfile",
  "ClientReport",
  "ComparedProfileDrift",
  "CompleteProfileReport",
  "ConfigField",
  "ConfigFormat",
  "DETAIL_PHRASES",
  "DefectReport",
  "DetailCause",
  "DisabledInConfigCandidateReport",
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
  "IncompleteProfileReport",
  "IncompleteReason",
  "IncompleteReport",
  "KnownIds",
  "NOT_CHECKED_HINTS",
  "NotCheckedReason",
  "NotCheckedServer",
  "NotComparedProfileDrift",
  "ObservedLabel",
  "ObservedReport",
  "ObservedRule",
  "PROFILES",
  "PROTOCOL_VERSIONS",
  "PresetDisagreesCandidateReport",
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
  "ReferenceCutCandidateReport",
  "ReferencedCandidateReport",
  "ReportIds",
  "ReportIssue",
  "ReportParseResult",
  "ReportSchema",
  "RequestError",
  "RequiredToolDefectReport",
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
  "UnreachableCandidateReport",
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
  // The surface a library user needs (issue 38): a name more is a name to keep.
  // 80 before --observe, whose report types (its label, rule, report and candidate) a reader needs.
  assert.ok(PUBLIC_NAMES.length <= 85, `${PUBLIC_NAMES.length} names`);
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
