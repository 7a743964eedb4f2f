/**
 * `mcpeval guidance --config FILE`: read the file, resolve its servers, check every permission
 * they need at once, discover them all within `--jobs`, and print one fleet report.
 *
 * @module
 */
import { parse as parseDotenv } from "dotenv";
import { sep } from "node:path";
import type { BaselineDocument } from "../comparison.ts";
import { configEntries, type ConfigEntry } from "../config/entries.ts";
import { ConfigError, parseConfig } from "../config/parse.ts";
import type { ConfigRequest } from "../config/request.ts";
import {
  envFileOf,
  environmentOf,
  inputsOf,
  type Resolved,
  resolveEntry,
  workspaceFolderOf,
} from "../config/resolve.ts";
import { DENIED, type EnvValue, type VariableScope } from "../config/variables.ts";
import { discoverFleet } from "../discovery/fleet.ts";
import type { ProfileLabel } from "../profiles.ts";
import { MAX_CONFIG_BYTES } from "../limits.ts";
import { configPermissionsNeeded } from "../permissions.ts";
import { shown } from "../printable.ts";
import { RequestError } from "../request.ts";
import type { SarifLocation } from "../report/sarif.ts";
import { CLI_LABELS } from "./args.ts";
import { readBaselineFile } from "./baseline.ts";
import type { CliContext } from "./context.ts";
import { InvocationError } from "./errors.ts";
import { readProblem } from "./files.ts";
import { finishRun, interrupted, requirePermissions, reserveReportFiles } from "./output.ts";
import { ServerOutput } from "./server_stderr.ts";

/** Runs a validated `--config` request and returns the exit code. */
export async function runFleetCommand(
  request: ConfigRequest,
  context: CliContext,
): Promise<number> {
  const { configPath, output } = request;
  const none = { envFiles: [], variables: [], targets: [] };
  const inputs = { baseline: request.baseline?.path };
  // Without read access nothing else can be known: ask for it (and the report files) first.
  await requirePermissions(context, configPermissionsNeeded(configPath, none, output, inputs));
  let text: string;
  try {
    text = await context.readTextFile(configPath, MAX_CONFIG_BYTES);
  } catch (error) {
    throw new InvocationError(
      `Cannot read the config file (${readProblem(error, MAX_CONFIG_BYTES)})`,
    );
  }
  let parsed;
  try {
    parsed = parseConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) throw new InvocationError(error.message);
    // The parsers recurse: a file nested thousands deep exhausts the stack.
    if (error instanceof RangeError) {
      throw new InvocationError("The config file is nested too deeply to be a client config");
    }
    throw error;
  }
  const entries = selected(configEntries(parsed), request);
  checkInputs(entries, request, parsed.inputs);
  const baseline = request.baseline && await baselineDocument(request, entries, context);

  // Variables: read only those the selected entries use, each after its permission is checked.
  const variables = new Set(
    entries.flatMap((entry) => [...environmentOf(entry, request.inputs, request.allowRemoteHttp)]),
  );
  const env = new Map<string, EnvValue>();
  for (const name of variables) {
    const granted = await context.permission({ name: "env", variable: name }) === "granted";
    env.set(name, granted ? readEnv(context, name) : DENIED);
  }
  const lookup = (name: string): EnvValue => env.has(name) ? env.get(name) : DENIED;
  const scope: VariableScope = {
    env: lookup,
    input: (id) => {
      const variable = request.inputs.get(id);
      return variable === undefined ? undefined : { env: lookup(variable) };
    },
    workspaceFolder: workspaceFolderOf(configPath, context.cwd()),
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
      await context.permission({ name: "read", path }) === "granted"
        ? await readEnvFile(context, path)
        : DENIED,
    );
  }

  const resolved: Resolved[] = entries.map((entry) =>
    resolveEntry(entry, {
      settings: request.settings,
      requirements: request.requirements,
      stderr: request.stderr,
      allowRemoteHttp: request.allowRemoteHttp,
      scope,
      envFile: (path) => envFiles.has(path) ? envFiles.get(path) : DENIED,
    })
  );
  const checked = resolved.flatMap((r) => "request" in r ? [r] : []);
  const requests = checked.map((r) => r.request);
  // One line with every flag the run needs: blocked entries are covered by their env or read.
  await requirePermissions(
    context,
    configPermissionsNeeded(
      configPath,
      {
        envFiles: envFilePaths,
        hiddenEnvFiles,
        variables,
        targets: checked.map((r) => ({ target: r.request.target, hidden: r.fromEnvironment })),
      },
      output,
      inputs,
    ),
  );
  const { comparisonIn } = await import("../comparison.ts");

  const reserved = await reserveReportFiles(context, output);
  const signal = context.interrupted?.();
  // A config run shows no progress: --quiet does not apply to it.
  const serverOutput = new ServerOutput(context, false);
  const outcomes = await discoverFleet(
    requests.map((r) => ({ name: r.server, settings: r })),
    serverOutput.open(...requests),
    request.jobs,
    signal,
  );
  if (signal?.aborted) return await interrupted(context, reserved);
  await serverOutput.finish(outcomes);

  const [{ buildReport }, { buildFleetReport }, { renderFleet }, { renderFleetGithubSummary }] =
    await Promise.all([
      import("../report/build.ts"),
      import("../report/fleet/build.ts"),
      import("../report/fleet/render.ts"),
      import("../report/fleet/github.ts"),
    ]);
  const byName = new Map(outcomes.map((outcome) => [outcome.name, outcome]));
  // A client's tool cap counts across servers in config order: each report is built knowing how
  // many tools that client already took from the servers above it.
  const sent = new Map<ProfileLabel, number>();
  const fleet = buildFleetReport(
    parsed.format,
    resolved.map((entry) => {
      if ("notChecked" in entry) return { name: entry.name, ...entry.notChecked };
      if ("blocked" in entry) throw new Error("a blocked entry passed the permission check");
      const outcome = byName.get(entry.name)!;
      if ("spawnFailed" in outcome) return { name: entry.name, reason: "spawn-failed" as const };
      const report = buildReport(
        {
          ...entry.request,
          toolsBefore: new Map(sent),
          // Each server is compared with its own entry of the baseline (none: all new).
          ...(baseline &&
            comparisonIn(baseline, entry.name, request.baseline!.requireBaselineTools)),
        },
        outcome.outcomes,
      );
      for (const profile of report.profiles) {
        if (!profile.client || profile.tools === null) continue;
        const hidden = report.candidates.filter((c) =>
          c.kind === "tool-unreachable-in-client" && c.profile === profile.profile
        ).length;
        sent.set(profile.profile, (sent.get(profile.profile) ?? 0) + profile.tools.length - hidden);
      }
      return { name: entry.name, report };
    }),
  );
  // A signal during analysis still ends the run with 130 and no report (finishRun).
  return await finishRun(
    context,
    reserved,
    signal,
    fleet,
    { format: output.format, location: output.sarifLocation ?? configLocation(configPath) },
    (format, options) =>
      format === "summary" ? renderFleetGithubSummary(fleet) : renderFleet(fleet, format, options),
  );
}

