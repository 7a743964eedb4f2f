/**
 * A named config entry → a validated {@linkcode ServerRequest}: the run's settings are
 * validated once, and each entry's label and target by the same `validateServer` as the
 * command line's and the library's, or the fixed reason it is not checked. Pure: the
 * environment, inputs and env files come through the options.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve as resolvePath } from "node:path";
import type { ConfigField } from "../config_facts.ts";
import {
  isLoopback,
  RequestError,
  type RunSettings,
  type ServerRequest,
  type TargetInput,
  validateServer,
} from "../request/request.ts";
import type { ServerStderr, Target } from "../target.ts";
import type { ToolFilter } from "../analysis/tool_filters.ts";
import type { ConfigEntry } from "./entries.ts";
import { type EntrySpec, isNotChecked, type NotChecked } from "./spec.ts";
import {
  DENIED,
  type EnvValue,
  expand,
  type ExpansionProblem,
  unsetVariables,
  type VariableScope,
  variablesIn,
  worse,
} from "./variables.ts";

/** At most this many unset variables are named for an entry, each at most 64 characters. */
const MAX_UNSET_NAMES = 16;

/** The config field of each request field an entry's target can break. */
const FIELD_OF: Readonly<Record<string, ConfigField>> = {
  command: "command",
  args: "args",
  env: "env",
  cwd: "cwd",
  url: "url",
  allowRemoteHttp: "url",
  headers: "headers",
};

/** What resolving needs besides the entry. */
export interface ResolveOptions {
  /** The run's settings, validated once for every entry. */
  readonly settings: RunSettings;
  /** `--require-tool SERVER:TOOL`, by server. */
  readonly requirements: ReadonlyMap<string, readonly string[]>;
  readonly stderr: ServerStderr;
  readonly allowRemoteHttp: boolean;
  readonly scope: VariableScope;
  /** An env file's variables; undefined when it cannot be read, DENIED without permission. */
  readonly envFile: (path: string) => Readonly<Record<string, string>> | undefined | typeof DENIED;
}

/** What became of an entry. */
export type Resolved =
  | {
    readonly name: string;
    readonly request: ServerRequest;
    /** Whether the command or URL holds an environment variable's value (never shown). */
    readonly fromEnvironment: boolean;
    /** The config file's own tool filter for this server. */
    readonly toolFilter?: ToolFilter;
  }
  | { readonly name: string; readonly notChecked: NotChecked }
  /**
   * It reads a variable or a file that mcpeval may not read: a permission is missing. With
   * `pending`, only its env file is: its command or URL is known, and asked for in the same line.
   */
  | {
    readonly name: string;
    readonly blocked: true;
    readonly pending?: { readonly target: Target; readonly fromEnvironment: boolean };
  };

const CLIENT_FOLDER =
  /^\.(vscode|cursor|gemini|codex|zed|windsurf|claude|cline|kiro|roo|continue|opencode)$/;

/**
 * The folder `${workspaceFolder}` names: the one above `.vscode` (or `.cursor`, ...; or above
 * `.kiro/settings`, `.continue/mcpServers`), else the file's.
 */
export function workspaceFolderOf(configPath: string, cwd: string): string {
  const folder = dirname(resolvePath(cwd, configPath));
  if (CLIENT_FOLDER.test(basename(folder))) return dirname(folder);
  const parent = dirname(folder);
  return CLIENT_FOLDER.test(basename(parent)) ? dirname(parent) : folder;
}

/** Every string of a spec that may hold variables. */
function templates(spec: EntrySpec): string[] {
  return spec.kind === "stdio"
    ? [
      spec.command,
      ...spec.args,
      ...spec.env.map(([, value]) => value),
      ...(spec.envFile === undefined ? [] : [spec.envFile]),
      ...(spec.cwd === undefined ? [] : [spec.cwd]),
    ]
    : [spec.url, ...spec.headers.map(([, value]) => value)];
}

/**
 * The environment variables an entry reads: its `${VAR}`s, and the `--input` variables of its
 * `${input:ID}`s. None for an entry that is not checked anyway.
 */
export function environmentOf(
  entry: ConfigEntry,
  inputs: ReadonlyMap<string, string>,
  allowRemoteHttp: boolean,
): Set<string> {
  const names = new Set<string>();
  if (isNotChecked(entry.spec)) return names;
  // A remote entry that will not be checked reads nothing.
  const { spec } = entry;
  if (spec.kind === "streamable-http" && !allowRemoteHttp && variablesIn(spec.url).length === 0) {
    if (isRemote(spec.url)) return names;
  }
  for (const variable of templates(entry.spec).flatMap(variablesIn)) {
    if (variable.kind === "env") names.add(variable.name);
    if (variable.kind === "input" && inputs.has(variable.id)) names.add(inputs.get(variable.id)!);
  }
  return names;
}

