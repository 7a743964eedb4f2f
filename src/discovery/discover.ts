/**
 * Runs the selected profiles, each on its own connection, a bounded number at a time.
 *
 * @module
 */
import type { GuidanceOptions, TargetOptions } from "../options.ts";
import type { Profile } from "../profiles.ts";
import { openStdio } from "../transport/stdio.ts";
import { openHttp } from "../transport/http.ts";
import type { Transport } from "../transport/transport.ts";
import { VERSION } from "../version.ts";
import type { ProfileOutcome } from "./session.ts";

/** Opens a fresh connection to the target. Throws if the target cannot be reached at all. */
export function openTransport(target: TargetOptions): Transport {
  return target.kind === "stdio"
    ? openStdio(target)
    : openHttp({ url: target.url, headers: target.headers });
}

/**
 * Discovers every selected profile with at most `options.concurrency` running at once, and
 * closes every connection before returning. `signal` aborts the run (every connection is closed
 * and the affected profiles end incomplete). Errors from opening a connection (the command
 * cannot be started) are rethrown once everything has been closed.
 */
export async function discoverAll(
  options: GuidanceOptions,
  signal?: AbortSignal,
): Promise<ProfileOutcome[]> {
  const queue: Profile[] = [...options.profiles];
  const outcomes: ProfileOutcome[] = [];
  let failure: { error: unknown } | undefined;
  const settings = {
    settleMs: options.settleMs,
    timeoutMs: options.timeoutMs,
    clientVersion: VERSION,
  };

  const worker = async () => {
    for (let profile = queue.shift(); profile !== undefined; profile = queue.shift()) {
      if (failure || signal?.aborted) return;
      let transport: Transport;
      try {
        transport = openTransport(options.target);
      } catch (error) {
        failure ??= { error };
        return;
      }
      const abort = () => void transport.close();
      signal?.addEventListener("abort", abort, { once: true });
      try {
        // Loaded after the first servers were started, so they boot while it loads.
        const { discoverProfile } = await import("./session.ts");
        outcomes.push(await discoverProfile(transport, profile, settings));
      } finally {
        signal?.removeEventListener("abort", abort);
        await transport.close();
      }
    }
  };

  const workers = Math.min(options.concurrency, queue.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure) throw failure.error;
  return outcomes;
}
