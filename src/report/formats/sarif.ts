/**
 * The SARIF 2.1.0 format, for GitHub code scanning: one run with a rule per finding kind and a
 * result per finding at a physical location; for a config run, one run across every server
 * with a rule for a server that was not checked.
 *
 * @module
 */
import { FINDING_KINDS, RULES } from "../../analysis/rules.ts";
import {
  findingHint,
  findingKindApplies,
  findingSentence,
  findingsOf,
  gates,
  incompleteExplanation,
  incompleteSentence,
  kindHint,
  knows,
  presentationOf,
  profilesDifferSentence,
  resolvedSentence,
} from "../phrases.ts";
import { notCheckedHint, notCheckedText } from "../fleet/phrases.ts";
import type { FleetServer, FleetStream } from "../fleet/types.ts";
import { jsonPieces, NO_ITEM } from "../json_pieces.ts";
import type { RenderSource } from "../run.ts";
import { type FormatValues, SARIF_LOCATION, type SarifLocation, valueOf } from "./options.ts";

export type { SarifLocation };
import type { GuidanceReport, ReportIds } from "../types.ts";

/** How to render SARIF: its own option among the formats' (`--sarif-location`). */
export interface SarifOptions {
  /**
   * The formats' own options given: `sarif-location`, the physical location of every result; by
   * default `mcpeval/SERVER` (a name, not a file), line 1.
   */
  readonly values?: FormatValues;
}

/** The location of every result when none is given: a name for the server, not a file. */
export function defaultSarifLocation(server: string): SarifLocation {
  return { path: `mcpeval/${server}`, line: 1 };
}

/** A SARIF reporting descriptor (a rule). */
export interface SarifRule {
  readonly id: string;
  readonly name: string;
  readonly shortDescription: { readonly text: string };
  readonly fullDescription?: { readonly text: string };
  readonly help: { readonly text: string };
  readonly defaultConfiguration: { readonly level: "warning" | "error" };
}

/** The rule of an incomplete profile. */
export const INCOMPLETE_RULE = {
  id: "profile-incomplete",
  name: "ProfileIncomplete",
  shortDescription: { text: "Discovery did not complete for a profile" },
  fullDescription: {
    text:
      "mcpeval could not finish discovery (initialize, the settle window, paged tools/list) for this client capability profile, so its catalog is unknown.",
  },
  help: {
    text:
      "Incomplete discovery is not evidence that a tool is unavailable; fix the cause and run again.",
  },
  defaultConfiguration: { level: "error" },
} as const;

/**
 * The SARIF rules of reports: the finding kinds their runs could produce, then the kinds of
 * their findings (and resolved ones) that this version does not know, then incomplete. The
 * reports are read once, one at a time.
 */
export function sarifRules(reports: Iterable<GuidanceReport<ReportIds>>): SarifRule[] {
  const kinds = new RuleKinds();
  for (const report of reports) kinds.add(report);
  return kinds.rules();
}

/**
 * The finding kinds of reports' rules, gathered a report at a time: those their runs could
 * produce, and those of their findings (and resolved ones) that this version does not know, in
 * the order they first appear.
 */
class RuleKinds {
  readonly #applies = new Set<string>();
  readonly #unknown = new Set<string>();

