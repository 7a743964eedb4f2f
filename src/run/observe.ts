/**
 * `--observe` in a run: planned with the rest (Linux, the permissions of its own, each client
 * resolved to a version, its profile added to every checked server), then, before any
 * discovery, each client installed and checked; then each client's one session for all the
 * run's servers, beside the run's other profiles. Whatever cannot be set up is a `RunError`
 * (exit 2, one line).
 *
 * @module
 */
import type { OpenTransport } from "../discovery/discover.ts";
import type { ObserveRequest } from "../discovery/request.ts";
import type { ObservedOutcome } from "../discovery/observed.ts";
import type { ResolvedClient } from "../lab/observe_install.ts";
import { OBSERVE_INSTALL_MS, OBSERVE_LOOKUP_MS } from "../limits.ts";
import type { PermissionNeed } from "../request/permissions.ts";
import type { ServerStderr } from "../target.ts";
import type { SpawnError } from "../transport/stdio.ts";
import type { RunEffects } from "./effects.ts";
import { RunError } from "./errors.ts";
import { requirePermissions } from "./permissions.ts";
import type { RunPlan } from "./plan.ts";
import type { DiscoveryEvent } from "../discovery/events.ts";

/** A client the run observes: resolved, its profile's label known. */
type PlannedObservation = ResolvedClient;

/**
 * The permissions `--observe` needs beside the run's own: the client and npm run outside Deno's
 * sandbox, in a scope mcpeval must be able to end (`--allow-run`), with the caller's npm
 * settings (`--allow-env`), from the lab's cache and a temporary folder (`--allow-read`,
 * `--allow-write`), the model stand-in and the proxies on 127.0.0.1.
 */
export const OBSERVE_PERMISSIONS: readonly PermissionNeed[] = [
  { descriptor: { name: "run" }, flag: "--allow-run", value: null },
  { descriptor: { name: "env" }, flag: "--allow-env", value: null },
  { descriptor: { name: "read" }, flag: "--allow-read", value: null },
  { descriptor: { name: "write" }, flag: "--allow-write", value: null },
  { descriptor: { name: "net", host: "127.0.0.1" }, flag: "--allow-net", value: "127.0.0.1" },
].map((need) => ({ ...need, what: "run a real client (--observe)" }) as PermissionNeed);

/**
 * Adds the run's observations to `plan`: Linux and Deno only, {@linkcode OBSERVE_PERMISSIONS},
 * each client resolved (the npm registry asked only for `@latest` or a version not observed),
 * and each one's profile after every checked server's own.
 */
export async function planObservations(
  plan: RunPlan,
  requests: readonly ObserveRequest[],
  effects: Pick<RunEffects, "permission" | "whereFlagsGo">,
): Promise<RunPlan> {
  if (Deno.build.os !== "linux") {
    throw new RunError("--observe runs a real client, which mcpeval does on Linux only");
  }
  if (Deno.build.standalone) {
    throw new RunError(
      "--observe needs mcpeval run by Deno (its proxy is a Deno script), not a compiled binary",
    );
  }
  await requirePermissions(effects, OBSERVE_PERMISSIONS);
  const { npmLookup, ObserveSetupError, resolveClient } = await import(
    "../lab/observe_install.ts"
  );
  const clients = new Map<string, PlannedObservation>();
  for (const request of requests) {
    try {
      const client = await resolveClient(request, npmLookup(OBSERVE_LOOKUP_MS));
      clients.set(client.label, client);
    } catch (error) {
      if (error instanceof ObserveSetupError) throw new RunError(error.message);
      throw error;
    }
  }
  const labels = [...clients.keys()] as `observed:${string}`[];
  return {
    ...plan,
    settings: { ...plan.settings, profiles: [...plan.settings.profiles, ...labels] },
    observe: [...clients.values()],
  };
}

/** Each checked server's observed profiles, or its command that cannot be started. */
export type ObservedByServer = ReadonlyMap<
  string,
  { readonly outcomes: readonly ObservedOutcome[] } | {
    readonly spawnFailed: SpawnError["failure"];
  }
>;

/** How the observations of a run are run, as the run's discovery is. */
export interface ObserveRunOptions {
  readonly signal?: AbortSignal;
  /** Hears each event, tagged with its server (the run's observer). */
  readonly observe?: (event: DiscoveryEvent & { readonly server: string }) => void;
  readonly stderrEvents?: ReadonlySet<ServerStderr>;
}

/**
 * Installs every observed client of `plan` (before any discovery; a failure is a `RunError`),
 * and returns what runs their sessions. Undefined when the run was stopped meanwhile.
 */
export async function installObservations(
  plan: RunPlan,
  signal?: AbortSignal,
): Promise<
  ((open: OpenTransport, options: ObserveRunOptions) => Promise<ObservedByServer>) | undefined
> {
  const { installClient, ObserveSetupError } = await import("../lab/observe_install.ts");
  const installed: { client: PlannedObservation; prefix: string }[] = [];
  for (const client of plan.observe ?? []) {
    try {
      installed.push({ client, prefix: await installClient(client, OBSERVE_INSTALL_MS, signal) });
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (error instanceof ObserveSetupError) throw new RunError(error.message);
      throw error;
    }
  }
  const servers = plan.servers.flatMap((server) =>
    "request" in server
      ? [{
        name: server.name,
        target: server.request.target,
        settleMs: plan.settings.settleMs,
        timeoutMs: plan.settings.timeoutMs,
      }]
      : []
  );
  return async (open, { signal, observe, stderrEvents }) => {
    const { observeClient } = await import("../lab/observe_run.ts");
    const sessions = await Promise.all(installed.map(({ client, prefix }) =>
      observeClient(
        { driver: client.driver, version: client.version, prefix, label: client.label },
        servers,
        {
          open,
          signal,
          observe: observe && ((server, event) => observe({ ...event, server })),
          hooksOf: (name) => {
            const target = servers.find((server) => server.name === name)?.target;
            return target?.kind === "stdio" && stderrEvents?.has(target.stderr) && observe
              ? {
                stderrLine: (line, continues) =>
                  observe({
                    kind: "stderr",
                    server: name,
                    profile: client.label,
                    line,
                    ...(continues ? { continues } : {}),
                  }),
              }
              : {};
          },
        },
      )
    ));
    const byServer = new Map<
      string,
      { outcomes: ObservedOutcome[] } | { spawnFailed: SpawnError["failure"] }
    >();
    for (const session of sessions) {
      for (const result of session) {
        const had = byServer.get(result.name) ?? { outcomes: [] };
        if ("spawnFailed" in had) continue;
        byServer.set(
          result.name,
          "spawnFailed" in result
            ? { spawnFailed: result.spawnFailed }
            : { outcomes: [...had.outcomes, result.outcome] },
        );
      }
    }
    return byServer;
  };
}
