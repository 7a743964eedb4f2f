/**
 * An earlier report read as a baseline, for what a comparison uses and nothing else: server
 * labels, whether each server was checked and complete, each profile's catalog, and each
 * finding's kind, profile, tool, the profiles it was available in, and its rule or suggestion.
 * Hints, phrases, settings and every other field's value are not read, so a report written by
 * any earlier 0.x mcpeval with the same schema id stays a valid baseline when wording or a
 * default changes; a top-level field that no report has is still refused (it is not a report).
 * An id of a later version is kept or left out, never refused (SPEC 10): a profile label this
 * version does not know is a profile this run did not select, and a finding of a kind or rule
 * it does not know is left out (it can neither match nor be shown).
 * Pure; the caller bounds the bytes and JSON containers before parsing.
 *
 * @module
 */
import type { Baseline, BaselineFinding } from "../analysis/baseline.ts";
import { FINDING_KINDS, type FindingKind } from "../analysis/rules.ts";
import { TOOL_FILTER_RULE_IDS, type ToolFilterRuleId } from "../analysis/tool_filters.ts";
import { RULE_KIND_IDS, type RuleKindId } from "../clients/rules/registry.ts";
import { OBSERVED_RULE, type ObservedRule } from "../analysis/observed.ts";
import { PROFILE_LABEL } from "../profiles.ts";
import { FLEET_FIELDS, FLEET_SCHEMA_ID } from "../report/fleet/schema.ts";
import { REPORT_FIELDS, REPORT_SCHEMA_ID } from "../report/schema.ts";
import { isToolName, SERVER_LABEL } from "../tool_name.ts";

/** One server's report as a baseline reads it. */
export interface BaselineRecord {
  /** Its server label. */
  readonly server: string;
  /** Whether its discovery completed. */
  readonly complete: boolean;
  /** Each profile with its catalog (null: that profile was incomplete); a label as it has it. */
  readonly profiles: readonly {
    readonly profile: string;
    readonly tools: readonly string[] | null;
  }[];
  /** Its candidates and defects of the kinds and rules this version knows. */
  readonly findings: readonly BaselineFinding[];
}

/** A baseline document: one server's report, or a fleet report's servers. */
export type BaselineDocument =
  | { readonly kind: "guidance"; readonly report: BaselineRecord }
  | {
    readonly kind: "fleet";
    /** Each server of the fleet report; `report` only for a checked one. */
    readonly servers: readonly { readonly name: string; readonly report?: BaselineRecord }[];
  };

/** Why a document cannot give the baseline of a server. */
export type BaselineProblem =
  /** It is neither a guidance nor a fleet report in the parts a baseline reads. */
  | "not-a-report"
  /** A guidance report of another server label. */
  | "another-server"
  /** A fleet report that lists no server of this label. */
  | "not-in-fleet"
  /** A fleet report that lists the server as not checked. */
  | "not-checked"
  /** The server's report is of a run whose discovery did not complete: no findings, partial catalogs. */
  | "incomplete";

/** A document, or why the value is not one. */
export type BaselineDocumentResult =
  | { readonly ok: true; readonly document: BaselineDocument }
  | {
    readonly ok: false;
    readonly problem: "not-a-report";
    /**
     * Where the first problem is, as a dotted path of report field names and array indexes
     * (never anything else the value holds), when there is one.
     */
    readonly at?: string;
  };

/** A server's baseline, or why there is none. */
export type BaselineSelection =
  | { readonly ok: true; readonly baseline: Baseline }
  | { readonly ok: false; readonly problem: BaselineProblem; readonly at?: string };

/** A baseline with no profile and no finding: every profile `not-in-baseline`, every finding new. */
export const EMPTY_BASELINE: Baseline = { catalogs: new Map(), findings: [] };

