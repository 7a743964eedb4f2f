/**
 * A run of one or more servers: `planRun` checks everything a user can fix before anything
 * starts; `executeRun` then discovers every checked server within the run's
 * connection bound, tells the observer what happens (tagged with the server: progress, processes
 * left behind, and the stdio servers' stderr lines where asked for), and builds the one
 * report (a client's tool budget counting across servers in config order).
 *
 * @module
 */
import { ToolBudget } from "../analysis/budget.ts";
import type { OpenTransport } from "../discovery/discover.ts";
import type { DiscoveryEvent } from "../discovery/events.ts";
import { discoverServers } from "../discovery/fleet.ts";
import type { RunReport } from "../report/run.ts";
import type { ServerStderr } from "../target.ts";
import type { SpawnError } from "../transport/stdio.ts";
import type { FieldLabels } from "../request/request.ts";
import type { RunRequest } from "../request/run.ts";
import type { RunEffects } from "./effects.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { RuleKindId } from "../clients/rules/registry.ts";
import type { PlannedServer, RunPlan } from "./plan.ts";

/** One discovery event of one server of the run. */
export type RunEvent = DiscoveryEvent & { readonly server: string };

/** Hears every event of a run as it happens; it must not throw or block. */
export type RunObserver = (event: RunEvent) => void;

/** How to execute a run. */
export interface RunOptions {
  /** Aborts discovery: every connection is closed and the profiles still running end incomplete. */
  readonly signal?: AbortSignal;
  /**
   * Hears each profile's progress, every server process that could not be stopped and the
   * `stderr` lines of `stderrEvents`.
   */
  readonly observe?: RunObserver;
  /**
   * The `--server-stderr` modes whose stdio servers' stderr lines reach `observe` as `stderr`
   * events (then `inherit` is read and shown by the observer); by default none, and `inherit`
   * passes a server's stderr on as it is.
   */
  readonly stderrEvents?: ReadonlySet<ServerStderr>;
}

/**
 * What a run gave: its report, or (a run of one server) the reason its command could not be
 * started, a value up to the caller, which says it in its own terms.
 */
export type RunOutcome =
  | RunReport
  | { readonly kind: "not-started"; readonly failure: SpawnError["failure"] };

/**
 * Discovers every checked server of `plan` and builds its report. In a run of one server, a
 * command that cannot be started is the `not-started` outcome (once every connection is
 * closed); in a fleet it is that server's `spawn-failed` (or `cwd-not-found`) entry.
 */
