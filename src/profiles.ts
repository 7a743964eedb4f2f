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
export interface ClientCapabilities {
  roots?: Record<string, never>;
  sampling?: Record<string, never>;
  elicitation?: Record<string, never>;
}

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
