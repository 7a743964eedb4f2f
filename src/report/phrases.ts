/**
 * The sentences every renderer shares, built only from a report's validated fields.
 *
 * @module
 */
import { type FindingKind, RULES } from "../analysis/rules.ts";
import type {
  CandidateReport,
  DefectReport,
  GuidanceReport,
  IncompleteReport,
  ProfileReport,
} from "./types.ts";

/** A finding of a report, whichever list it is in. */
export type ReportFinding = CandidateReport | DefectReport;

/** Every finding of a report, in rule order: renderers iterate this one list. */
export function findingsOf(report: GuidanceReport): ReportFinding[] {
  return [...report.candidates, ...report.defects];
}

/** How each finding kind is shown to a person. */
export interface FindingPresentation {
  /** The section heading. */
  readonly heading: string;
  /** The one-word tag before each line of text. */
  readonly tag: string;
  /** A short description (SARIF rule, summaries). */
  readonly summary: string;
  /** The SARIF rule name. */
  readonly sarifName: string;
  /** The finding in one sentence (no trailing period). */
  readonly sentence: (finding: ReportFinding) => string;
}

/** The presentation of every finding kind. */
export const FINDING_PRESENTATION: Readonly<Record<FindingKind, FindingPresentation>> = {
  "referenced-tool-unavailable": {
    heading: "Review candidates",
    tag: "review",
    summary: "The instructions reference a tool that this profile cannot see",
    sarifName: "ReferencedToolUnavailable",
    sentence: (finding) => candidateSentence(finding as CandidateReport),
  },
  "tool-unreachable-in-client": {
    heading: "Tools a client hides from its model",
    tag: "hidden",
    summary: "A client's own rules hide a listed tool from its model",
    sarifName: "ToolUnreachableInClient",
    sentence: (finding) => {
      const where = finding.available_in.length === 0
        ? "no selected profile's model sees it"
        : `visible in ${finding.available_in.join(", ")}`;
      const rule = "rule" in finding ? finding.rule : "a";
      return `${finding.profile}: \`${finding.tool}\` is listed but its client's ${rule} rule hides it; ${where}`;
    },
  },
  "referenced-tool-unknown": {
    heading: "Unknown references",
    tag: "unknown",
    summary: "The instructions name something that no selected catalog lists",
    sarifName: "ReferencedToolUnknown",
    sentence: (finding) => {
      const suggestion = "suggestion" in finding ? finding.suggestion : undefined;
      return `${finding.profile}: \`${finding.tool}\` is named but listed in no selected catalog${
        suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`
      }`;
    },
  },
  "required-tool-unavailable": {
    heading: "Defects",
    tag: "defect",
    summary: "A required tool is missing from a profile's catalog",
    sarifName: "RequiredToolUnavailable",
    sentence: (finding) => defectSentence(finding as DefectReport),
  },
};

/**
 * Whether a report's run could produce findings of `kind`: client rules only with client
 * presets, unknown references only with `--unknown-references`.
 */
export function findingKindApplies(report: GuidanceReport, kind: FindingKind): boolean {
  if (kind === "tool-unreachable-in-client") return report.profiles.some((p) => p.client);
  if (kind === "referenced-tool-unknown") {
    return report.reference_detection === "inline-code-identifiers";
  }
  return true;
}

/** Whether a finding fails the gate. */
export function gates(finding: ReportFinding): boolean {
  return RULES[finding.kind].gates;
}

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

/** An incomplete profile's reason, with the facts it carries (HTTP status, server revision). */
export function reasonText(incomplete: IncompleteReport): string {
  const status = incomplete.http_status;
  const version = incomplete.server_protocol_version;
  return `${incomplete.reason}${status === undefined ? "" : ` (HTTP ${status})`}${
    version === undefined
      ? ""
      : ` (the server speaks ${version}: try --protocol-version ${version})`
  }`;
}

/** An incomplete profile's reason, in words. */
export function incompleteSentence(profile: ProfileReport): string {
  if (profile.complete) return `${profile.profile}: complete`;
  return `${profile.profile}: incomplete: ${reasonText(profile.incomplete)}`;
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
