/**
 * The Deno permissions a run needs, computed from the validated request (pure); the CLI queries
 * them through its context before anything starts.
 *
 * @module
 */
import { shown } from "../printable.ts";
import type { OutputRequest } from "./request.ts";
import type { Target } from "../target.ts";

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
  readonly flag: "--allow-read" | "--allow-run" | "--allow-net" | "--allow-env" | "--allow-write";
  /**
   * The flag's value, or undefined when the value cannot be shown (control characters); null:
   * the flag itself, without a value (the whole permission).
   */
  readonly value: string | undefined | null;
}

/**
 * Every permission a run of the server at `target` needs, in the order they are checked; the
 * command line's `output` adds its report files.
 */
export function permissionsNeeded(
  target: Target,
  output: OutputRequest | undefined,
  inputs: InputFiles = {},
): PermissionNeed[] {
  return [...targetNeeds([target]), ...readNeeds(inputs), ...writeNeeds(output)];
}

/** What a `--config` run needs, besides reading the file itself. */
export interface ConfigNeeds {
  /** Env files the entries name. */
  readonly envFiles: Iterable<string>;
  /** Env files whose path holds a variable's value: the path is never shown. */
  readonly hiddenEnvFiles?: ReadonlySet<string>;
  /** Environment variables the entries (and their `--input`s) read. */
  readonly variables: Iterable<string>;
  /** The servers to check; `hidden` when a value must not be shown (it holds a variable's). */
  readonly targets: Iterable<{ readonly target: Target; readonly hidden?: boolean }>;
}

/**
 * Every permission a `--config` run needs: read for `configPath` (and the env files), run for
 * each stdio command, net for each HTTP host, env for each variable, write for each report file.
 */
export function fleetPermissionsNeeded(
  configPath: string,
  needs: ConfigNeeds,
  output: OutputRequest | undefined,
  inputs: InputFiles = {},
): PermissionNeed[] {
  const reads = [configPath, ...needs.envFiles].map((path, index): PermissionNeed => ({
    descriptor: { name: "read", path },
    what: index === 0 ? "read the config file" : "read an env file",
    flag: "--allow-read",
    value: index > 0 && needs.hiddenEnvFiles?.has(path) ? undefined : shown(path),
  }));
  const variables = [...new Set(needs.variables)].sort().map((variable): PermissionNeed => ({
    descriptor: { name: "env", variable },
    what: "read environment variables",
    flag: "--allow-env",
    value: variable,
  }));
  const targets = [...needs.targets].map(({ target, hidden }) => {
    const [need] = targetNeeds([target]);
    return hidden ? { ...need, value: undefined } : need;
  });
  return [...reads, ...readNeeds(inputs), ...targets, ...variables, ...writeNeeds(output)];
}

function readNeeds(inputs: InputFiles): PermissionNeed[] {
  return inputs.baseline === undefined || inputs.baseline === "-" ? [] : [{
    descriptor: { name: "read", path: inputs.baseline },
    what: "read the baseline",
    flag: "--allow-read",
    value: shown(inputs.baseline),
  }];
}

function targetNeeds(targets: Iterable<Target>): PermissionNeed[] {
  return [...targets].map((target): PermissionNeed =>
    target.kind === "stdio"
      ? {
        descriptor: { name: "run", command: target.command },
        what: "run the server command",
        flag: "--allow-run",
        value: shown(target.command),
      }
      : {
        descriptor: { name: "net", host: target.url.host },
        what: "reach the server",
        flag: "--allow-net",
        value: target.url.host,
      }
  );
}

/** The write permissions of the report files and the step summary (none without `output`). */
export function writeNeeds(output: OutputRequest | undefined): PermissionNeed[] {
  if (output === undefined) return [];
  const files = [
    ...output.files.map(({ path }) => ({ path, what: "write a report file" })),
    ...(output.stepSummary ? [{ path: output.stepSummary, what: "write the step summary" }] : []),
  ];
  return files.map(({ path, what }) => ({
    descriptor: { name: "write", path },
    what,
    flag: "--allow-write",
    value: shown(path),
  }));
}

/**
 * The one-line message for missing permissions: what they are for and the flags to add;
 * `where` (given the flags) adds where they go, for how mcpeval was started.
 */
export function missingPermissionsMessage(
  missing: readonly PermissionNeed[],
  where: (flags: string) => string = () => "",
): string {
  const whats = [...new Set(missing.map((need) => need.what))];
  const flags = new Map<string, string[]>();
  for (const need of missing) {
    const values = flags.get(need.flag) ?? [];
    if (typeof need.value === "string" && !values.includes(need.value)) values.push(need.value);
    flags.set(need.flag, values);
  }
  const hidden = new Set<string>(
    missing.filter((need) => need.value === undefined).map((need) => need.flag),
  );
  const whole = new Set<string>(
    missing.filter((need) => need.value === null).map((need) => need.flag),
  );
  const add = [...flags].map(([flag, values]) =>
    whole.has(flag)
      ? flag
      : values.length === 0
      ? `${flag} (for a value that cannot be shown)`
      : `${flag}=${values.join(",")}${
        hidden.has(flag) ? " (and a value that cannot be shown)" : ""
      }`
  );
  return `Permission to ${whats.join(" and ")} is missing: add ${add.join(" ")}${
    where(add.join(" "))
  }`;
}