  /** Adds the kinds of `report`. */
  add(report: GuidanceReport<ReportIds>): void {
    for (const kind of FINDING_KINDS) {
      if (!this.#applies.has(kind) && findingKindApplies(report, kind)) this.#applies.add(kind);
    }
    for (const findings of [findingsOf(report), report.baseline?.resolved ?? []]) {
      for (const { kind } of findings) if (!knows(RULES, kind)) this.#unknown.add(kind);
    }
  }

  /** The rules of the kinds added: known ones in rule order, then unknown ones, then incomplete. */
  rules(): SarifRule[] {
    return [
      ...FINDING_KINDS.filter((kind) => this.#applies.has(kind)),
      ...this.#unknown,
    ].map((kind): SarifRule => ({
      id: kind,
      name: presentationOf(kind).sarifName,
      shortDescription: { text: presentationOf(kind).summary },
      fullDescription: { text: presentationOf(kind).summary + "." },
      help: { text: kindHint(kind) },
      // A kind this version does not know: each of its results says its own level.
      defaultConfiguration: {
        level: knows(RULES, kind) && RULES[kind].gates ? "error" : "warning",
      },
    })).concat(INCOMPLETE_RULE);
  }
}

type BaselineState = "new" | "unchanged" | "absent";

/** A finding's baseline state as SARIF has it (none for a state this version does not know). */
function stateOf(state: string | undefined): BaselineState | undefined {
  return state === "new" || state === "unchanged" ? state : undefined;
}

/** A location's path as a URI reference, once per location (every result has the same). */
function uriOf(location: SarifLocation): string {
  let uri = URIS.get(location);
  if (uri === undefined) {
    uri = location.path.split("/").map(encodeURIComponent).join("/");
    URIS.set(location, uri);
  }
  return uri;
}

const URIS = new WeakMap<SarifLocation, string>();

/** Each rule's index in `rules`, indexed once per list of rules (a result looks its rule up). */
function ruleIndexOf(rules: readonly { readonly id: string }[], id: string): number {
  let indexes = RULE_INDEXES.get(rules);
  if (indexes === undefined) {
    indexes = new Map();
    for (const [index, rule] of rules.entries()) {
      if (!indexes.has(rule.id)) indexes.set(rule.id, index);
    }
    RULE_INDEXES.set(rules, indexes);
  }
  return indexes.get(id) ?? -1;
}

const RULE_INDEXES = new WeakMap<readonly { readonly id: string }[], Map<string, number>>();

function result(
  report: GuidanceReport<ReportIds>,
  location: SarifLocation,
  rules: readonly { readonly id: string }[],
  ruleId: string,
  level: "warning" | "error" | "none",
  text: string,
  profile: string,
  tool?: string,
  properties: Record<string, unknown> = {},
  baselineState?: BaselineState,
) {
  const name = tool ?? profile;
  return {
    ruleId,
    ruleIndex: ruleIndexOf(rules, ruleId),
    ...(baselineState === "absent" ? { kind: "pass" } : {}),
    level,
    ...(baselineState === undefined ? {} : { baselineState }),
    message: { text },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: uriOf(location) },
        region: { startLine: location.line },
      },
      logicalLocations: [{
        name,
        fullyQualifiedName: [report.server, profile, ...(tool === undefined ? [] : [tool])].join(
          "/",
        ),
        kind: tool === undefined ? "module" : "function",
      }],
    }],
    // Stable across runs, so that code scanning matches a result with its earlier alert.
    partialFingerprints: {
      "mcpevalResult/v1": [ruleId, report.server, profile, tool ?? ""].join("/"),
    },
    properties: { profile, ...properties },
  };
}

/** The report as a SARIF 2.1.0 log that GitHub code scanning accepts, in pieces. */
function serverLog(report: GuidanceReport<ReportIds>, options: SarifOptions): Iterable<string> {
  const location = valueOf(options.values, SARIF_LOCATION) ??
    defaultSarifLocation(report.server);
  const rules = sarifRules([report]);
  const results = sarifResults(report, rules, location);
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: sarifTool(report.mcpeval_version, rules),
      automationDetails: { id: `mcpeval-guidance/${report.server}/` },
      invocations: [{
        executionSuccessful: report.complete,
        ...(report.baseline?.profiles_differ
          ? {
            toolExecutionNotifications: [{
              level: "warning",
              message: { text: `${profilesDifferSentence(report.baseline.profiles_differ)}.` },
            }],
          }
          : {}),
      }],
      results,
      properties: {
        server: report.server,
        transport: report.transport,
        complete: report.complete,
        passed: report.passed,
      },
    }],
  };
  return jsonPieces(log);
}

/** The SARIF tool object: mcpeval and its rules. */
export function sarifTool(version: string, rules: readonly SarifRule[]): Record<string, unknown> {
  return {
    driver: {
      name: "mcpeval",
      version,
      informationUri: "https://jsr.io/@mcpeval/guidance",
      rules,
    },
  };
}

/**
 * A report's SARIF results (incomplete profiles, findings), indexing into `rules`, each at
 * `location`; one at a time, as they are written.
 */
