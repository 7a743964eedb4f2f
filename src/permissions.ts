/**
 * Deno permission checks for the target, before discovery. Never prompts.
 *
 * @module
 */
import { InvocationError } from "./cli/errors.ts";
import type { GuidanceOptions, TargetOptions } from "./options.ts";

/**
 * Throws {@linkcode InvocationError} naming the exact flag to add when the Deno permissions do
 * not cover the target, a report file, or the step summary.
 */
export async function checkPermissions(options: GuidanceOptions): Promise<void> {
  await checkTarget(options.target);
  const files = [
    ...options.outputs.map((output) => ({ path: output.path, what: "a report file" })),
    ...(options.stepSummary ? [{ path: options.stepSummary, what: "the step summary" }] : []),
  ];
  for (const { path, what } of files) {
    const { state } = await Deno.permissions.query({ name: "write", path });
    if (state !== "granted") {
      throw new InvocationError(
        `Permission to write ${what} is missing: add --allow-write=${path}`,
      );
    }
  }
}

async function checkTarget(target: TargetOptions): Promise<void> {
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
