/**
 * A `--config` run before anything starts: read the file, select and resolve its servers, read
 * the variables and env files they use, check every permission they need at once, and read the
 * baseline. The result is the servers of a `RunPlan` (`planRun` adds the settings), which
 * `executeRun` discovers.
 *
 * @module
 */
import { sep } from "node:path";
import type { BaselineDocument } from "../baseline/comparison.ts";
import { configEntries, type ConfigEntry, selectEntries } from "../config/entries.ts";
import { ConfigError, readConfig } from "../config/parse.ts";
import type { FleetSelection } from "../request/fleet.ts";
import { inShard } from "../request/shard.ts";
import {
  envFileOf,
  environmentOf,
  inputsOf,
  type Resolved,
  resolveEntry,
  workspaceFolderOf,
} from "../config/resolve.ts";
import { DENIED, type EnvValue, type VariableScope } from "../config/variables.ts";
import { MAX_CONFIG_BYTES } from "../limits.ts";
import { fleetPermissionsNeeded } from "../request/permissions.ts";
import { type FieldLabels, LIBRARY_LABELS } from "../request/request.ts";
import type { RunRequest } from "../request/run.ts";
import { readBaselineFile } from "./baseline_file.ts";
import type { RunEffects } from "./effects.ts";
import { RunError } from "./errors.ts";
import type { PlannedServer, ServersPlan } from "./plan.ts";
import { readProblem } from "./files.ts";
import { requirePermissions } from "./permissions.ts";
import { SERVER_LABEL } from "../tool_name.ts";

/** A validated run request of a config file's servers. */
export type FleetRunRequest = RunRequest & { readonly servers: FleetSelection };

/**
 * Plans a validated `--config` request: every problem a user can fix throws
 * {@linkcode RunError} (or `RequestError`) before any server starts. `labels` name
 * the options in messages (the CLI's flags, or the library's fields).
 */
