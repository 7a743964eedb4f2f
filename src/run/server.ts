/**
 * A run of one server before anything starts: every permission it needs, and its baseline read
 * and checked against its server label.
 *
 * @module
 */
import { permissionsNeeded } from "../request/permissions.ts";
import {
  type BaselineFile,
  type DiscoveryRequest,
  type FieldLabels,
  LIBRARY_LABELS,
  type OutputRequest,
} from "../request/request.ts";
import { readBaselineFile } from "./baseline_file.ts";
import type { RunEffects } from "./effects.ts";
import { requirePermissions } from "./permissions.ts";
import type { RunPlan } from "./plan.ts";

/** A validated run of one server. */
export interface ServerRunRequest {
  readonly discovery: DiscoveryRequest;
  readonly output: OutputRequest;
  /** `--baseline`: read and validated before discovery starts. */
  readonly baseline?: BaselineFile;
}

/**
 * Plans a run of one server; a missing permission or a baseline that cannot be used throws
 * {@linkcode RunError} or `RequestError` (its fields named by `labels`) before anything starts.
 */
export async function planServerRun(
  { discovery, output, baseline }: ServerRunRequest,
  effects: RunEffects,
  labels: FieldLabels = LIBRARY_LABELS,
): Promise<RunPlan> {
  await requirePermissions(
    effects,
    permissionsNeeded(discovery, output, { baseline: baseline?.path }),
  );
  let comparison;
  if (baseline) {
    const value = await readBaselineFile(baseline, effects);
    const { validateComparison } = await import("../baseline/comparison.ts");
    comparison = validateComparison(
      { baseline: value, requireBaselineTools: baseline.requireBaselineTools },
      discovery.server,
      labels,
    );
  }
  return {
    jobs: discovery.concurrency,
    servers: [{ name: discovery.server, request: discovery, ...comparison }],
  };
}
