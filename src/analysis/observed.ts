/**
 * Observed profiles (`--observe`) in the analysis: what the real client's model did not receive
 * is hidden by the rule {@linkcode OBSERVED_RULE}, and where a client preset of the same client
 * runs beside its observation, every tool on which the two disagree is a
 * `preset-disagrees-with-client` candidate (pure).
 *
 * @module
 */
import { CLIENT_VERSION } from "../clients/versions.ts";
import type { ProfileLabel } from "../profiles.ts";

/** The rule of a tool that a listed catalog had and the observed client's model did not receive. */
export type ObservedRule = "observed";

/** {@linkcode ObservedRule}'s one value. */
export const OBSERVED_RULE: ObservedRule = "observed";

/** How an observed profile hides a tool its model did not receive. */
export interface ObservedHidden {
  readonly rule: ObservedRule;
  readonly effect: "drop-tool";
  readonly reported: true;
}

/**
 * The tools of an observed profile's catalog (`listed`, by key) that its model did not receive,
 * each hidden by {@linkcode OBSERVED_RULE} and reported on its own.
 *
 * @example
 * ```ts
 * observedHidden(["a", "b"], new Set(["a"]));
 * // Map { "b" => { rule: "observed", effect: "drop-tool", reported: true } }
 * ```
 */
export function observedHidden(
  listed: readonly string[],
  received: ReadonlySet<string>,
): Map<string, ObservedHidden> {
  return new Map(
    listed.filter((tool) => !received.has(tool)).map((tool) => [tool, {
      rule: OBSERVED_RULE,
      effect: "drop-tool",
      reported: true,
    }]),
  );
}

/** A profile's client and version, from its label: `client:NAME[@VERSION]` or `observed:NAME@VERSION`. */
function clientOf(label: string): { kind: string; name: string; version?: string } | undefined {
  const found = /^(client|observed):([a-z0-9][a-z0-9-]{0,31})(?:@(.+))?$/.exec(label);
  if (!found || (found[3] !== undefined && !CLIENT_VERSION.test(found[3]))) return undefined;
  return { kind: found[1], name: found[2], ...(found[3] ? { version: found[3] } : {}) };
}

/** A profile as the pairing sees it: its label and, for a client preset, the version it is of. */
export interface PairedProfile {
  readonly profile: ProfileLabel;
  /**
   * A client preset's version (`client:NAME` is the newest observed one); absent: the label's,
   * or none known (a preset file's entry without one).
   */
  readonly version?: string;
}

/**
 * Each client preset profile with the observed profiles of the same client and version among
 * `profiles`: `client:NAME@VERSION` and `client:NAME` whose preset is of VERSION (the newest
 * observed one) with `observed:NAME@VERSION` alone; a preset of no known version with every
 * `observed:NAME@...`.
 *
 * @example
 * ```ts
 * presetPairs([
 *   { profile: "client:codex", version: "0.171.0" },
 *   { profile: "observed:codex@0.171.0" },
 *   { profile: "observed:codex@0.166.0" },
 * ]);
 * // [["client:codex", "observed:codex@0.171.0"]]
 * ```
 */
export function presetPairs(
  profiles: readonly PairedProfile[],
): [ProfileLabel, ProfileLabel][] {
  const pairs: [ProfileLabel, ProfileLabel][] = [];
  for (const preset of profiles) {
    const p = clientOf(preset.profile);
    if (p?.kind !== "client") continue;
    const version = p.version ?? preset.version;
    for (const observed of profiles) {
      const o = clientOf(observed.profile);
      if (o?.kind !== "observed" || o.name !== p.name) continue;
      if (version !== undefined && version !== o.version) continue;
      pairs.push([preset.profile, observed.profile]);
    }
  }
  return pairs;
}

/** What the disagreement check needs of one complete profile. */
export interface JudgedCatalog extends PairedProfile {
  /** Its catalog by key, as the server listed it. */
  readonly listed: readonly string[];
  /** What its client's rules (or, observed, its model) hid, with the rule. */
  readonly hidden?: ReadonlyMap<string, { readonly rule: string }>;
  /** What the config file's own filter hides in every profile. */
  readonly filtered?: ReadonlyMap<string, unknown>;
}

/** One tool on which a preset and the observation of its client disagree. */
export interface Disagreement {
  /** The preset's profile. */
  readonly profile: ProfileLabel;
  /** The observed profile. */
  readonly observed: ProfileLabel;
  readonly tool: string;
  /** The preset's rule that hides the tool (its client's model received it); absent: the preset sends it and the model did not receive it. */
  readonly rule?: string;
}

/**
 * The tools, listed in both catalogs of each pair and not hidden by the config file's filter,
 * that the preset sends and the observed model did not receive, or the other way round; in
 * pair order, then listing order.
 */
export function disagreements(catalogs: readonly JudgedCatalog[]): Disagreement[] {
  const byProfile = new Map(catalogs.map((catalog) => [catalog.profile, catalog]));
  const found: Disagreement[] = [];
  for (const [presetLabel, observedLabel] of presetPairs(catalogs)) {
    const preset = byProfile.get(presetLabel)!;
    const observed = byProfile.get(observedLabel)!;
    const inObserved = new Set(observed.listed);
    for (const tool of preset.listed) {
      if (!inObserved.has(tool) || preset.filtered?.has(tool)) continue;
      const presetHides = preset.hidden?.get(tool);
      const observedHides = observed.hidden?.has(tool) === true;
      if ((presetHides !== undefined) === observedHides) continue;
      found.push({
        profile: presetLabel,
        observed: observedLabel,
        tool,
        ...(presetHides ? { rule: presetHides.rule } : {}),
      });
    }
  }
  return found;
}
