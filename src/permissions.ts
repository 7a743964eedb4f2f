/**
 * Deno permission checks for the target, before discovery. Never prompts.
 *
 * @module
 */
import { InvocationError } from "./cli/errors.ts";
import type { TargetOptions } from "./options.ts";

/**
 * Throws {@linkcode InvocationError} naming the exact flag to add when the Deno permissions do
 * not cover the target.
 */
export async function checkPermissions(target: TargetOptions): Promise<void> {
  if (target.kind === "stdio") {
    const { state } = await Deno.permissions.query({ name: "run", command: target.command });
    if (state !== "granted") {
      throw new InvocationError(
        `Permission to run the server command is missing: add --allow-run=${target.command}`,
      );
    }
    return;
  }
  const host = target.url.host;
  const { state } = await Deno.permissions.query({ name: "net", host });
  if (state !== "granted") {
    throw new InvocationError(
      `Permission to reach the server is missing: add --allow-net=${host}`,
    );
  }
}
