/**
 * Runs the selected profiles, each on its own connection, a bounded number at a time.
 *
 * @module
 */
import type { ClientPreset } from "../clients/presets.ts";
import { extractorsFor, prepareRules } from "../clients/rules/registry.ts";
import { capabilitiesOf, isObserved, isProfile, type ProfileLabel } from "../profiles.ts";
import { planOf, PROTOCOL_VERSION, type ProtocolVersion } from "../protocol/versions.ts";
import { mayDownload, type ServerStderr, type Target } from "../target.ts";
import type { Transport, TransportHooks } from "../transport/transport.ts";
import type { DiscoveryObserver } from "./events.ts";
import type { RunSettings } from "./request.ts";
import type { ProfileDeclaration, ProfileOutcome } from "./session.ts";
import { SilenceWatch } from "./silence.ts";
import type { Slots } from "./slots.ts";

/**
 * Opens a fresh connection to a target speaking `version` first, its stderr heard by `hooks`;
 * throws when the target cannot be reached at all (a command that cannot be started).
 */
export type OpenTransport = (
  target: Target,
  version: ProtocolVersion,
  hooks: TransportHooks,
) => Transport | Promise<Transport>;

/** How to run the profiles of one server beside its settings. */
export interface DiscoverOptions {
  /** Aborts the run: every connection is closed and the affected profiles end incomplete. */
  readonly signal?: AbortSignal;
  /** Hears each profile's progress, every process that could not be stopped, stderr lines. */
  readonly observe?: DiscoveryObserver;
  /** A bound on live connections shared with other servers: each connection holds one slot. */
  readonly slots?: Slots;
  /**
   * The `--server-stderr` modes whose stdio servers' stderr lines are `stderr` events (read
   * even with `inherit`, then shown by the observer); by default none, and `inherit` passes a
   * server's stderr on as it is.
   */
  readonly stderrEvents?: ReadonlySet<ServerStderr>;
}

/**
 * Discovers every selected profile of the server at `target` with at most
 * `settings.concurrency` running at once, and closes every connection before returning (see
 * {@linkcode DiscoverOptions}). Errors from opening a connection (the command cannot be
 * started) are rethrown once everything has been closed.
 */
