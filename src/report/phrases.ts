/**
 * The sentences every renderer shares, built only from a report's validated fields.
 *
 * @module
 */
import type { CandidateReport, DefectReport, GuidanceReport, ProfileReport } from "./types.ts";

/** How a run ended, in words. */
export interface Outcome {
  readonly status: "passed" | "failed" | "incomplete";
  /** Why, in one clause (no trailing period). */
  readonly detail: string;
}

/** The run's result: passed, failed or incomplete, and why. */
export function outcomeOf(report: GuidanceReport): Outcome {
  if (!report.complete) {
    const incomplete = report.profiles.filter((profile) => !profile.complete).length;
    return {
      status: "incomplete",
      detail: `discovery did not complete for ${
        plural(incomplete, "profile")
      }; no findings are reported (exit 3)`,
    };
  }
  const candidates = `${
    plural(report.candidates.length, "review candidate")
  } (never fail the gate)`;
  if (report.passed) {
    const required = report.required_tools.length === 0
      ? "no required tools declared"
      : `all ${plural(report.required_tools.length, "required tool")} listed in every profile`;
    return { status: "passed", detail: `${required}; ${candidates}` };
  }
  return {
    status: "failed",
    detail: `${plural(report.defects.length, "required-tool defect")}; ${candidates} (exit 1)`,
  };
}

/** One review candidate, in words. */
export function candidateSentence(candidate: CandidateReport): string {
  return `${candidate.profile}: \`${candidate.tool}\` is referenced but not listed; available in ${
    candidate.available_in.join(", ")
  }`;
}

/** One defect, in words. */
export function defectSentence(defect: DefectReport): string {
  const where = defect.available_in.length === 0
    ? "listed in no selected profile"
    : `available in ${defect.available_in.join(", ")}`;
  return `${defect.profile}: required tool ${defect.tool} is missing; ${where}`;
}

/** An incomplete profile's reason, in words (with its HTTP status when there is one). */
export function incompleteSentence(profile: ProfileReport): string {
  if (profile.complete) return `${profile.profile}: complete`;
  const status = profile.incomplete.http_status;
  return `${profile.profile}: incomplete: ${profile.incomplete.reason}${
    status === undefined ? "" : ` (HTTP ${status})`
  }`;
}

/** `count noun` or `count nouns`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Tools listed by some but not all complete profiles, with the profiles that list them. */
export function capabilityDependentTools(report: GuidanceReport): [string, string[]][] {
  const complete = report.profiles.filter((profile) => profile.tools !== null);
  const where = new Map<string, string[]>();
  for (const profile of complete) {
    for (const tool of profile.tools ?? []) {
      where.set(tool, [...(where.get(tool) ?? []), profile.profile]);
    }
  }
  return [...where].filter(([, profiles]) => profiles.length < complete.length)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