export async function executeRun(
  plan: RunPlan,
  open: OpenTransport,
  { signal, observe, stderrEvents }: RunOptions = {},
): Promise<RunOutcome> {
  const checked = plan.servers.flatMap((server) => "request" in server ? [server] : []);
  // The report's modules load while the first server starts, not after the last one ends.
  let building: Promise<typeof import("../report/build.ts")> | undefined;
  const opening: OpenTransport = async (...args) => {
    const transport = await open(...args);
    if (!building) {
      building = import("../report/build.ts");
      // Awaited after discovery; a failure then is an internal error like any other.
      building.catch(() => {});
    }
    return transport;
  };
  // The clients to observe are installed before any discovery (a failure is a RunError).
  const observing = plan.observe?.length
    ? await (await import("./observe.ts")).installObservations(plan, signal)
    : undefined;
  const [discovered, observed] = await Promise.all([
    discoverServers(
      plan.settings,
      checked.map(({ name, request }) => ({ name, target: request.target })),
      opening,
      plan.jobs,
      {
        signal,
        observe: observe && ((name, event) => observe({ ...event, server: name })),
        stderrEvents,
      },
    ),
    observing?.(opening, { signal, observe, stderrEvents }),
  ]);
  // Each server's observed profiles after its own; a command that cannot start, either way.
  const outcomes = discovered.map((outcome) => {
    const seen = observed?.get(outcome.name);
    if (seen === undefined || "spawnFailed" in outcome) return outcome;
    if ("spawnFailed" in seen) return { name: outcome.name, spawnFailed: seen.spawnFailed };
    return { name: outcome.name, outcomes: [...outcome.outcomes, ...seen.outcomes] };
  });
  const { buildReport, buildServerReport } = await (building ?? import("../report/build.ts"));
  const byName = new Map(outcomes.map((outcome) => [outcome.name, outcome]));
  if (plan.fleet === undefined) {
    const [server] = checked;
    const outcome = byName.get(server.name)!;
    if ("spawnFailed" in outcome) return { kind: "not-started", failure: outcome.spawnFailed };
    return { kind: "server", report: buildReport(settingsOf(plan, server), outcome.outcomes) };
  }
  const { buildFleetReport } = await import("../report/fleet/build.ts");
  const budget = new ToolBudget();
  type Checked = {
    readonly name: string;
    readonly report: ReturnType<typeof buildServerReport>["report"];
    readonly settings: Parameters<typeof buildServerReport>[0];
    readonly outcomes: Parameters<typeof buildServerReport>[1];
  };
  type Entry = Parameters<typeof buildFleetReport>[1][number];
  const built: (Checked | Entry)[] = plan.servers.map((server): Checked | Entry => {
    if ("notChecked" in server) return { name: server.name, ...server.notChecked };
    const outcome = byName.get(server.name)!;
    if ("spawnFailed" in outcome) {
      const reason = outcome.spawnFailed === "cwd-not-found" ? "cwd-not-found" : "spawn-failed";
      return { name: server.name, reason };
    }
    const settings = { ...settingsOf(plan, server), toolsBefore: budget.before() };
    const { report, sent } = buildServerReport(settings, outcome.outcomes);
    budget.add(sent);
    return { name: server.name, report, settings, outcomes: outcome.outcomes };
  });
  const isChecked = (entry: Checked | Entry): entry is Checked => "outcomes" in entry;
  const rejectsIn = (report: Checked["report"]) =>
    report.candidates.flatMap((f) =>
      "effect" in f && f.effect === "reject-request" ? [[f.profile, f.rule] as const] : []
    );
  // A client whose model API refuses every request (`reject-request`) while one server is
  // configured reaches no server of the fleet: every other server is rebuilt with its tools
  // hidden in that profile (reported once, on the server that caused it).
  const rejected = new Map<ProfileLabel, RuleKindId>();
  for (const entry of built) {
    if (!isChecked(entry)) continue;
    for (const [profile, rule] of rejectsIn(entry.report)) {
      if (!rejected.has(profile)) rejected.set(profile, rule as RuleKindId);
    }
  }
  const fleet = buildFleetReport(
    plan.fleet.format,
    built.map((entry): Entry => {
      if (!isChecked(entry)) return entry;
      const own = new Set(rejectsIn(entry.report).map(([profile]) => profile));
      const others = new Map([...rejected].filter(([profile]) => !own.has(profile)));
      if (others.size === 0) return { name: entry.name, report: entry.report };
      const { report } = buildServerReport(
        { ...entry.settings, rejectedBy: others },
        entry.outcomes,
      );
      return { name: entry.name, report };
    }),
    plan.fleet.shard,
  );
  return { kind: "fleet", fleet };
}

/** What a server's report records: the run's settings, its request, its baseline comparison. */
function settingsOf(plan: RunPlan, server: Extract<PlannedServer, { request: unknown }>) {
  const { request, baseline, requireBaselineTools, toolFilter } = server;
  return { ...plan.settings, ...request, baseline, requireBaselineTools, toolFilter };
}

/**
 * Plans a validated run, for one server or a config file's servers: everything a user can fix
 * (a permission, a file, a baseline, a selection) throws a `UserError` before any server starts.
 * `labels` name the fields in messages (the CLI's options, or the library's properties).
 */
export async function planRun(
  request: RunRequest,
  effects: RunEffects,
  labels?: FieldLabels,
): Promise<RunPlan> {
  const { servers, settings, jobs } = request;
  let plan: RunPlan;
  if (servers.kind === "fleet") {
    const { planFleetRun } = await import("./fleet.ts");
    plan = { ...await planFleetRun({ ...request, servers }, effects, labels), settings, jobs };
  } else {
    const { planServerRun } = await import("./server.ts");
    plan = { ...await planServerRun({ ...request, servers }, effects, labels), settings, jobs };
  }
  const observe = settings.observe ?? [];
  if (observe.length === 0) return plan;
  const { planObservations } = await import("./observe.ts");
  return await planObservations(plan, observe, effects);
}
