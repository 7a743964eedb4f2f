/**
 * What a fleet checks, as validated: which file, which of its servers, what each must
 * list, how its variables are answered. `validateRun` (`src/request/run.ts`) validates a
 * {@linkcode FleetInput} into a run request with it, for the library and the command line
 * alike.
 *
 * @module
 */
import { INPUT_RULE } from "../config_facts.ts";
import { JOBS } from "../limits.ts";
import {
  type BaselineInput,
  type Fail,
  SERVER_RULE,
  type SettingsInput,
  stderrOf,
  TOOL_RULE,
} from "./request.ts";
import { ENV_NAME, type ServerStderr } from "../target.ts";
import { isToolName, SERVER_LABEL } from "../tool_name.ts";

import { parseShard, type Shard, SHARD_RULE } from "./shard.ts";

/** The servers of a validated fleet: the file, its selected entries and their answers. */
export interface FleetSelection {
  /** Selects a fleet. */
  readonly kind: "fleet";
  /** The config file, as given. */
  readonly path: string;
  /** A Claude Code user file's project whose servers are checked too (`--config-project`). */
  readonly project?: string;
  /** The entries selected (keys or labels), or undefined for every entry. */
  readonly names: readonly string[] | undefined;
  /** Required tools (`SERVER:TOOL`), by server, sorted. */
  readonly requirements: ReadonlyMap<string, readonly string[]>;
  /** The environment variable that answers each VS Code input. */
  readonly inputs: ReadonlyMap<string, string>;
  /** Whether remote `https:` endpoints of the file may be reached. */
  readonly allowRemoteHttp: boolean;
  /** What becomes of every stdio server's stderr. */
  readonly stderr: ServerStderr;
  /** Only the selected servers whose label falls to this shard are checked. */
  readonly shard?: Shard;
}

/** A fleet as the library gives it: a config file's servers, with the settings they share. */
export interface FleetInput extends SettingsInput, BaselineInput {
  /** The client config file to read (Claude, Cursor, VS Code, Codex, ...). */
  readonly config: string;
  /** The entries to check, by label or key; default every entry. */
  readonly servers?: readonly string[];
  /**
   * Tools a server must list in every selected profile, as `SERVER:TOOL` (split at the last
   * colon: see {@linkcode splitRequirement}).
   */
  readonly requiredTools?: readonly string[];
  /** VS Code `${input:ID}` answers: the environment variable that holds each input's value. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Whether remote `https:` endpoints of the file may be reached. */
  readonly allowRemoteHttp?: boolean;
  /** What becomes of stdio servers' stderr: `"discard"` (default), `"tail"` or `"inherit"`. */
  readonly serverStderr?: string;
  /** Server connections live at once across the run (1 to 64, default 8). */
  readonly jobs?: number;
  /** Check only the selected servers whose label falls to shard I of N, given as `I/N`. */
  readonly shard?: string;
  /** With a Claude Code user file (`~/.claude.json`): also check this project's servers. */
  readonly project?: string;
}

/** The rule for a VS Code input id. */
const INPUT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** Whether `id` is a VS Code input id mcpeval takes (and so may show). */
export const isInputId = (id: string): boolean => INPUT_ID.test(id);

/**
 * Whether `name` can select a config entry: a server label, or an entry's key as the file
 * writes it (which need not be a label: no control character, at most 256 characters).
 */
export function isEntryName(name: unknown): name is string {
  return typeof name === "string" &&
    // deno-lint-ignore no-control-regex -- control characters are what it refuses
    (SERVER_LABEL.test(name) || (name.length <= 256 && !/[\u0000-\u001f\u007f]/.test(name)));
}

/** The rule of {@linkcode isEntryName}. */
export const ENTRY_NAME_RULE = `${SERVER_RULE}, or an entry's key of the config file`;

/**
 * `SERVER:TOOL` of a fleet's required tool, split at its **last** colon: a tool name has
 * no colon (`TOOL_NAME`), a server label has none either, and an entry's key may have some, so
 * the last colon is the only split that is never ambiguous. The problem (a rule, naming
 * fields as `{field}`) when it is not one; never the value.
 *
 * @example
 * ```ts
 * splitRequirement("memory:read_graph"); // { server: "memory", tool: "read_graph" }
 * splitRequirement("ns:memory:read_graph"); // { server: "ns:memory", tool: "read_graph" }
 * ```
 */
export function splitRequirement(
  spec: unknown,
): { readonly server: string; readonly tool: string } | { readonly problem: string } {
  const colon = typeof spec === "string" ? spec.lastIndexOf(":") : -1;
  if (colon === -1) {
    return { problem: "must be SERVER:TOOL in a config run: say which server must list the tool" };
  }
  const text = spec as string;
  const [server, tool] = [text.slice(0, colon), text.slice(colon + 1)];
  if (!isEntryName(server) || server === "") return { problem: `SERVER ${ENTRY_NAME_RULE}` };
  if (!isToolName(tool)) return { problem: `TOOL ${TOOL_RULE}` };
  return { server, tool };
}

/**
 * Validates what a fleet checks (its settings apart: `validateRun` validates those once for
 * every kind of run), and its connection bound. Throws `RequestError` by `fail`.
 */
export function validateFleetSelection(
  input: FleetInput,
  fail: Fail,
): { readonly selection: FleetSelection; readonly jobs: number } {
  const { config, servers, requiredTools, inputs, allowRemoteHttp, serverStderr, jobs } = input;
  if (typeof config !== "string" || config === "") fail("config", "must be a file's path");
  if (servers !== undefined && !servers.every(isEntryName)) fail("server", ENTRY_NAME_RULE);
  // (A key and its derived label name the same entry: that is checked with the file.)
  const selectsByLabel = servers?.every((name) => SERVER_LABEL.test(name)) === true;
  const requirements = new Map<string, string[]>();
  for (const spec of requiredTools ?? []) {
    const split = splitRequirement(spec);
    if ("problem" in split) return fail("requiredTools", split.problem);
    const { server, tool } = split;
    if (selectsByLabel && SERVER_LABEL.test(server) && !servers!.includes(server)) {
      fail("requiredTools", `names server ${server}, which no {server} selects`);
    }
    requirements.set(server, [...new Set([...(requirements.get(server) ?? []), tool])].sort());
  }
  const answers = new Map<string, string>();
  for (const [id, variable] of Object.entries(inputs ?? {})) {
    if (!INPUT_ID.test(id) || typeof variable !== "string" || !ENV_NAME.test(variable)) {
      fail("inputs", `must map ${INPUT_RULE}`);
    }
    answers.set(id, variable);
  }
  const stderr = stderrOf(serverStderr, fail);
  const bound = jobs ?? JOBS.default;
  if (!Number.isSafeInteger(bound) || bound < JOBS.min || bound > JOBS.max) {
    fail("jobs", `must be an integer from ${JOBS.min} to ${JOBS.max}`);
  }
  const shard = input.shard === undefined ? undefined : parseShard(input.shard);
  if (input.shard !== undefined && shard === undefined) fail("shard", SHARD_RULE);
  if (input.project !== undefined && (typeof input.project !== "string" || input.project === "")) {
    fail("project", "must be a project's folder");
  }
  return {
    selection: {
      kind: "fleet",
      path: config,
      ...(input.project === undefined ? {} : { project: input.project }),
      names: servers && [...new Set(servers)],
      requirements,
      inputs: answers,
      allowRemoteHttp: allowRemoteHttp === true,
      stderr,
      ...(shard ? { shard } : {}),
    },
    jobs: bound,
  };
}
