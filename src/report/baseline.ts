/**
 * An earlier report read as a baseline: a guidance report, or a fleet report whose entries are
 * picked by server label. Validated against its schema, checked to be a complete run of the
 * server asked for, and reduced to what the comparison needs.
 *
 * @module
 */
import type { Baseline } from "../analysis/baseline.ts";
import type { ProfileLabel } from "../profiles.ts";
import { FLEET_SCHEMA_ID, FleetReportSchema } from "./fleet/schema.ts";
import type { FleetReport } from "./fleet/types.ts";
import { GuidanceReportSchema, type ReportIssue } from "./schema.ts";
import type { GuidanceReport } from "./types.ts";

/** A validated baseline document: one server's report, or a fleet's. */
export type BaselineDocument =
  | { readonly kind: "guidance"; readonly report: GuidanceReport }
  | { readonly kind: "fleet"; readonly fleet: FleetReport };

/** Why a document cannot give the baseline of a server. */
export type BaselineProblem =
  /** It validates against neither the guidance nor the fleet report schema. */
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
     * Where the first problem is, as a dotted path of schema property names and array indexes
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

/**
 * `value` (parsed JSON) as a baseline document: a fleet report when its `schema` says so, else a
 * guidance report. Pure.
 */
export function baselineDocument(value: unknown): BaselineDocumentResult {
  const fleet = typeof value === "object" && value !== null &&
    (value as { schema?: unknown }).schema === FLEET_SCHEMA_ID;
  const parsed = fleet ? FleetReportSchema.safeParse(value) : GuidanceReportSchema.safeParse(value);
  if (!parsed.success) {
    const at = pathOf(parsed.error.issues[0]);
    return { ok: false, problem: "not-a-report", ...(at === undefined ? {} : { at }) };
  }
  return {
    ok: true,
    document: fleet
      ? { kind: "fleet", fleet: parsed.data as FleetReport }
      : { kind: "guidance", report: parsed.data as GuidanceReport },
  };
}

/** The baseline of `server` in a document: its report, picked by label from a fleet. Pure. */
export function baselineFor(document: BaselineDocument, server: string): BaselineSelection {
  if (document.kind === "guidance") return baselineOf(document.report, server);
  const entry = document.fleet.servers.find((candidate) => candidate.name === server);
  if (entry === undefined) return { ok: false, problem: "not-in-fleet" };
  if (!entry.checked) return { ok: false, problem: "not-checked" };
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

/** A validated report as the baseline of `server`. */
export function baselineOf(report: GuidanceReport, server: string): BaselineSelection {
  if (report.server !== server) return { ok: false, problem: "another-server" };
  if (!report.complete) return { ok: false, problem: "incomplete" };
  const catalogs = new Map<ProfileLabel, readonly string[]>();
  for (const profile of report.profiles) {
    if (profile.tools !== null) catalogs.set(profile.profile, profile.tools);
  }
  const findings = [...report.candidates, ...report.defects].map((finding) => ({
    kind: finding.kind,
    profile: finding.profile,
    tool: finding.tool,
    availableIn: finding.available_in,
    ...("rule" in finding ? { rule: finding.rule } : {}),
    ...("suggestion" in finding && finding.suggestion !== undefined
      ? { suggestion: finding.suggestion }
      : {}),
  }));
  return { ok: true, baseline: { catalogs, findings } };
}

/** A schema issue's path, when every part is a schema property name or an index. */
function pathOf(issue: ReportIssue | undefined): string | undefined {
  if (issue === undefined || issue.path.length === 0) return undefined;
  const parts = issue.path.map((part) =>
    typeof part === "number" || (typeof part === "string" && /^[a-z_]{1,40}$/.test(part))
      ? String(part)
      : undefined
  );
  return parts.every((part) => part !== undefined) ? parts.join(".") : undefined;
}
