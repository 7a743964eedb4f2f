/**
 * Candidates, defects and the gate, as pure functions of the profiles' catalogs.
 *
 * @module
 */
import type { Profile } from "../profiles.ts";

/** What analysis needs to know about one completed profile. */
export interface ObservedProfile {
  readonly profile: Profile;
  /** Inline code spans of its instructions that are valid tool identifiers. */
  readonly codeSpans: ReadonlySet<string>;
  /** Its catalog. */
  readonly tools: readonly string[];
}

/** One finding: a tool that a profile cannot see, and where it is visible. */
export interface Finding {
  readonly profile: Profile;
  readonly tool: string;
  /** Profiles whose catalogs list the tool, in the order given. */
  readonly availableIn: readonly Profile[];
}

/** The review candidates and defects of a complete run. */
export interface Findings {
  /** `referenced-tool-unavailable`, sorted by profile order, then tool. */
  readonly candidates: readonly Finding[];
  /** `required-tool-unavailable`, sorted by profile order, then tool. */
  readonly defects: readonly Finding[];
}

/**
 * Compares each profile's referenced tools and the required tools with the catalogs.
 * `profiles` must be every selected profile, complete, in canonical order.
 *
 * @example
 * ```ts
 * const none = { profile: "none", codeSpans: new Set(["pick"]), tools: ["echo"] } as const;
 * const all = { profile: "all", codeSpans: new Set<string>(), tools: ["echo", "pick"] } as const;
 * findingsOf([none, all], []).candidates; // [{ profile: "none", tool: "pick", availableIn: ["all"] }]
 * ```
 */
export function findingsOf(
  profiles: readonly ObservedProfile[],
  requiredTools: readonly string[],
): Findings {
  const catalogs = profiles.map((observed) => ({ ...observed, has: new Set(observed.tools) }));
  const availableIn = (tool: string) =>
    catalogs.filter((catalog) => catalog.has.has(tool)).map((catalog) => catalog.profile);

  const candidates: Finding[] = [];
  const defects: Finding[] = [];
  for (const catalog of catalogs) {
    for (const tool of [...catalog.codeSpans].sort()) {
      if (catalog.has.has(tool)) continue;
      const where = availableIn(tool);
      if (where.length > 0) candidates.push({ profile: catalog.profile, tool, availableIn: where });
    }
    for (const tool of [...requiredTools].sort()) {
      if (!catalog.has.has(tool)) {
        defects.push({ profile: catalog.profile, tool, availableIn: availableIn(tool) });
      }
    }
  }
  return { candidates, defects };
}
