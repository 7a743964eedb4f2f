/**
 * The five client capability profiles, in canonical order, and what each declares.
 *
 * @module
 */

/** Profile labels in canonical report order. */
export const PROFILES = ["none", "roots", "sampling", "elicitation", "all"] as const;

/** A client capability profile. */
export type Profile = typeof PROFILES[number];

/** The client capabilities a profile declares in `initialize`. */
export type ClientCapabilities = Record<string, Record<string, never>>;

const CAPABILITIES: Readonly<Record<Profile, ClientCapabilities>> = {
  none: {},
  roots: { roots: {} },
  sampling: { sampling: {} },
  elicitation: { elicitation: {} },
  all: { roots: {}, sampling: {}, elicitation: {} },
};

/** A fresh copy of the capabilities that `profile` sends in `initialize`. */
export function capabilitiesOf(profile: Profile): ClientCapabilities {
  return structuredClone(CAPABILITIES[profile]);
}

/** Whether `value` is a profile label. */
export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/** The given profiles without duplicates, in canonical order. */
export function canonicalProfiles(profiles: Iterable<Profile>): Profile[] {
  const chosen = new Set(profiles);
  return PROFILES.filter((profile) => chosen.has(profile));
}

/** A profile that impersonates a client preset: `client:NAME`. */
export type ClientProfile = `client:${string}`;

/** A profile of a real client observed through the discovery-only proxy: `observed:NAME@VERSION`. */
export type ObservedLabel = `observed:${string}`;

/** Any profile label: one of the five, a client preset's, or an observed client's. */
export type ProfileLabel = Profile | ClientProfile | ObservedLabel;

/** A version in a label: semver-like, `MAJOR.MINOR.PATCH` with an optional pre-release or build. */
const LABEL_VERSION =
  "[0-9]{1,9}\\.[0-9]{1,9}\\.[0-9]{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\\+[0-9A-Za-z.-]{1,64})?";

/** A client preset's profile label, as this version writes it: `client:NAME[@VERSION]`. */
export const CLIENT_PROFILE: RegExp = new RegExp(
  `^client:[a-z0-9][a-z0-9-]{0,31}(?:@${LABEL_VERSION})?$`,
);

/**
 * Any profile label a report may hold, a later version's included: a name (the five standard
 * profiles), or `PREFIX:NAME` with an optional `@VERSION` (`client:NAME`, `client:NAME@VERSION`,
 * `observed:NAME@VERSION`). A reader keeps a label it does not know: it is none of its profiles.
 */
export const PROFILE_LABEL: RegExp = new RegExp(
  `^[a-z][a-z0-9-]{0,31}(?::[a-z0-9][a-z0-9-]{0,31}(?:@${LABEL_VERSION})?)?$`,
);

/** An observed client's profile label, as this version writes it. */
export const OBSERVED_PROFILE: RegExp = new RegExp(
  `^observed:[a-z0-9][a-z0-9-]{0,31}@${LABEL_VERSION}$`,
);

/** The label of the profile of client `name` at `version`, observed (`--observe`). */
export function observedProfile(name: string, version: string): ObservedLabel {
  return `observed:${name}@${version}`;
}

/** Whether `label` is an observed client's profile. */
export function isObserved(label: string): label is ObservedLabel {
  return label.startsWith("observed:");
}

/** The label of the profile for client preset `name`. */
export function clientProfile(name: string): ClientProfile {
  return `client:${name}`;
}
