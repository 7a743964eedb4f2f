/**
 * Findings and the gate, as pure functions of the profiles' catalogs.
 *
 * @module
 */
import type { Profile } from "../profiles.ts";
import { type FindingKind, RULES } from "./rules.ts";

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
  /** Its rule. */
  readonly kind: FindingKind;
  /** The profile whose catalog lacks the tool. */
  readonly profile: Profile;
  /** The tool. */
  readonly tool: string;
  /** Profiles whose catalogs list the tool, in the order given. */
  readonly availableIn: readonly Profile[];
}

/** The findings of a complete run and whether it passes the gate. */
export interface Analysis {
  /** Every finding, in rule order, then profile order, then tool. */
  readonly findings: readonly Finding[];
  /** False when any finding's rule gates. */
  readonly passed: boolean;
}

/**
 * Compares each profile's referenced tools and the required tools with the catalogs.
 * `profiles` must be every selected profile, complete, in canonical order.
 *
 * @example
 * ```ts
 * const none = { profile: "none", codeSpans: new Set(["pick"]), tools: ["echo"] } as const;
 * const all = { profile: "all", codeSpans: new Set<string>(), tools: ["echo", "pick"] } as const;
 * analyze([none, all], []).findings;
 * // [{ kind: "referenced-tool-unavailable", profile: "none", tool: "pick", availableIn: ["all"] }]
 * ```
 */
export function analyze(
  profiles: readonly ObservedProfile[],
  requiredTools: readonly string[],
): Analysis {
  const catalogs = profiles.map((observed) => ({ ...observed, has: new Set(observed.tools) }));
  const availableIn = (tool: string) =>
    catalogs.filter((catalog) => catalog.has.has(tool)).map((catalog) => catalog.profile);
  const required = [...requiredTools].sort();

  const byKind: Record<FindingKind, Finding[]> = {
    "referenced-tool-unavailable": [],
    "required-tool-unavailable": [],
    "baseline-tool-unavailable": [],
  };
  for (const catalog of catalogs) {
    for (const tool of [...catalog.codeSpans].sort()) {
      if (catalog.has.has(tool)) continue;
      const where = availableIn(tool);
      if (where.length === 0) continue;
      byKind["referenced-tool-unavailable"].push({
        kind: "referenced-tool-unavailable",
        profile: catalog.profile,
        tool,
        availableIn: where,
      });
    }
    for (const tool of required) {
      if (catalog.has.has(tool)) continue;
      byKind["required-tool-unavailable"].push({
        kind: "required-tool-unavailable",
        profile: catalog.profile,
        tool,
        availableIn: availableIn(tool),
      });
    }
  }
  const findings = Object.values(byKind).flat();
  return { findings, passed: passes(findings) };
}

/** Whether a run with these findings passes the gate: none of them is of a kind that gates. */
export function passes(findings: readonly Finding[]): boolean {
  return !findings.some((finding) => RULES[finding.kind].gates);
}
