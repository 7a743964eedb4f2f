/**
 * One observed client session (`--observe`, SPEC 24): the installed client runs once, headless,
 * for every server of the run, in an empty temporary HOME and working folder, with a config
 * that names only the relay to each server's discovery-only proxy (`proxy.ts`, `relay.ts`), its
 * model API pointed at the stand-in (which answers every request with a fixed text, never a tool
 * call), telemetry and updates off, in a run scope of its own (`scope.ts`) under a bounded wait.
 * The scope, the proxies' connections and the temporary folder are ended and removed on every
 * way out, an abort (a signal) included. The result is one observed profile per server.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { OpenTransport } from "../discovery/discover.ts";
import type { DiscoveryEvent } from "../discovery/events.ts";
import type { ClientOpening, ObservedFacts, ObservedOutcome } from "../discovery/observed.ts";
import type { ProfileOutcome } from "../discovery/session.ts";
import { OBSERVE_CLIENT_WAIT_MS } from "../limits.ts";
import type { ObservedLabel } from "../profiles.ts";
import type { IncompleteReason } from "../protocol/incomplete.ts";
import { isProtocolVersion, META_KEYS } from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import type { SpawnError } from "../transport/stdio.ts";
import type { TransportHooks } from "../transport/transport.ts";
import type { Driver } from "./driver.ts";
import { modelReceived } from "./observe_model.ts";
import {
  type ClientOpeningRequest,
  DiscoveryProxy,
  identityOf,
  type ProxyResult,
} from "./proxy.ts";
import { ProxyHost } from "./relay.ts";
import { commonEnv } from "./run.ts";
import { type RunScope, startScope } from "./scope.ts";
import { type Recorded, type StandIn, startStandIn } from "./stand_in.ts";

/** The client to run: its driver, the version installed, where, and its profile's label. */
export interface ObservedClient {
  readonly driver: Driver;
  readonly version: string;
  /** The install prefix (`node_modules` is below it); an absolute `bin` of the driver ignores it. */
  readonly prefix: string;
  readonly label: ObservedLabel;
}

/** One server of the run, as the proxy reaches it. */
export interface ObservedServer {
  /** Its label: the client's config names it so. */
  readonly name: string;
  readonly target: Target;
  readonly settleMs: number;
  readonly timeoutMs: number;
}

/** How to run one observation. */
export interface ObserveOptions {
  /** Opens a connection to a server (the run's own transports). */
  readonly open: OpenTransport;
  /** Hears each server's observed profile's progress. */
  readonly observe?: (server: string, event: DiscoveryEvent) => void;
  /** What each server's connection hears beside messages (stderr lines), by server. */
  readonly hooksOf?: (server: string) => TransportHooks;
  /** Ends the client, the proxies' connections and the folder at once. */
  readonly signal?: AbortSignal;
  /** The bound on the client's run; default {@linkcode OBSERVE_CLIENT_WAIT_MS} (a smaller one only). */
  readonly waitMs?: number;
}

/** One server's observed profile, or its command that cannot be started. */
export type ObservedServerOutcome =
  | { readonly name: string; readonly outcome: ObservedOutcome }
  | { readonly name: string; readonly spawnFailed: SpawnError["failure"] };

/** How the client's run ended. */
interface Ran {
  readonly success: boolean;
  readonly timedOut: boolean;
}

/** The request paths that ask a model for a turn (not token counts, not model lists). */
const TURN =
  /(\/messages|\/responses|\/chat\/completions|:generateContent|:streamGenerateContent)$/;

/** Runs `client` once for `servers` and gives each server's observed profile, in order. */
export async function observeClient(
  client: ObservedClient,
  servers: readonly ObservedServer[],
  options: ObserveOptions,
): Promise<ObservedServerOutcome[]> {
  const { driver, label } = client;
  const waitMs = Math.min(options.waitMs ?? OBSERVE_CLIENT_WAIT_MS, OBSERVE_CLIENT_WAIT_MS);
  const temp = await Deno.makeTempDir({ prefix: "mcpeval-observe-" });
  const markers = `mcpobs${crypto.randomUUID().slice(0, 8)}`;
  let standIn: StandIn | undefined;
  let host: ProxyHost | undefined;
  let scope: RunScope | undefined;
  let ran: Ran = { success: false, timedOut: false };
  let results: ProxyResult[] = [];
  let requests: readonly Recorded[] = [];
  const proxies = servers.map((server, s) =>
    new DiscoveryProxy({
      profile: label,
      target: server.target,
      open: options.open,
      hooks: options.hooksOf?.(server.name) ?? {},
      settleMs: server.settleMs,
      timeoutMs: server.timeoutMs,
      observe: (event) => options.observe?.(server.name, event),
      signal: options.signal,
      marker: (index) => `${markers}s${s}t${index}z`,
    })
  );
  const end = () => void scope?.end();
  options.signal?.addEventListener("abort", end, { once: true });
  try {
    const home = join(temp, "home");
    const work = join(temp, "work");
    for (const dir of [home, work, join(home, "tmp")]) {
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    }
    standIn = startStandIn();
    host = await ProxyHost.start(join(temp, "proxy"));
    const specs = [];
    for (const [index, server] of servers.entries()) {
      // Each server starts while the client does; nothing is sent to it before its opening.
      proxies[index].prepare();
      specs.push(await host.add(server.name, proxies[index]));
    }
    const invocation = await driver.prepare({
      home,
      work,
      model: standIn.url,
      servers: specs,
      packageDir: join(client.prefix, "node_modules", driver.package),
      version: client.version,
    });
    if (!options.signal?.aborted) {
      scope = await startScope(
        isAbsolute(invocation.bin) ? invocation.bin : join(client.prefix, invocation.bin),
        invocation.args,
        { env: { ...commonEnv(home, Deno.env.toObject()), ...invocation.env }, cwd: work },
      );
      if (options.signal?.aborted) end();
      ran = await waitFor(scope, waitMs);
    }
    await scope?.end();
    results = await Promise.all(proxies.map((proxy) => proxy.finish()));
    requests = [...standIn.requests];
  } finally {
    options.signal?.removeEventListener("abort", end);
    await scope?.end();
    // On every way out, each server's connection is closed (a failure here is already thrown).
    await Promise.all(proxies.map((proxy) => proxy.finish().catch(() => {})));
    await host?.close();
    await standIn?.close();
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
  const outcomes = outcomesOf(client, servers, results, requests, ran, markers);
  for (const outcome of outcomes) {
    if (!("outcome" in outcome)) continue;
    const profile = outcome.outcome;
    options.observe?.(
      outcome.name,
      profile.complete
        ? { kind: "done", profile: label, tools: profile.tools.length }
        : { kind: "incomplete", profile: label, reason: profile.incomplete.reason },
    );
  }
  return outcomes;
}

/** Waits for the client to exit, or ends it after `ms`; its output is read and dropped. */
async function waitFor(scope: RunScope, ms: number): Promise<Ran> {
  const { child } = scope;
  const drop = () => new WritableStream<Uint8Array>();
  const drained = Promise.all([
    child.stdout.pipeTo(drop()).catch(() => {}),
    child.stderr.pipeTo(drop()).catch(() => {}),
  ]);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void scope.end();
  }, ms);
  const status = await child.status;
  clearTimeout(timer);
  await scope.end();
  await drained;
  return { success: status.success, timedOut };
}

