/**
 * Profile outcomes built in-process, for the tests that build reports without a server.
 *
 * @module
 */
import type { ProfileOutcome } from "../src/discovery/session.ts";
import type { ProfileLabel } from "../src/profiles.ts";

/** A complete profile listing `tools`, whose instructions name `named`. */
export function outcome(
  profile: ProfileLabel,
  tools: readonly string[],
  named: readonly string[] = [],
): ProfileOutcome {
  return {
    profile,
    complete: true,
    instructionsPresent: named.length > 0,
    codeSpans: new Set(named),
    tools: [...tools].sort(),
    listed: [...tools],
    appOnly: new Set(),
    facts: tools.map((name) => ({ name, appOnly: false, facts: {} })),
    pages: 1,
  };
}