export function* sarifResults(
  report: GuidanceReport<ReportIds>,
  rules: readonly SarifRule[],
  location: SarifLocation = defaultSarifLocation(report.server),
): Generator<Record<string, unknown>> {
  // The baseline is a complete run, so an incomplete profile is always new.
  const incompleteState = report.baseline === undefined ? undefined : "new";
  for (const profile of report.profiles) {
    if (profile.complete) continue;
    yield result(
      report,
      location,
      rules,
      "profile-incomplete",
      "error",
      `${incompleteSentence(profile)}. ${incompleteExplanation(profile.incomplete)}`,
      profile.profile,
      undefined,
      {
        reason: profile.incomplete.reason,
        ...(profile.incomplete.http_status === undefined
          ? {}
          : { http_status: profile.incomplete.http_status }),
      },
      incompleteState,
    );
  }
  for (const f of findingsOf(report)) {
    yield result(
      report,
      location,
      rules,
      f.kind,
      gates(f, report) ? "error" : "warning",
      `${findingSentence(f, report)}. ${findingHint(f)}`,
      f.profile,
      f.tool,
      { available_in: f.available_in },
      stateOf(f.baseline_state),
    );
  }
  for (const f of report.baseline?.resolved ?? []) {
    yield result(
      report,
      location,
      rules,
      f.kind,
      "none",
      `Resolved since the baseline: ${resolvedSentence(f)}.`,
      f.profile,
      f.tool,
      { available_in: f.available_in },
      "absent",
    );
  }
}

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
 * The fleet report as one SARIF 2.1.0 run across servers, in pieces; every result points at
 * `location` (the config file when the CLI knows it as a relative path). The servers are read
 * three times, one at a time: for the rules, the results, and their names.
 */
function* fleetLog(fleet: FleetStream<ReportIds>, options: SarifOptions): Generator<string> {
  const location = valueOf(options.values, SARIF_LOCATION) ?? FLEET_LOCATION;
  const kinds = new RuleKinds();
  for (const server of fleet.servers) {
    if (server.checked) kinds.add(server.report);
    // Nothing to write yet: an empty piece lets the writer give the event loop its turn.
    yield "";
  }
  const rules = [...kinds.rules(), NOT_CHECKED_RULE];
  function* results() {
    for (const server of fleet.servers) {
      yield* serverResults(server, rules, location);
      // Most servers may have no result: each still lets the writer give the event loop a turn.
      yield NO_ITEM;
    }
  }
  function* names() {
    for (const server of fleet.servers) yield server.name;
  }
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: sarifTool(fleet.mcpeval_version, rules),
      automationDetails: { id: `mcpeval-guidance/config/` },
      invocations: [{ executionSuccessful: fleet.complete }],
      results: results(),
      properties: {
        config_format: fleet.config_format,
        servers: names(),
        complete: fleet.complete,
        passed: fleet.passed,
      },
    }],
  };
  yield* jsonPieces(log);
}

/** A fleet server's results: its report's, or one for a server not checked. */
function serverResults(
  server: FleetServer<ReportIds>,
  rules: readonly SarifRule[],
  location: SarifLocation,
): Iterable<Record<string, unknown>> {
  return server.checked ? sarifResults(server.report, rules, location) : [{
    ruleId: NOT_CHECKED_RULE.id,
    ruleIndex: rules.length - 1,
    level: "error",
    message: { text: `${server.name}: ${notCheckedText(server)}. ${notCheckedHint(server)}` },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: uriOf(location) },
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
  }];
}

/**
 * The source as a SARIF 2.1.0 log that GitHub code scanning accepts, in pieces (results at the
 * `sarif-location` of `options.values`; a fleet's servers read one at a time).
 *
 * @example
 * ```ts
 * const location = { path: "src/server.ts", line: 12 };
 * const sarif = [...render({ kind: "server", report }, { values: { "sarif-location": location } })]
 *   .join("");
 * ```
 */
export function render(source: RenderSource, options: SarifOptions = {}): Iterable<string> {
  return source.kind === "server"
    ? serverLog(source.report, options)
    : fleetLog(source.fleet, options);
}
