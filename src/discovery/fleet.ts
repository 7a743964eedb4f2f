/**
 * Discovery for many servers at once (a config file's): every server runs concurrently, each
 * with its own profile concurrency, and all of them share one bound on live connections.
 *
 * @module
 */
import { SpawnError } from "../transport/stdio.ts";
import { discoverAll, type DiscoverOptions, type OpenTransport } from "./discover.ts";
import type { DiscoveryEvent } from "./events.ts";
import type { RunSettings } from "./request.ts";
import type { ProfileOutcome } from "./session.ts";
import type { Target } from "../target.ts";
import { Slots } from "./slots.ts";

/** One server to discover. */
export interface ServerMember {
  readonly name: string;
  readonly target: Target;
}

/** What discovery of one server gave: its profiles' outcomes, or a command that cannot start. */
export type MemberOutcome =
  | { readonly name: string; readonly outcomes: readonly ProfileOutcome[] }
  | { readonly name: string; readonly spawnFailed: SpawnError["failure"] };

/**
 * Discovers every member under the run's `settings`, with at most `jobs` connections live at
 * once across all of them. One
 * server's failure never stops the others: a command that cannot be started is that server's
 * outcome. `signal` aborts every server. `observe` hears every event with the member's name;
 * `stderrEvents` as for {@linkcode discoverAll}. Resolves once every connection is closed.
 */
export async function discoverServers(
  settings: RunSettings,
  members: readonly ServerMember[],
  open: OpenTransport,
  jobs: number,
  { signal, observe, stderrEvents }: Omit<DiscoverOptions, "observe" | "slots"> & {
    readonly observe?: (name: string, event: DiscoveryEvent) => void;
  } = {},
): Promise<MemberOutcome[]> {
  const slots = new Slots(jobs);
  const settled = await Promise.allSettled(
    members.map((member) =>
      discoverAll(settings, member.target, open, {
        signal,
        observe: observe && ((event) => observe(member.name, event)),
        slots,
        stderrEvents,
      })
    ),
  );
  return settled.map((result, index) => {
    const { name } = members[index];
    if (result.status === "fulfilled") return { name, outcomes: result.value };
    if (result.reason instanceof SpawnError) return { name, spawnFailed: result.reason.failure };
    throw result.reason;
  });
}
