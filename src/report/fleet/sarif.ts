/**
 * The fleet SARIF renderer: one run across every server, the guidance rules plus one for a
 * server that was not checked.
 *
 * @module
 */
import {
  type SarifLocation,
  type SarifOptions,
  sarifResults,
  type SarifRule,
  sarifRules,
  sarifTool,
} from "../sarif.ts";
import { notCheckedText } from "./phrases.ts";
import type { FleetReport } from "./types.ts";

const NOT_CHECKED_RULE: SarifRule = {
  id: "server-not-checked",
  name: "ServerNotChecked",
  shortDescription: { text: "A configured server was not checked" },
  fullDescription: { text: "A configured server was not checked." },
  help: {
    text:
      "An entry of the config file could not be checked (disabled, legacy SSE, an unset variable, ...); fix the cause or deselect it with --server.",
  },
  defaultConfiguration: { level: "error" },
};

/** Where results point without `--sarif-location` or a relative config path: a name. */
const FLEET_LOCATION: SarifLocation = { path: "mcpeval/config", line: 1 };

/**
 * The fleet report as one SARIF 2.1.0 run across servers; every result points at `location`
 * (the config file when the CLI knows it as a relative path).
 */
export function renderFleetSarif(fleet: FleetReport, options: SarifOptions = {}): string {
  const location = options.location ?? FLEET_LOCATION;
  const rules = [
    ...sarifRules(...fleet.servers.flatMap((server) => server.checked ? [server.report] : [])),
    NOT_CHECKED_RULE,
  ];
  const results = fleet.servers.flatMap((server) =>
    server.checked ? sarifResults(server.report, rules, location) : [{
      ruleId: NOT_CHECKED_RULE.id,
      ruleIndex: rules.length - 1,
      level: "error",
      message: { text: `${server.name}: ${notCheckedText(server)}. ${server.hint}` },
      locations: [{
        physicalLocation: {
          artifactLocation: { uri: location.path.split("/").map(encodeURIComponent).join("/") },
          region: { startLine: location.line },
        },
        logicalLocations: [{
          name: server.name,
          fullyQualifiedName: server.name,
          kind: "module",
        }],
      }],
      partialFingerprints: {
        "mcpevalResult/v1": [NOT_CHECKED_RULE.id, server.name].join("/"),
      },
      properties: { reason: server.reason, ...(server.field ? { field: server.field } : {}) },
    }]
  );
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: sarifTool(fleet.mcpeval_version, rules),
      automationDetails: { id: `mcpeval-guidance/config/` },
      invocations: [{ executionSuccessful: fleet.complete }],
      results,
      properties: {
        config_format: fleet.config_format,
        servers: fleet.servers.map((server) => server.name),
        complete: fleet.complete,
        passed: fleet.passed,
      },
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
