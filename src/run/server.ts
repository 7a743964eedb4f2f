/**
 * A run of one server before anything starts: every permission it needs, and its baseline read
 * and checked against its server label.
 *
 * @module
 */
import { permissionsNeeded } from "../request/permissions.ts";
import { type FieldLabels, LIBRARY_LABELS } from "../request/request.ts";
import type { RunRequest, ServerSelection } from "../request/run.ts";
import { readBaselineFile } from "./baseline_file.ts";
import type { RunEffects } from "./effects.ts";
import { requirePermissions } from "./permissions.ts";
import type { ServersPlan } from "./plan.ts";

/**
 * Plans a run of one server; a missing permission or a baseline that cannot be used throws
 * {@linkcode RunError} or `RequestError` (its fields named by `labels`) before anything starts.
 */
export async function planServerRun(
  request: RunRequest & { readonly servers: ServerSelection },
  effects: RunEffects,
  labels: FieldLabels = LIBRARY_LABELS,
): Promise<ServersPlan> {
  const { servers: { server, target, requiredTools }, output, baseline } = request;
  await requirePermissions(
    effects,
    permissionsNeeded(target, output, {
      baseline: baseline && "path" in baseline ? baseline.path : undefined,
    }),
  );
  let comparison;
  if (baseline) {
    const value = "value" in baseline ? baseline.value : await readBaselineFile(baseline, effects);
    const { validateComparison } = await import("../baseline/comparison.ts");
    comparison = validateComparison(value, baseline.requireBaselineTools, server, labels);
  }
  return { servers: [{ name: server, request: { server, target, requiredTools }, ...comparison }] };
}
