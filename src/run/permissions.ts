/**
 * What every run does before anything starts: check that each permission it needs is granted
 * (one line with every missing flag).
 *
 * @module
 */
import { missingPermissionsMessage, type PermissionNeed } from "../request/permissions.ts";
import type { RunEffects } from "./effects.ts";
import { RunError } from "./errors.ts";

/** Throws the one-line {@linkcode RunError} when any of `needs` is not granted. */
export async function requirePermissions(
  effects: Pick<RunEffects, "permission" | "whereFlagsGo">,
  needs: readonly PermissionNeed[],
): Promise<void> {
  const missing = [];
  for (const need of needs) {
    if (await effects.permission(need.descriptor) !== "granted") missing.push(need);
  }
  if (missing.length > 0) {
    throw new RunError(missingPermissionsMessage(missing, effects.whereFlagsGo));
  }
}
