/**
 * The baseline of a run (`--baseline`, or `baseline` in the library), validated: an earlier
 * complete report of the same server. Kept apart from `request.ts` so that parsing a command
 * line does not load the report schema.
 *
 * @module
 */
import type { Baseline } from "./analysis/baseline.ts";
import { type BaselineProblem, selectBaseline } from "./report/baseline.ts";
import { REPORT_SCHEMA_ID } from "./report/schema.ts";
import { type FieldLabels, type GuidanceInput, LIBRARY_LABELS, RequestError } from "./request.ts";

/** A validated baseline comparison. */
export interface ComparisonRequest {
  /** What the run is compared with. */
  readonly baseline: Baseline;
  /** Whether every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools: boolean;
}

const BASELINE_RULES: Readonly<Record<BaselineProblem, string>> = {
  "not-a-report": `is not a ${REPORT_SCHEMA_ID} report that this mcpeval can read`,
  "another-server": "is the report of another server: its server label is not {server}'s",
  "incomplete":
    "is the report of an incomplete run; write the baseline from a run whose discovery completed",
};

/**
 * Validates the baseline of a run of `server`: `undefined` when none is given. Throws
 * {@linkcode RequestError}, whose message uses `labels` to name fields and never repeats the
 * baseline's content.
 *
 * @example
 * ```ts
 * const comparison = validateComparison(
 *   { baseline: JSON.parse(text), requireBaselineTools: true },
 *   "example",
 * );
 * ```
 */
export function validateComparison(
  input: Pick<GuidanceInput, "baseline" | "requireBaselineTools">,
  server: string,
  labels: FieldLabels = LIBRARY_LABELS,
): ComparisonRequest | undefined {
  const require = input.requireBaselineTools ?? false;
  if (typeof require !== "boolean") {
    throw new RequestError("requireBaselineTools", "must be true or false", labels);
  }
  if (input.baseline === undefined) {
    if (require) throw new RequestError("requireBaselineTools", "needs {baseline}", labels);
    return undefined;
  }
  const selection = selectBaseline(input.baseline, server);
  if (!selection.ok) {
    const where = selection.at === undefined ? "" : ` (first problem at ${selection.at})`;
    throw new RequestError("baseline", BASELINE_RULES[selection.problem] + where, labels);
  }
  return { baseline: selection.baseline, requireBaselineTools: require };
}
