/**
 * Client versions: the pattern a version must match (`--client NAME@VERSION`, an observation,
 * a preset), their order, and which published versions the lab observes for a client.
 *
 * @module
 */

/** A client version: `MAJOR.MINOR.PATCH`, with an optional pre-release (semver, no build). */
export const CLIENT_VERSION: RegExp =
  /^(?:0|[1-9][0-9]{0,8})\.(?:0|[1-9][0-9]{0,8})\.(?:0|[1-9][0-9]{0,8})(?:-[0-9A-Za-z.-]{1,64})?$/;

/** A released version (no pre-release): what the lab picks among published ones. */
const RELEASE = /^(?:0|[1-9][0-9]{0,8})\.(?:0|[1-9][0-9]{0,8})\.(?:0|[1-9][0-9]{0,8})$/;

/** The parts of `NAME@VERSION` (`version` undefined without `@`). */
export function splitClient(value: string): { name: string; version?: string } {
  const at = value.indexOf("@");
  return at === -1 ? { name: value } : { name: value.slice(0, at), version: value.slice(at + 1) };
}

/**
 * Semver precedence of two versions that match {@linkcode CLIENT_VERSION}: negative when `a`
 * comes first (`1.0.99` before `1.0.102`, `1.0.0-rc.1` before `1.0.0`).
 */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = splitPre(a);
  const [coreB, preB] = splitPre(b);
  for (let i = 0; i < 3; i++) {
    const d = Number(coreA[i]) - Number(coreB[i]);
    if (d !== 0) return d;
  }
  if (preA === undefined || preB === undefined) {
    return preA === preB ? 0 : preA === undefined ? 1 : -1;
  }
  const pa = preA.split(".");
  const pb = preB.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (pa[i] === undefined) return -1;
    if (pb[i] === undefined) return 1;
    const na = /^[0-9]+$/.test(pa[i]);
    const nb = /^[0-9]+$/.test(pb[i]);
    if (na && nb && Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
    if (na !== nb) return na ? -1 : 1;
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}

function splitPre(version: string): [string[], string | undefined] {
  const dash = version.indexOf("-");
  const core = dash === -1 ? version : version.slice(0, dash);
  return [core.split("."), dash === -1 ? undefined : version.slice(dash + 1)];
}

/** How many month steps back `--all` goes, and how long one is. */
export const MONTH_STEPS = 6;
const STEP_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The versions `mcpeval lab --all` observes of a client, newest first: at each of now and
 * {@linkcode MONTH_STEPS} steps of 30 days back, the highest release published by then (so a
 * later patch of an old line is never taken for the newest), each once. `published` maps each
 * version to its publication time, as `npm view PKG time --json` gives it.
 */
export function monthlyVersions(published: ReadonlyMap<string, string>, now: Date): string[] {
  const releases = [...published].flatMap(([version, time]) => {
    const at = Date.parse(time);
    return RELEASE.test(version) && Number.isFinite(at) ? [{ version, at }] : [];
  });
  const picked: string[] = [];
  for (let step = 0; step <= MONTH_STEPS; step++) {
    const by = now.getTime() - step * STEP_MS;
    let best: string | undefined;
    for (const { version, at } of releases) {
      if (at <= by && (best === undefined || compareVersions(version, best) > 0)) best = version;
    }
    if (best !== undefined && !picked.includes(best)) picked.push(best);
  }
  return picked;
}
