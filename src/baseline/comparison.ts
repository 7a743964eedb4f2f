/**
 * The baseline of a run (`--baseline`, or `baseline` in the library), validated: an earlier
 * complete report of the same server, on its own or as an entry of a fleet report. Kept apart
 * from `request.ts` so that parsing a command line does not load the report schemas.
 *
 * @module
 */
import type { Baseline } from "../analysis/baseline.ts";
import { lookupHint } from "../analysis/suggest.ts";
import {
  type BaselineDocument,
  baselineDocument,
  baselineFor,
  type BaselineProblem,
  EMPTY_BASELINE,
} from "./read.ts";
import { FLEET_SCHEMA_ID } from "../report/fleet/schema.ts";
import { REPORT_SCHEMA_ID } from "../report/schema.ts";
import { type FieldLabels, LIBRARY_LABELS, RequestError } from "../request/request.ts";
import { SERVER_LABEL } from "../tool_name.ts";

export type { BaselineDocument } from "./read.ts";

/** A validated baseline comparison. */
export interface ComparisonRequest {
  /** What the run is compared with. */
  readonly baseline: Baseline;
  /** Whether every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools: boolean;
}

const BASELINE_RULES: Readonly<Record<BaselineProblem, string>> = {
  "not-a-report":
    `is neither a ${REPORT_SCHEMA_ID} nor a ${FLEET_SCHEMA_ID} report that this mcpeval can read`,
  "another-server": "is the report of another server: its server label is not {server}'s",
  "not-in-fleet": "is a fleet report that does not list {server}'s server",
  "not-checked": "is a fleet report in which {server}'s server was not checked",
  "incomplete":
    "is the report of an incomplete run; write the baseline from a run whose discovery completed",
};

/**
 * Validates the baseline of a run of `server` (a parsed report; whether its tools are required
 * is validated with the request): a fleet report gives the entry whose name is `server`. Throws
 * {@linkcode RequestError}, whose message uses `labels` to name fields and never repeats the
 * baseline's content.
 *
 * @example
 * ```ts
 * const comparison = validateComparison(JSON.parse(text), true, "example");
 * ```
 */
export function validateComparison(
  value: unknown,
  requireBaselineTools: boolean,
  server: string,
  labels: FieldLabels = LIBRARY_LABELS,
): ComparisonRequest {
  const document = validateBaselineDocument(value, labels);
  const selection = baselineFor(document, server);
  if (!selection.ok) fail(selection.problem, labels, undefined, labelsIn(document, server));
  return { baseline: selection.baseline, requireBaselineTools };
}

/**
 * The server labels of `document` that `server` could have meant, as a clause for a baseline
 * of another server: `; its label is demo` or `; did you mean ...?` / `; it lists: a, b`.
 */
function labelsIn(document: BaselineDocument, server: string): string {
  if (document.kind === "guidance") {
    const label = document.report.server;
    return SERVER_LABEL.test(label) ? `; the baseline's label is ${label}` : "";
  }
  const names = document.servers.map((entry) => entry.name)
    .filter((name) => name !== server && SERVER_LABEL.test(name));
  return lookupHint(server, names, "it lists:", "");
}

/**
 * Validates a baseline document once, for a run of several servers (a `--config` run). Throws
 * {@linkcode RequestError} when it is neither a guidance nor a fleet report.
 */
export function validateBaselineDocument(
  value: unknown,
  labels: FieldLabels = LIBRARY_LABELS,
): BaselineDocument {
  const read = baselineDocument(value);
  if (!read.ok) fail(read.problem, labels, read.at);
  return read.document;
}

/**
 * The comparison of one server of a several-server run with `document`: its entry, or, when
 * the document has no complete report of it (a server added since, one not checked then, or
 * another server's report), an empty baseline, so that every profile is `not-in-baseline` and
 * every finding is new.
 */
export function comparisonIn(
  document: BaselineDocument,
  server: string,
  requireBaselineTools: boolean,
): ComparisonRequest {
  const selection = baselineFor(document, server);
  return {
    baseline: selection.ok ? selection.baseline : EMPTY_BASELINE,
    requireBaselineTools,
  };
}

function fail(problem: BaselineProblem, labels: FieldLabels, at?: string, hint = ""): never {
  const where = at === undefined ? "" : ` (first problem at ${at})`;
  // The problems about which server the baseline is of name its labels; the others nothing.
  const named = problem === "another-server" || problem === "not-in-fleet" ? hint : "";
  throw new RequestError("baseline", BASELINE_RULES[problem] + where + named, labels);
}