export async function planFleetRun(
  request: FleetRunRequest,
  effects: RunEffects,
  labels: FieldLabels = LIBRARY_LABELS,
): Promise<ServersPlan> {
  const { servers: config, output } = request;
  const configPath = config.path;
  const none = { envFiles: [], variables: [], targets: [] };
  const inputs = {
    baseline: request.baseline && "path" in request.baseline ? request.baseline.path : undefined,
  };
  // Without read access nothing else can be known: ask for it (and the report files) first.
  await requirePermissions(effects, fleetPermissionsNeeded(configPath, none, output, inputs));
  let text: string;
  try {
    text = await effects.readTextFile(configPath, MAX_CONFIG_BYTES);
  } catch (error) {
    throw new RunError(`Cannot read the config file (${readProblem(error, MAX_CONFIG_BYTES)})`);
  }
  let parsed;
  try {
    parsed = await readConfig(text, {
      path: configPath,
      cwd: effects.cwd(),
      ...(config.project === undefined ? {} : { project: config.project }),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new RunError(error.message);
    // The parsers recurse: a file nested thousands deep exhausts the stack.
    if (error instanceof RangeError) {
      throw new RunError("The config file is nested too deeply to be a client config");
    }
    throw error;
  }
  // The entries named (all without a name), by key or label; unknown names exit 2.
  const selection = selectEntries(configEntries(parsed), config.names, config.requirements);
  const { requirements } = selection;
  checkInputs(selection.entries, config, parsed.inputs);
  const baseline = request.baseline &&
    await baselineDocument(request, selection.entries, effects, labels);
  // --shard: from here on, only the selected servers that fall to this shard.
  const entries = inShard(selection.entries, config.shard);

  // Variables: read only those the selected entries use, each after its permission is checked.
  const variables = new Set(
    entries.flatMap((entry) => [...environmentOf(entry, config.inputs, config.allowRemoteHttp)]),
  );
  const env = new Map<string, EnvValue>();
  for (const name of variables) {
    const granted = await effects.permission({ name: "env", variable: name }) === "granted";
    env.set(name, granted ? readEnv(effects, name) : DENIED);
  }
  const lookup = (name: string): EnvValue => env.has(name) ? env.get(name) : DENIED;
  const scope: VariableScope = {
    env: lookup,
    input: (id) => {
      const variable = config.inputs.get(id);
      return variable === undefined ? undefined : { env: lookup(variable) };
    },
    workspaceFolder: workspaceFolderOf(configPath, effects.cwd()),
    pathSeparator: sep,
  };

  // An env file path written with a variable holds that variable's value: never shown.
  const hiddenEnvFiles = new Set(
    entries.flatMap((entry) =>
      "envFile" in entry.spec && typeof entry.spec.envFile === "string" &&
        entry.spec.envFile.includes("$")
        ? envFileOf(entry, scope) ?? []
        : []
    ),
  );
  const envFilePaths = [
    ...new Set(entries.flatMap((entry) => envFileOf(entry, scope) ?? [])),
  ];
  const envFiles = new Map<string, Record<string, string> | undefined | typeof DENIED>();
  for (const path of envFilePaths) {
    envFiles.set(
      path,
      await effects.permission({ name: "read", path }) === "granted"
        ? await readEnvFile(effects, path)
        : DENIED,
    );
  }

  const resolved: Resolved[] = entries.map((entry) =>
    resolveEntry(entry, {
      settings: request.settings,
      requirements,
      stderr: config.stderr,
      allowRemoteHttp: config.allowRemoteHttp,
      scope,
      envFile: (path) => envFiles.has(path) ? envFiles.get(path) : DENIED,
    })
  );
  const targets = resolved.flatMap((r) =>
    "request" in r
      ? [{ target: r.request.target, hidden: r.fromEnvironment }]
      : "pending" in r && r.pending
      ? [{ target: r.pending.target, hidden: r.pending.fromEnvironment }]
      : []
  );
  // One line with every flag the run needs: blocked entries are covered by their env or read,
  // and one blocked by its env file alone also by its command or host.
  await requirePermissions(
    effects,
    fleetPermissionsNeeded(
      configPath,
      {
        envFiles: envFilePaths,
        hiddenEnvFiles,
        variables,
        targets,
      },
      output,
      inputs,
    ),
  );
  const { comparisonIn } = await import("../baseline/comparison.ts");
  return {
    fleet: {
      format: parsed.format,
      ...(config.shard ? { shard: config.shard } : {}),
    },
    resolved: [...env.values()].filter((value): value is string => typeof value === "string"),
    servers: resolved.map((entry): PlannedServer => {
      if ("notChecked" in entry) return { name: entry.name, notChecked: entry.notChecked };
      if ("blocked" in entry) throw new Error("a blocked entry passed the permission check");
      return {
        name: entry.name,
        request: entry.request,
        ...(entry.toolFilter ? { toolFilter: entry.toolFilter } : {}),
        // Each server is compared with its own entry of the baseline (none: all new).
        ...(baseline &&
          comparisonIn(baseline, entry.name, request.baseline!.requireBaselineTools)),
      };
    }),
  };
}

/**
 * `--baseline` for a fleet: a fleet report (each server compared with its entry), or the
 * guidance report of one of the selected servers. Read and checked before anything starts.
 */
async function baselineDocument(
  request: FleetRunRequest,
  entries: readonly ConfigEntry[],
  effects: RunEffects,
  labels: FieldLabels,
): Promise<BaselineDocument> {
  const given = request.baseline!;
  const value = "value" in given ? given.value : await readBaselineFile(given, effects);
  const { validateBaselineDocument } = await import("../baseline/comparison.ts");
  const document = validateBaselineDocument(value, labels);
  if (
    document.kind === "guidance" &&
    !entries.some((entry) => entry.name === document.report.server)
  ) {
    const label = document.report.server;
    throw new RunError(
      `--baseline is the report of one server, and this run checks no server of its label: give a fleet report, or select that server${
        SERVER_LABEL.test(label) ? ` (--server ${label})` : ""
      }`,
    );
  }
  return document;
}

/** Every `--input` must answer an input the file declares or a selected entry uses. */
function checkInputs(
  entries: readonly ConfigEntry[],
  config: FleetSelection,
  declared: ReadonlySet<string>,
): void {
  const used = new Set(entries.flatMap((entry) => [...inputsOf(entry)]));
  for (const id of config.inputs.keys()) {
    if (!declared.has(id) && !used.has(id)) {
      throw new RunError(`--input ${id} answers no input of the config file`);
    }
  }
}

function readEnv(effects: RunEffects, name: string): EnvValue {
  try {
    return effects.env(name);
  } catch {
    return DENIED;
  }
}

/** An env file's variables, or undefined when it cannot be read or is too large. */
async function readEnvFile(
  effects: RunEffects,
  path: string,
): Promise<Record<string, string> | undefined> {
  const { parse } = await import("dotenv");
  try {
    return parse(await effects.readTextFile(path, MAX_CONFIG_BYTES));
  } catch {
    return undefined;
  }
}