export async function discoverAll(
  settings: RunSettings,
  target: Target,
  open: OpenTransport,
  { signal, observe = () => {}, slots, stderrEvents }: DiscoverOptions = {},
): Promise<ProfileOutcome[]> {
  // The selected rules' validators and engines load once, before any page is parsed.
  await prepareRules([...settings.clients.values()].flatMap((preset) => preset.rules));
  // An observed profile is the observed client's session, not a connection of its own here.
  const queue: ProfileDeclaration[] = settings.profiles.filter((label) => !isObserved(label))
    .map((label) => declarationOf(label, settings.clients));
  const outcomes: ProfileOutcome[] = [];
  let failure: { error: unknown } | undefined;

  // The first profile of a stdio server that may download what it runs (`npx -y`, `uvx`:
  // `mayDownload`) starts alone: the others, started at once, would each download it again,
  // racing the timeout. They start once it has answered its opening (or ended), warm.
  const first = queue[0]?.profile;
  let warmed = () => {};
  const warm = target.kind === "stdio" && mayDownload(target) && queue.length > 1
    ? new Promise<void>((resolve) => warmed = resolve)
    : undefined;
  const heard: DiscoveryObserver = warm
    ? (event) => {
      if (event.profile === first && event.kind === "settling") warmed();
      observe(event);
    }
    : observe;

  // A server that sends nothing to its whole first wave is not given more waves (silence.ts).
  // The first wave is the profiles that start together: after the lone warming profile, when
  // there is one (its silence may be a download).
  const workers = Math.min(settings.concurrency, queue.length);
  const waveStart = warm ? 1 : 0;
  const silence = new SilenceWatch(waveStart, Math.min(queue.length, waveStart + workers));
  const stopWatching = () => silence.release();
  signal?.addEventListener("abort", stopWatching, { once: true });
  let taken = 0;
  /** The profiles not started after a silent wave: each ends with its own reason. */
  const skipRest = () => {
    for (let declared = queue.shift(); declared !== undefined; declared = queue.shift()) {
      const { profile } = declared;
      outcomes.push({
        profile,
        complete: false,
        instructionsPresent: null,
        pages: 0,
        incomplete: { reason: "server-silent" },
      });
      observe({ kind: "incomplete", profile, reason: "server-silent" });
    }
  };

  const heardStderr = target.kind === "stdio" && stderrEvents?.has(target.stderr) === true;
  const hooksOf = (profile: ProfileLabel): TransportHooks =>
    heardStderr
      ? {
        stderrLine: (line, continues) =>
          observe({ kind: "stderr", profile, line, ...(continues ? { continues } : {}) }),
      }
      : {};

  const worker = async (index: number) => {
    if (index > 0 && warm) await warm;
    while (queue.length > 0) {
      // Past the first wave only once it is known that the server is not silent.
      if (silence.past(taken) && await silence.verdict) return skipRest();
      const declared = queue.shift();
      if (declared === undefined) return;
      const position = taken++;
      // The run is over: nothing waits for the first profile any more.
      if (failure || signal?.aborted) return warmed();
      const release = slots ? await slots.acquire(signal) : () => {};
      if (release === undefined || failure || signal?.aborted) {
        warmed();
        return release?.();
      }
      let transport: Transport;
      const profile = declared.profile;
      observe({ kind: "starting", profile });
      try {
        const { start } = planOf(
          settings.protocolVersion,
          declared.protocolVersion,
          settings.presetsStrict,
        );
        transport = await open(target, start, hooksOf(profile));
      } catch (error) {
        release();
        failure ??= { error };
        silence.release();
        if (profile === first) warmed();
        return;
      }
      const abort = () => void transport.close();
      signal?.addEventListener("abort", abort, { once: true });
      try {
        // Loaded after the first servers were started, so they boot while it loads.
        const { discoverProfile } = await import("./session.ts");
        const outcome = await discoverProfile(
          transport,
          declared,
          settings,
          heard,
          signal,
          () => silence.heard(),
        );
        outcomes.push(outcome);
        silence.ended(position, !outcome.complete && outcome.incomplete.reason === "timeout");
        observe(
          outcome.complete
            ? { kind: "done", profile, tools: outcome.tools.length }
            : { kind: "incomplete", profile, reason: outcome.incomplete.reason },
        );
      } finally {
        signal?.removeEventListener("abort", abort);
        // Its stderr is read to the end once it is closed.
        const { leftover } = await transport.close();
        release();
        if (profile === first) warmed();
        if (leftover) observe({ kind: "leftover", profile, leftover });
      }
    }
  };

  await Promise.all(Array.from({ length: workers }, (_, index) =>
    worker(index).catch((error) => {
      // A bug: the other workers must not wait for a verdict that will never come.
      silence.release();
      throw error;
    })));
  signal?.removeEventListener("abort", stopWatching);
  if (failure) throw failure.error;
  return outcomes;
}

/** What a profile label declares: one of the five, or a client preset. */
function declarationOf(
  label: ProfileLabel,
  clients: ReadonlyMap<string, ClientPreset> | undefined,
): ProfileDeclaration {
  if (isProfile(label)) return { profile: label, capabilities: capabilitiesOf(label) };
  const preset = clients?.get(label.slice("client:".length));
  if (!preset) throw new Error(`no preset for ${label}`);
  return {
    profile: label,
    capabilities: preset.capabilities,
    clientInfo: preset.clientInfo,
    // A preset without its client's revision (a --client-file entry) negotiates from the seed's.
    protocolVersion: preset.protocolVersion ?? PROTOCOL_VERSION,
    ...(preset.accepts ? { accepts: preset.accepts } : {}),
    facts: extractorsFor(preset.rules),
    ...(preset.instructions?.shown && preset.instructions.maxChars !== null
      ? {
        instructionsCut: {
          maxChars: preset.instructions.maxChars,
          ...(preset.instructions.unit ? { unit: preset.instructions.unit } : {}),
          ...(preset.instructions.marker ? { marker: preset.instructions.marker } : {}),
        },
      }
      : {}),
  };
}