/** The `${input:ID}` ids an entry uses. */
export function inputsOf(entry: ConfigEntry): Set<string> {
  if (isNotChecked(entry.spec)) return new Set();
  return new Set(
    templates(entry.spec).flatMap(variablesIn).flatMap((v) => v.kind === "input" ? [v.id] : []),
  );
}

/** The entry's env file as an absolute path, when it has one and it expands. */
export function envFileOf(entry: ConfigEntry, scope: VariableScope): string | undefined {
  if (isNotChecked(entry.spec) || entry.spec.kind !== "stdio") return undefined;
  if (entry.spec.envFile === undefined) return undefined;
  const path = expand(entry.spec.envFile, scope);
  return "value" in path ? absolute(scope.workspaceFolder, path.value) : undefined;
}

function absolute(folder: string, path: string): string {
  return isAbsolute(path) ? path : join(folder, path);
}

/** Resolves one entry. */
export function resolveEntry(entry: ConfigEntry, options: ResolveOptions): Resolved {
  const { name, spec } = entry;
  if (isNotChecked(spec)) return { name, notChecked: spec };
  let problem: ExpansionProblem | undefined;
  const value = (text: string): string => {
    const expansion = expand(text, options.scope);
    if ("value" in expansion) return expansion.value;
    problem = problem === undefined ? expansion.problem : worse(problem, expansion.problem);
    return "";
  };
  let target: TargetInput;
  // Only the env file may not be read: the rest still resolves, so its permission is asked too.
  let envFileDenied = false;
  if (spec.kind === "stdio") {
    const fromFile: [string, string][] = [];
    if (spec.envFile !== undefined) {
      const path = value(spec.envFile);
      if (problem === undefined) {
        const variables = options.envFile(absolute(options.scope.workspaceFolder, path));
        if (variables === DENIED) envFileDenied = true;
        else if (variables === undefined) {
          return { name, notChecked: { reason: "env-file-unreadable" } };
        } else fromFile.push(...Object.entries(variables));
      }
    }
    const env = [...fromFile, ...spec.env.map(([key, text]) => [key, value(text)] as const)];
    const cwd = spec.cwd === undefined
      ? undefined
      : absolute(options.scope.workspaceFolder, value(spec.cwd));
    const command = value(spec.command);
    target = {
      kind: "stdio",
      // A relative path (`./dist/server`, `bin/server`) starts from the entry's folder, as in
      // the clients (a bare name is looked up on PATH).
      command: cwd !== undefined && !isAbsolute(command) && /[\\/]/.test(command)
        ? join(cwd, command)
        : command,
      args: spec.args.map(value),
      stderr: options.stderr,
      ...(env.length === 0 ? {} : { env: Object.fromEntries(env) }),
      ...(cwd === undefined ? {} : { cwd }),
    };
  } else {
    const url = value(spec.url);
    // Before the headers: an entry that will not be checked needs none of their variables.
    if (problem === undefined && !options.allowRemoteHttp && isRemote(url)) {
      return { name, notChecked: { reason: "remote-http-not-allowed" } };
    }
    target = {
      kind: "streamable-http",
      url,
      headers: spec.headers.map(([header, text]) => [header, value(text)] as const),
      allowRemoteHttp: options.allowRemoteHttp,
    };
  }
  if (problem === "denied") return { name, blocked: true };
  if (problem === "unset-variable") {
    const names = [
      ...new Set(templates(spec).flatMap((text) => unsetVariables(text, options.scope))),
    ]
      .filter((variable) => variable.length <= 64).sort().slice(0, MAX_UNSET_NAMES);
    return {
      name,
      notChecked: { reason: problem, ...(names.length === 0 ? {} : { variables: names }) },
    };
  }
  if (problem !== undefined) return { name, notChecked: { reason: problem } };
  try {
    // The settings are validated already: only the entry's own target is (only the field kept).
    const request = validateServer(
      name,
      target,
      options.requirements.get(name) ?? [],
      options.settings,
    );
    const where = spec.kind === "stdio" ? spec.command : spec.url;
    const fromEnvironment = variablesIn(where).some((v) => v.kind === "env" || v.kind === "input");
    if (envFileDenied) {
      return { name, blocked: true, pending: { target: request.target, fromEnvironment } };
    }
    return {
      name,
      request,
      fromEnvironment,
      ...(spec.toolFilter ? { toolFilter: spec.toolFilter } : {}),
    };
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    // The env file's variables were not read: what breaks may be theirs.
    if (envFileDenied) return { name, blocked: true };
    if (error.field === "protocolVersion") {
      return { name, notChecked: { reason: "unsupported-entry" } };
    }
    return {
      name,
      notChecked: { reason: "invalid-entry", field: FIELD_OF[error.field] ?? "entry" },
    };
  }
}

/** Whether `url` parses and names a host that is not loopback. */
function isRemote(url: string): boolean {
  try {
    return !isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}

export type { EnvValue };