/** Thrown inside the reader with the path of the first problem. */
class Problem {
  constructor(readonly at: string) {}
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function object(value: unknown, at: string): Json {
  if (!isObject(value)) throw new Problem(at);
  return value;
}

function array(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new Problem(at);
  return value;
}

function boolean(value: unknown, at: string): boolean {
  if (typeof value !== "boolean") throw new Problem(at);
  return value;
}

function label(value: unknown, at: string): string {
  if (typeof value !== "string" || !SERVER_LABEL.test(value)) throw new Problem(at);
  return value;
}

/** A profile label: one of this version's, or a later version's (kept as it is). */
function profileLabel(value: unknown, at: string): string {
  if (typeof value !== "string" || !PROFILE_LABEL.test(value)) throw new Problem(at);
  return value;
}

function toolName(value: unknown, at: string): string {
  if (!isToolName(value)) throw new Problem(at);
  return value;
}

const KINDS: ReadonlySet<string> = new Set(FINDING_KINDS);
const isKind = (kind: string): kind is FindingKind => KINDS.has(kind);

/** A rule id of one of the two vocabularies a finding's `rule` names. */
type RuleId = RuleKindId | ToolFilterRuleId | ObservedRule;
const CLIENT_RULES: ReadonlySet<RuleId> = new Set(RULE_KIND_IDS);
/** A tool hidden in a client profile: by a client rule, or (observed) not received. */
const HIDING_RULES: ReadonlySet<RuleId> = new Set([...RULE_KIND_IDS, OBSERVED_RULE]);
const FILTER_RULES: ReadonlySet<RuleId> = new Set(TOOL_FILTER_RULE_IDS);

/** The rules a kind's `rule` names (a config filter, or a client rule); none for other kinds. */
function rulesOf(kind: FindingKind): ReadonlySet<RuleId> | undefined {
  if (kind === "tool-disabled-in-config" || kind === "required-tool-unavailable") {
    return FILTER_RULES;
  }
  if (kind === "tool-unreachable-in-client") return HIDING_RULES;
  if (kind === "tool-cap-exceeded-in-client" || kind === "preset-disagrees-with-client") {
    return CLIENT_RULES;
  }
  return undefined;
}

/** Whether `rule` is one of `rules` (an id this version knows, of the vocabulary its kind names). */
const isRule = (rules: ReadonlySet<RuleId>, rule: unknown): rule is RuleId =>
  typeof rule === "string" && (rules as ReadonlySet<string>).has(rule);

/**
 * One finding, or undefined for one this version does not know (a kind or rule added or renamed
 * since): it can neither match nor be shown, so it is left out, not refused.
 */
function finding(value: unknown, at: string): BaselineFinding | undefined {
  const entry = object(value, at);
  const kind = entry.kind;
  if (typeof kind !== "string") throw new Problem(`${at}.kind`);
  if (!isKind(kind)) return undefined;
  const availableIn = array(entry.available_in ?? [], `${at}.available_in`).map((profile, i) =>
    profileLabel(profile, `${at}.available_in.${i}`)
  );
  const rules = rulesOf(kind);
  const rule = entry.rule;
  // A kind that names a rule names one this version knows; any other kind names none. A
  // required tool names one only when a config file's filter hides it.
  const ruleOptional = (kind === "required-tool-unavailable" ||
    kind === "preset-disagrees-with-client") && rule === undefined;
  if (rules === undefined ? rule !== undefined : !ruleOptional && !isRule(rules, rule)) {
    return undefined;
  }
  const suggestion = entry.suggestion === undefined || entry.suggestion === null
    ? undefined
    : toolName(entry.suggestion, `${at}.suggestion`);
  return {
    kind,
    profile: profileLabel(entry.profile, `${at}.profile`),
    tool: toolName(entry.tool, `${at}.tool`),
    availableIn,
    ...(rules !== undefined && isRule(rules, rule) ? { rule } : {}),
    ...(suggestion === undefined ? {} : { suggestion }),
    ...(kind === "preset-disagrees-with-client"
      ? { observed: profileLabel(entry.observed_profile, `${at}.observed_profile`) }
      : {}),
  };
}

/** The document's `schema` and `mcpeval_version`, and no top-level field outside `fields`. */
function header(document: Json, id: string, fields: readonly string[], prefix: string): void {
  if (document.schema !== id) throw new Problem(`${prefix}schema`);
  if (typeof document.mcpeval_version !== "string") throw new Problem(`${prefix}mcpeval_version`);
  // Known fields only; the path names none of the others (their names are the file's text).
  if (Object.keys(document).some((key) => !fields.includes(key))) throw new Problem(at(prefix));
}

const at = (prefix: string) => prefix.replace(/\.$/, "");

function report(value: unknown, where: string): BaselineRecord {
  const document = object(value, where);
  const prefix = where === "" ? "" : `${where}.`;
  header(document, REPORT_SCHEMA_ID, REPORT_FIELDS, prefix);
  const profiles = array(document.profiles, `${prefix}profiles`).map((entry, i) => {
    const where = `${prefix}profiles.${i}`;
    const profile = object(entry, where);
    const tools = profile.tools === null || profile.tools === undefined
      ? null
      : array(profile.tools, `${where}.tools`).map((tool, j) =>
        toolName(tool, `${where}.tools.${j}`)
      );
    return { profile: profileLabel(profile.profile, `${where}.profile`), tools };
  });
  const findings: BaselineFinding[] = [];
  for (const field of ["candidates", "defects"] as const) {
    array(document[field] ?? [], `${prefix}${field}`).forEach((entry, i) => {
      const read = finding(entry, `${prefix}${field}.${i}`);
      if (read) findings.push(read);
    });
  }
  return {
    server: label(document.server, `${prefix}server`),
    complete: boolean(document.complete, `${prefix}complete`),
    profiles,
    findings,
  };
}

function fleet(value: Json): BaselineDocument {
  header(value, FLEET_SCHEMA_ID, FLEET_FIELDS, "");
  const servers = array(value.servers, "servers").map((entry, i) => {
    const server = object(entry, `servers.${i}`);
    const name = label(server.name, `servers.${i}.name`);
    if (!boolean(server.checked, `servers.${i}.checked`)) return { name };
    return { name, report: report(server.report, `servers.${i}.report`) };
  });
  return { kind: "fleet", servers };
}

/**
 * `value` (parsed JSON) as a baseline document: a fleet report when its `schema` says so, else a
 * guidance report. Pure.
 *
 * @example
 * ```ts
 * const read = baselineDocument(JSON.parse(text));
 * if (read.ok) console.log(read.document.kind);
 * ```
 */
export function baselineDocument(value: unknown): BaselineDocumentResult {
  try {
    const document = isObject(value) && value.schema === FLEET_SCHEMA_ID
      ? fleet(value)
      : { kind: "guidance" as const, report: report(value, "") };
    return { ok: true, document };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    return { ok: false, problem: "not-a-report", ...(error.at === "" ? {} : { at: error.at }) };
  }
}

/** The baseline of `server` in a document: its report, picked by label from a fleet. Pure. */
export function baselineFor(document: BaselineDocument, server: string): BaselineSelection {
  if (document.kind === "guidance") return baselineOf(document.report, server);
  const entry = document.servers.find((candidate) => candidate.name === server);
  if (entry === undefined) return { ok: false, problem: "not-in-fleet" };
  if (entry.report === undefined) return { ok: false, problem: "not-checked" };
  return baselineOf(entry.report, server);
}

/**
 * The baseline of `server` in `value`, a parsed guidance or fleet report. Pure.
 *
 * @example
 * ```ts
 * const selection = selectBaseline(JSON.parse(text), "demo");
 * if (selection.ok) console.log(selection.baseline.catalogs.get("none"));
 * ```
 */
export function selectBaseline(value: unknown, server: string): BaselineSelection {
  const read = baselineDocument(value);
  return read.ok ? baselineFor(read.document, server) : read;
}

/** The server labels a document has a checked report for, in its order. */
export function baselineServers(document: BaselineDocument): string[] {
  return document.kind === "guidance"
    ? [document.report.server]
    : document.servers.flatMap((server) => server.report ? [server.name] : []);
}

function baselineOf(report: BaselineRecord, server: string): BaselineSelection {
  if (report.server !== server) return { ok: false, problem: "another-server" };
  if (!report.complete) return { ok: false, problem: "incomplete" };
  const catalogs = new Map<string, readonly string[]>();
  for (const profile of report.profiles) {
    if (profile.tools !== null) catalogs.set(profile.profile, profile.tools);
  }
  return { ok: true, baseline: { catalogs, findings: report.findings } };
}