/**
 * `--baseline` for a config run: a fleet report (each server compared with its entry), or the
 * guidance report of one of the selected servers. Read and checked before anything starts.
 */
async function baselineDocument(
  request: ConfigRequest,
  entries: readonly ConfigEntry[],
  context: CliContext,
): Promise<BaselineDocument> {
  const value = await readBaselineFile(request.baseline!, context);
  const { validateBaselineDocument } = await import("../comparison.ts");
  let document: BaselineDocument;
  try {
    document = validateBaselineDocument(value, CLI_LABELS);
  } catch (error) {
    if (error instanceof RequestError) throw new InvocationError(error.message);
    throw error;
  }
  if (
    document.kind === "guidance" &&
    !entries.some((entry) => entry.name === document.report.server)
  ) {
    throw new InvocationError(
      "--baseline is the report of one server, and this run checks no server of its label: give a fleet report, or select that server",
    );
  }
  return document;
}

/** The entries `--server` selects (all without it), in file order; unknown names exit 2. */
function selected(entries: ConfigEntry[], request: ConfigRequest): ConfigEntry[] {
  const names = new Set(entries.map((entry) => entry.name));
  for (const name of request.servers ?? []) {
    if (!names.has(name)) {
      throw new InvocationError(`--server ${name} names no server of the config file`);
    }
  }
  for (const name of request.requirements.keys()) {
    if (!names.has(name)) {
      throw new InvocationError(
        `--require-tool names server ${name}, which the config file does not list`,
      );
    }
  }
  const chosen = request.servers && new Set(request.servers);
  return chosen ? entries.filter((entry) => chosen.has(entry.name)) : entries;
}

/** Every `--input` must answer an input the file declares or a selected entry uses. */
function checkInputs(
  entries: readonly ConfigEntry[],
  request: ConfigRequest,
  declared: ReadonlySet<string>,
): void {
  const used = new Set(entries.flatMap((entry) => [...inputsOf(entry)]));
  for (const id of request.inputs.keys()) {
    if (!declared.has(id) && !used.has(id)) {
      throw new InvocationError(`--input ${id} answers no input of the config file`);
    }
  }
}

function readEnv(context: CliContext, name: string): EnvValue {
  try {
    return context.env(name);
  } catch {
    return DENIED;
  }
}

/** An env file's variables, or undefined when it cannot be read or is too large. */
async function readEnvFile(
  context: CliContext,
  path: string,
): Promise<Record<string, string> | undefined> {
  try {
    return parseDotenv(await context.readTextFile(path, MAX_CONFIG_BYTES));
  } catch {
    return undefined;
  }
}

/** The config file as a SARIF location, when it is a relative path that can be shown. */
function configLocation(path: string): SarifLocation | undefined {
  const normalized = path.replaceAll("\\", "/").replace(/^\.\//, "");
  if (
    shown(normalized) === undefined || normalized.startsWith("/") || /^[A-Za-z]:/.test(normalized)
  ) {
    return undefined;
  }
  if (normalized.split("/").some((part) => part === ".." || part === "")) return undefined;
  return { path: normalized, line: 1 };
}
