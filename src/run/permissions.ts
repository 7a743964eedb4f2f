/**
 * What every run does before anything starts: check that each permission it needs is granted
 * (one line with every missing flag), and say why a file could not be read in fixed words.
 *
 * @module
 */
import { missingPermissionsMessage, type PermissionNeed } from "../permissions.ts";
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

/** Why a file could not be read, as fixed words (never the error's message: it holds the path). */
export function readProblem(error: unknown, maxBytes: number): string {
  if (error instanceof RangeError) return `it is larger than ${maxBytes} bytes`;
  if (error instanceof Deno.errors.NotFound) return "it does not exist";
  if (error instanceof Deno.errors.IsADirectory) return "it is not a file";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return error instanceof Error ? error.name : "error";
}