/** Each server's observed profile from what its proxy saw and what reached the model. */
function outcomesOf(
  client: ObservedClient,
  servers: readonly ObservedServer[],
  results: readonly ProxyResult[],
  requests: readonly Recorded[],
  ran: Ran,
  markers: string,
): ObservedServerOutcome[] {
  const { driver, label, version } = client;
  const turns = requests.filter((request) => TURN.test(request.path));
  const clientReason: IncompleteReason | undefined = turns.length > 0
    ? undefined
    : ran.timedOut
    ? "client-timeout"
    : ran.success
    ? "client-no-model-request"
    : "client-crashed";
  const given = results.map((result) => ({
    handed: result.handed,
    ...(result.instructions === undefined ? {} : { instructions: result.instructions }),
  }));
  const seen = clientReason === undefined
    ? modelReceived(driver.api, turns, given, new RegExp(`${markers}s\\d+t\\d+z`))
    : [];
  return servers.map((server, index) => {
    const result = results[index] ?? { handed: [] };
    if (result.spawnFailed) return { name: server.name, spawnFailed: result.spawnFailed };
    const facts = (extra: Partial<ObservedFacts> = {}): ObservedFacts => ({
      client: driver.id,
      version,
      opening: result.opening ? openingOf(result.opening) : null,
      modelRequests: turns.length,
      ...extra,
    });
    const incomplete = (reason: IncompleteReason, from?: ProfileOutcome): ObservedOutcome => ({
      profile: label,
      complete: false,
      instructionsPresent: from?.instructionsPresent ?? null,
      pages: from?.pages ?? 0,
      incomplete: { reason },
      observed: facts(),
    });
    const outcome = result.outcome;
    if (clientReason !== undefined) {
      return { name: server.name, outcome: incomplete(clientReason, outcome) };
    }
    if (outcome === undefined) {
      return { name: server.name, outcome: incomplete("client-not-connected") };
    }
    if (!outcome.complete) return { name: server.name, outcome: { ...outcome, observed: facts() } };
    const { received, instructionsShown } = seen[index];
    return {
      name: server.name,
      outcome: {
        ...outcome,
        observed: facts({
          received,
          ...(result.instructions === undefined ? {} : {
            instructions: { chars: result.instructions.length, shownChars: instructionsShown ?? 0 },
          }),
        }),
      },
    };
  });
}

/** Printable ASCII of 1 to 64 characters (a `clientInfo` field a report may name). */
const PRINTABLE = /^[\x20-\x7e]{1,64}$/;
/** One segment of a capability's path a report may name. */
const SEGMENT = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The client's opening as a report may say it: validated names and a known revision only. */
export function openingOf(request: ClientOpeningRequest): ClientOpening {
  const { capabilities, rawClientInfo } = identityOf(request);
  const asked = request.method === "initialize"
    ? request.params.protocolVersion
    : (request.params._meta as Record<string, unknown> | undefined)?.[META_KEYS.protocolVersion];
  const paths: string[] = [];
  for (const [key, value] of Object.entries(capabilities)) {
    if (!SEGMENT.test(key)) continue;
    paths.push(key);
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    for (const member of Object.keys(value)) {
      if (SEGMENT.test(member)) paths.push(`${key}.${member}`);
    }
  }
  const info = rawClientInfo as { name?: unknown; version?: unknown } | undefined;
  return {
    method: request.method,
    protocolVersion: isProtocolVersion(asked) ? asked : null,
    capabilities: paths.sort(),
    clientInfo: typeof info?.name === "string" && PRINTABLE.test(info.name) &&
        typeof info.version === "string" && PRINTABLE.test(info.version)
      ? { name: info.name, version: info.version }
      : null,
  };
}
