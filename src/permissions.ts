/**
 * The Deno permissions a run needs, computed from the validated request (pure); the CLI queries
 * them through its context before anything starts.
 *
 * @module
 */
import { shown } from "./printable.ts";
import type { DiscoveryRequest, OutputRequest } from "./request.ts";

/** Files a run reads. */
export interface InputFiles {
  /** `--baseline FILE` (`-`, standard input, needs no permission). */
  readonly baseline?: string;
}

/** One permission a run needs. */
export interface PermissionNeed {
  readonly descriptor: Deno.PermissionDescriptor;
  /** What it is for, as a clause: "run the server command". */
  readonly what: string;
  /** The Deno flag name: `--allow-run`. */
  readonly flag: "--allow-run" | "--allow-net" | "--allow-read" | "--allow-write";
  /** The flag's value, or undefined when the value cannot be shown (control characters). */
  readonly value: string | undefined;
}

/** Every permission the run needs, in the order they are checked. */
export function permissionsNeeded(
  discovery: Pick<DiscoveryRequest, "target">,
  output: OutputRequest,
  inputs: InputFiles = {},
): PermissionNeed[] {
  const { target } = discovery;
  const needs: PermissionNeed[] = target.kind === "stdio"
    ? [{
      descriptor: { name: "run", command: target.command },
      what: "run the server command",
      flag: "--allow-run",
      value: shown(target.command),
    }]
    : [{
      descriptor: { name: "net", host: target.url.host },
      what: "reach the server",
      flag: "--allow-net",
      value: target.url.host,
    }];
  if (inputs.baseline !== undefined && inputs.baseline !== "-") {
    needs.push({
      descriptor: { name: "read", path: inputs.baseline },
      what: "read the baseline",
      flag: "--allow-read",
      value: shown(inputs.baseline),
    });
  }
  const files = [
    ...output.files.map(({ path }) => ({ path, what: "write a report file" })),
    ...(output.stepSummary ? [{ path: output.stepSummary, what: "write the step summary" }] : []),
  ];
  for (const { path, what } of files) {
    needs.push({
      descriptor: { name: "write", path },
      what,
      flag: "--allow-write",
      value: shown(path),
    });
  }
  return needs;
}

/** The one-line message for missing permissions: what they are for and the flags to add. */
export function missingPermissionsMessage(missing: readonly PermissionNeed[]): string {
  const whats = [...new Set(missing.map((need) => need.what))];
  const flags = new Map<string, string[]>();
  for (const need of missing) {
    const values = flags.get(need.flag) ?? [];
    if (need.value !== undefined && !values.includes(need.value)) values.push(need.value);
    flags.set(need.flag, values);
  }
  const add = [...flags].map(([flag, values]) =>
    values.length === 0
      ? `${flag} (for a value that cannot be shown)`
      : `${flag}=${values.join(",")}`
  );
  return `Permission to ${whats.join(" and ")} is missing: add ${add.join(" ")}`;
}
