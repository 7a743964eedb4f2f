/**
 * The library's public names (`jsr:@mcpeval/guidance/lib`, mod.ts): the run functions, their
 * request and report types, the schemas, the errors and the facts a report's values come from.
 * CLI internals and the single-format renderers are not among them. A name added or removed
 * here is a change of the library's API.
 */
import assert from "node:assert/strict";
import { DENO, ROOT } from "./_cli.ts";

const PUBLIC_NAMES = [
  "AUTO",
  "Baseline",
  "BaselineFile",
  "BaselineReport",
  "BaselineState",
  "BaselineToolDefectReport",
  "BaselineValue",
  "CLIENT_RULE_IDS",
  "CONFIG_FIELDS",
  "CandidateReport",
  "CapEffect",
  "CapExceededCandidateReport",
  "CheckedServer",
  "ClientPreset",
  "ClientProfile",
  "ClientReport",
  "ClientRule",
  "ClientRuleId",
  "ComparedProfileDrift",
  "ComparisonRequest",
  "CompleteProfileReport",
  "ConfigField",
  "ConfigFormat",
  "ConfigRunInput",
  "ConfigSelection",
  "CutUnit",
  "DETAIL_PHRASES",
  "DefectReport",
  "Deferral",
  "DetailCause",
  "DisabledInConfigCandidateReport",
  "FILTERED_REQUIRED_HINT",
  "FORMAT_TABLE",
  "FieldLabels",
  "FileTooLargeError",
  "Finding",
  "FindingClass",
  "FindingKind",
  "FleetParseResult",
  "FleetReport",
  "FleetReportSchema",
  "FleetSchema",
  "FleetServer",
  "FleetShardReport",
  "Format",
  "FormatId",
  "GuidanceInput",
  "GuidanceReport",
  "GuidanceReportSchema",
  "HttpTarget",
  "HttpTargetInput",
  "INCOMPLETE_HINTS",
  "IncompleteDetailReport",
  "IncompleteProfileReport",
  "IncompleteReason",
  "IncompleteReport",
  "InstructionsHandling",
  "KnownIds",
  "NOT_CHECKED_HINTS",
  "NOT_CHECKED_REASONS",
  "NotCheckedReason",
  "NotCheckedServer",
  "NotComparedProfileDrift",
  "ObservedRef",
  "OutputRequest",
  "PROFILES",
  "PROTOCOL_VERSIONS",
  "ParsedRule",
  "Profile",
  "ProfileDrift",
  "ProfileLabel",
  "ProfileReport",
  "ProfilesDifferReport",
  "ProtocolSetting",
  "ProtocolVersion",
  "REVISIONS",
  "RULES",
  "RULE_KINDS",
  "ReferenceCutCandidateReport",
  "ReferencedCandidateReport",
  "ReportFile",
  "ReportIds",
  "ReportIssue",
  "ReportParseResult",
  "ReportSchema",
  "RequestError",
  "RequestField",
  "RequiredToolDefectReport",
  "ResolvedFindingReport",
  "Revision",
  "Rule",
  "RuleEffect",
  "RuleKindId",
  "RunConfigOptions",
  "RunError",
  "RunGuidanceOptions",
  "RunInput",
  "RunRequest",
  "RunSettings",
  "SIGNALS",
  "SarifLocation",
  "ServerSelection",
  "ServerStderr",
  "Shard",
  "SignalName",
  "SpawnError",
  "StdioTarget",
  "StdioTargetInput",
  "TOOL_FILTER_RULE_IDS",
  "Target",
  "TargetInput",
  "TextCut",
  "ToolEffect",
  "ToolFilterRuleId",
  "UnknownFindingReport",
  "UnknownReferenceReport",
  "UnreachableCandidateReport",
  "UserError",
  "fleetJsonSchema",
  "parsePresets",
  "reportJsonSchema",
  "runConfig",
  "runGuidance",
  "validateComparison",
  "validateRun",
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
});

Deno.test("mod.ts: the values a library user calls or reads, none of the CLI's", async () => {
  const library = await import("../mod.ts");
  for (const name of ["runGuidance", "runConfig", "GuidanceReportSchema", "FleetReportSchema"]) {
    assert.ok(name in library, name);
  }
  for (const name of ["run", "processContext", "renderText", "renderSarif", "FORMATS"]) {
    assert.ok(!(name in library), name);
  }
});
