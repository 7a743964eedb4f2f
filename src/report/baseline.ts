/**
 * An earlier report read as a baseline: validated against the report schema, checked to be a
 * complete run of the same server, and reduced to what the comparison needs.
 *
 * @module
 */
import type { Baseline } from "../analysis/baseline.ts";
import type { ProfileLabel } from "../profiles.ts";
import { GuidanceReportSchema, type ReportIssue } from "./schema.ts";
import type { GuidanceReport } from "./types.ts";

/** Why a value cannot be the baseline of a server. */
export type BaselineProblem =
  /** It does not validate against the report schema. */
  | "not-a-report"
  /** It is the report of another server label. */
  | "another-server"
  /** Its discovery did not complete, so it records no findings and not every catalog. */
  | "incomplete";

/** A baseline, or why the value cannot be one. */
export type BaselineSelection =
  | { readonly ok: true; readonly baseline: Baseline }
  | {
    readonly ok: false;
    readonly problem: BaselineProblem;
    /**
     * With `not-a-report`: where the first problem is, as a dotted path of schema property names
     * and array indexes (never anything else the value holds), when there is one.
     */
    readonly at?: string;
  };

/**
 * The baseline of `server` in `value`, a parsed `mcpeval.guidance-report/v1` report. Pure.
 *
 * @example
 * ```ts
 * const selection = selectBaseline(JSON.parse(text), "demo");
 * if (selection.ok) console.log(selection.baseline.catalogs.get("none"));
 * ```
 */
export function selectBaseline(value: unknown, server: string): BaselineSelection {
  const parsed = GuidanceReportSchema.safeParse(value);
  if (!parsed.success) {
    const at = pathOf(parsed.error.issues[0]);
    return { ok: false, problem: "not-a-report", ...(at === undefined ? {} : { at }) };
  }
  return baselineOf(parsed.data, server);
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
