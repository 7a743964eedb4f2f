/**
 * Which client `--observe NAME[@VERSION]` runs, and installing it: the lab's driver of NAME, at
 * VERSION, at its newest observed version without one (`newestObserved`, the version
 * `--client NAME` selects too), or at the registry's `latest` only with `@latest`; installed from
 * the npm registry into the lab's cache (`run.ts`, bounded, once per version) and checked against
 * the package's integrity: for an observed version the one its observation recorded
 * (`src/clients/observed/NAME@VERSION.json`), else the one the registry gives for it. A problem is
 * a {@linkcode ObserveSetupError}, one fixed line.
 *
 * @module
 */
import { closestTypo } from "../analysis/suggest.ts";
import { knownPresets, newestObserved, versionsOf } from "../clients/presets.ts";
import { CLIENT_VERSION } from "../clients/versions.ts";
import { type ObservedLabel, observedProfile } from "../profiles.ts";
import { DRIVERS, UNAVAILABLE } from "./clients/mod.ts";
import type { Driver } from "./driver.ts";
import { committedIntegrity } from "./committed.ts";
import { endScopes, install, installDir, installedIntegrity } from "./run.ts";

/** An `--observe` that cannot be set up: one fixed line (it names clients, versions, options). */
export class ObserveSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ObserveSetupError";
  }
}

/** What `--observe` asks for: a client, and a version, `latest`, or (undefined) the newest observed. */
export interface ObserveChoice {
  readonly client: string;
  readonly version?: string;
}

/** A client to observe, resolved: its driver, version, the integrity to check, its profile. */
export interface ResolvedClient {
  readonly driver: Driver;
  readonly version: string;
  readonly integrity: string;
  readonly label: ObservedLabel;
}

/** The names `--observe` takes: the lab's clients that run headless. */
export const OBSERVABLE: readonly string[] = DRIVERS.map((driver) => driver.id);

/** Looks `PKG@SPEC` up on the npm registry: its version and `dist.integrity`, or undefined. */
export type RegistryLookup = (
  pkg: string,
  spec: string,
) => Promise<{ readonly version: string; readonly integrity: string } | undefined>;

/**
 * Resolves `choice` to a driver and a version with its integrity; the registry is asked only
 * for `@latest` and for a version the lab has not observed.
 */
export async function resolveClient(
  choice: ObserveChoice,
  lookup: RegistryLookup,
): Promise<ResolvedClient> {
  const driver = DRIVERS.find((candidate) => candidate.id === choice.client);
  if (!driver) {
    const unavailable = UNAVAILABLE.find((entry) => entry.id === choice.client);
    if (unavailable) {
      throw new ObserveSetupError(`--observe cannot run ${unavailable.id}: ${unavailable.reason}`);
    }
    const likely = closestTypo(choice.client, [...OBSERVABLE].sort());
    throw new ObserveSetupError(
      `--observe must name a client the lab runs headless: ${[...OBSERVABLE].sort().join(", ")}${
        likely ? `; did you mean ${likely}?` : ""
      }`,
    );
  }
  const wanted = choice.version ?? newestObserved(driver.id);
  if (wanted === undefined) {
    throw new ObserveSetupError(
      `--observe ${driver.id} has no observed version: name one (${driver.id}@VERSION) or @latest`,
    );
  }
  if (isObserved(driver.id, wanted)) {
    return resolved(driver, wanted, await recorded(driver, wanted));
  }
  const found = await lookup(driver.package, wanted);
  if (found === undefined || !CLIENT_VERSION.test(found.version)) {
    throw new ObserveSetupError(
      wanted === "latest"
        ? `--observe ${driver.id}@latest: the npm registry gave no version (is it reachable?)`
        : `--observe ${driver.id}@${wanted}: the npm registry has no such version (is it reachable?)`,
    );
  }
  // `@latest` may be a version the lab observed: its observation's integrity holds then too.
  return resolved(
    driver,
    found.version,
    isObserved(driver.id, found.version) ? await recorded(driver, found.version) : found.integrity,
  );
}

/** Whether the lab observed `id@version` (a built-in preset is derived from its observation). */
const isObserved = (id: string, version: string) =>
  versionsOf(knownPresets(), id).includes(version);

/** The integrity the observation of an observed version recorded for its install. */
async function recorded(driver: Driver, version: string): Promise<string> {
  const integrity = await committedIntegrity(driver.id, version);
  if (integrity === undefined) {
    throw new ObserveSetupError(
      `--observe ${driver.id}@${version}: its committed observation records no integrity to install it against`,
    );
  }
  return integrity;
}

function resolved(driver: Driver, version: string, integrity: string): ResolvedClient {
  return { driver, version, integrity, label: observedProfile(driver.id, version) };
}

/** `npm view PKG@SPEC version dist.integrity --json`, bounded by `timeoutMs`. */
export function npmLookup(timeoutMs: number): RegistryLookup {
  return async (pkg, spec) => {
    try {
      const output = await new Deno.Command("npm", {
        args: ["view", `${pkg}@${spec}`, "version", "dist.integrity", "--json", "--loglevel=error"],
        // npm with the caller's whole environment (its registry, proxy and CA settings).
        env: Deno.env.toObject(),
        stdin: "null",
        stdout: "piped",
        stderr: "null",
        signal: AbortSignal.timeout(timeoutMs),
      }).output();
      if (!output.success) return undefined;
      const value = JSON.parse(new TextDecoder().decode(output.stdout));
      const entry = Array.isArray(value) ? value.at(-1) : value;
      const version = entry?.version;
      const integrity = entry?.["dist.integrity"];
      return typeof version === "string" && typeof integrity === "string"
        ? { version, integrity }
        : undefined;
    } catch {
      return undefined;
    }
  };
}

/**
 * Installs the client into the lab's cache (once per version; the npm scope ends on `signal`)
 * and checks the installed package's integrity (npm's lockfile in the prefix). Returns the
 * prefix. A mismatch removes the install.
 */
export async function installClient(
  client: ResolvedClient,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  const { driver, version } = client;
  const what = `${driver.id} ${version}`;
  const stop = () => void endScopes();
  signal?.addEventListener("abort", stop, { once: true });
  let prefix: string;
  try {
    prefix = await install(driver.package, version, timeoutMs);
  } catch {
    throw new ObserveSetupError(
      `--observe: ${what} could not be installed from the npm registry (within ${
        Math.round(timeoutMs / 1000)
      } s)`,
    );
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  const installed = await installedIntegrity(prefix, driver.package);
  if (installed !== client.integrity) {
    await Deno.remove(installDir(driver.package, version), { recursive: true })
      .catch(() => {});
    throw new ObserveSetupError(
      `--observe: the installed ${what} does not have the integrity recorded for it; the install was removed from the cache`,
    );
  }
  return prefix;
}
