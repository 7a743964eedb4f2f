/**
 * The sentences every renderer shares, built only from a report's validated fields. A report
 * read (a merge's) may hold ids of a later version: an id this version does not know is shown
 * as it is, with a fixed phrase that says so, never looked up in a table that lacks it.
 *
 * @module
 */
import { FINDING_KINDS, type FindingKind, hintOf, RULES } from "../analysis/rules.ts";
import { closestTypo } from "../analysis/suggest.ts";
import { RULE_KINDS } from "../clients/rules/registry.ts";
import { OBSERVED_RULE } from "../analysis/observed.ts";
import { DETAIL_PHRASES, detailPhrase, INCOMPLETE_HINTS } from "../protocol/incomplete.ts";
import { MAX_RESOLVED_LISTED } from "../limits.ts";
import type {
  BaselineState,
  CandidateReport,
  DefectReport,
  GuidanceReport,
  IncompleteReport,
  ProfileDrift,
  ProfileReport,
  ProfilesDifferReport,
  ReportIds,
  ResolvedFindingReport,
} from "./types.ts";

/** A report as renderers take it: one this run wrote, or one read (a merge's). */
type Report = GuidanceReport<ReportIds>;

/** A finding of a report, whichever list it is in. */
export type ReportFinding = CandidateReport<ReportIds> | DefectReport<ReportIds>;

/** Whether `table` has `id` of its own: an id this version knows. */
export function knows<K extends string>(table: Readonly<Record<K, unknown>>, id: string): id is K {
  return Object.hasOwn(table, id);
}

/**
 * An id this version does not know, in words that say so: `finding kind X, which this version
 * of mcpeval does not know` (`what` names what the id is).
 */
export function unknownId(what: string, id: string): string {
  return `${what} ${id}, which this version of mcpeval does not know`;
}

/** What renderers say in place of the hint of an id this version does not know. */
export const UNKNOWN_HINTS = {
  kind:
    "This version of mcpeval does not know this kind of finding; the version that wrote the report explains it.",
  reason:
    "This version of mcpeval does not know this reason; the version that wrote the report explains it.",
  "not-checked":
    "this version of mcpeval does not know this reason; the version that wrote the report explains it",
} as const;

/** Every finding of a report, in rule order: renderers iterate this one list. */
export function findingsOf(report: Report): ReportFinding[] {
  return [...report.candidates, ...report.defects];
}

/**
 * The finding kinds of `findings`: the known ones in rule order, then those this version does
 * not know, in the order they first appear.
 */
export function kindsOf(findings: readonly { readonly kind: string }[]): string[] {
  const present = new Set(findings.map((finding) => finding.kind));
  return [
    ...FINDING_KINDS.filter((kind) => present.has(kind)),
    ...[...present].filter((kind) => !knows(RULES, kind)),
  ];
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
  /** What one finding is called in counts: "review candidate". */
  readonly noun: string;
  /** Whether `heading` is what is counted ("Defects (2)"); else the count says its noun. */
  readonly headingCounts: boolean;
  /**
   * The hint under a list grouped by tool, whose lines name several profiles (text and the step
   * summary); the report's own `hint` speaks of one profile.
   */
  readonly groupHint?: string;
  /** The finding in one sentence (no trailing period); `report` is the one it is from. */
  readonly sentence: (finding: ReportFinding, report: Report) => string;
}

/** What a client rule checks, as a clause (`: its name is ...`), or nothing for an unknown id. */
function checkOf(rule: string): string {
  const kind =
    (RULE_KINDS as Readonly<Record<string, { readonly check: string } | undefined>>)[rule];
  return kind === undefined ? "" : `: ${kind.check}`;
}

/** The presentation of every finding kind. */
export const FINDING_PRESENTATION: Readonly<Record<FindingKind, FindingPresentation>> = {
  "referenced-tool-unavailable": {
    heading: "Review candidates",
    tag: "review",
    summary: "The instructions reference a tool that this profile cannot see",
    sarifName: "ReferencedToolUnavailable",
    noun: "review candidate",
    headingCounts: true,
    groupHint:
      "Each profile named above has instructions that name a tool its catalog does not list; check the reference and explain any capability requirement in the instructions.",
    sentence: (finding) => candidateSentence(finding),
  },
  "reference-cut-in-client": {
    heading: "References a client cuts from the instructions",
    tag: "cut",
    summary: "The instructions name a tool only past the cut a client makes",
    sarifName: "ReferenceCutInClient",
    noun: "cut-reference candidate",
    headingCounts: false,
    sentence: (finding) => {
      const cut = "cut" in finding && typeof finding.cut === "number" ? finding.cut : undefined;
      const where = finding.available_in.length === 0
        ? "no selected profile's model sees it"
        : `visible in ${finding.available_in.join(", ")}`;
      return `${finding.profile}: \`${finding.tool}\` is named in the instructions only past the first ${
        cut ?? "few"
      } characters its client shows its model (or in a code span that cut splits); ${where}`;
    },
  },
  "tool-unreachable-in-client": {
    heading: "Tools a client hides from its model",
    tag: "hidden",
    summary: "A client's own rules hide a listed tool from its model",
    sarifName: "ToolUnreachableInClient",
    noun: "hidden-tool candidate",
    headingCounts: false,
    sentence: (finding) => {
      const where = finding.available_in.length === 0
        ? "no selected profile's model sees it"
        : `visible in ${finding.available_in.join(", ")}`;
      const rule = ("rule" in finding ? finding.rule : undefined) ?? "a";
      const effect = "effect" in finding ? finding.effect : undefined;
      const check = checkOf(rule);
      if (rule === OBSERVED_RULE) {
        return `${finding.profile}: \`${finding.tool}\` is listed but the real client's model did not receive it (observed); ${where}`;
      }
      if (effect === undefined) {
        return `${finding.profile}: \`${finding.tool}\` is listed but its client's ${rule} rule hides it${check}; ${where}`;
      }
      // A refused request fails the client's every turn: no server's tool reaches its model.
      return effect === "reject-request"
        ? `${finding.profile}: \`${finding.tool}\` makes its client's ${rule} rule fail every request to its model (${effect})${check}, so no tool of any of its servers reaches it; ${where}`
        : `${finding.profile}: \`${finding.tool}\` makes its client's ${rule} rule hide every tool of this server (${effect})${check}; ${where}`;
    },
  },
  "tool-cap-exceeded-in-client": {
    heading: "Catalogs over a client's tool cap",
    tag: "over-cap",
    summary: "A catalog exceeds a client's tool cap, which only warns",
    sarifName: "ToolCapExceededInClient",
    noun: "over-cap candidate",
    headingCounts: false,
    sentence: (finding) =>
      `${finding.profile}: \`${finding.tool}\` is past its client's max-tools cap, which only warns; nothing is hidden`,
  },
  "tool-disabled-in-config": {
    heading: "Tools the config file's own filter hides",
    tag: "filtered",
    summary: "The instructions name a tool that the config file's own tool filter hides",
    sarifName: "ToolDisabledInConfig",
    noun: "filtered-tool candidate",
    headingCounts: false,
    sentence: (finding) => {
      const rule = "rule" in finding ? finding.rule : "a";
      return `${finding.profile}: \`${finding.tool}\` is named and listed but the config file's ${rule} filter hides it in every profile`;
    },
  },
  "preset-disagrees-with-client": {
    heading: "Tools on which a preset and its observed client disagree",
    tag: "disagrees",
    summary:
      "A client preset and the real client, observed, disagree on whether its model sees a tool",
    sarifName: "PresetDisagreesWithClient",
    noun: "preset-disagreement candidate",
    headingCounts: false,
    sentence: (finding) => {
      const observed = "observed_profile" in finding ? finding.observed_profile : undefined;
      const rule = "rule" in finding ? finding.rule : undefined;
      const client = observed ?? "the observed client";
      return rule === undefined
        ? `${finding.profile}: its preset sends \`${finding.tool}\` to the model, but ${client}'s model did not receive it`
        : `${finding.profile}: its preset's ${rule} rule hides \`${finding.tool}\`${
          checkOf(rule)
        }, but ${client}'s model received it`;
    },
  },
  "referenced-tool-unknown": {
    heading: "Unknown references",
    tag: "unknown",
    summary: "The instructions name something that no selected catalog lists",
    sarifName: "ReferencedToolUnknown",
    noun: "unknown reference",
    headingCounts: true,
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
    noun: "required-tool defect",
    headingCounts: true,
    groupHint:
      "Each profile named above is missing a required tool from its catalog; check the server's capability conditions or the --require-tool declaration.",
    sentence: (finding, report) => defectSentence(finding, report),
  },
  "baseline-tool-unavailable": {
    heading: "Baseline tools missing",
    tag: "defect",
    summary: "A tool of a profile's baseline catalog is missing from its catalog",
    sarifName: "BaselineToolUnavailable",
    noun: "baseline-tool defect",
    headingCounts: true,
    sentence: (finding) => baselineToolSentence(finding),
  },
};

/** How a client profile's references are read, as a clause after its label. */
const REFERENCE_PHRASES: Readonly<Record<string, string>> = {
  "not-shown":
    "its client shows its model no server instructions, so they give no reference candidates",
  "as-given":
    "how its client shows server instructions is not known, so references are read from the instructions as given",
};

/** What a client shows its model by default, as a clause after its label (deferral). */
const DEFERRAL_PHRASES: Readonly<Record<string, string>> = {
  all:
    "by default its client shows its model only tool names behind a search tool (deferral: a deferred tool is reachable)",
  some:
    "by default its client shows its model some tools by name only, behind a search tool (deferral: a deferred tool is reachable)",
};

/**
 * What a report says of a client profile beyond its catalog (SPEC 25): how its references are
 * read (none, as given, or from the first N characters its client shows), and its deferral; one
 * sentence each, none for what needs no word (a client that shows its model the whole text).
 */
export function clientFacts(profile: ProfileReport<ReportIds>): string[] {
  const client = profile.client;
  if (!client) return [];
  const facts: string[] = [];
  const reading = client.references;
  if (reading !== undefined && Object.hasOwn(REFERENCE_PHRASES, reading)) {
    facts.push(`${profile.profile}: ${REFERENCE_PHRASES[reading]}`);
  } else if (
    (reading === undefined || reading === "as-shown") && typeof client.instructions_cut === "number"
  ) {
    facts.push(
      `${profile.profile}: references are read from the first ${client.instructions_cut} characters of each server's instructions, as its client shows them`,
    );
  } else if (
    reading !== undefined && !knows(REFERENCE_PHRASES, reading) && reading !== "as-shown"
  ) {
    facts.push(`${profile.profile}: ${unknownId("reference reading", reading)}`);
  }
  const deferral = client.deferral;
  if (deferral !== undefined && Object.hasOwn(DEFERRAL_PHRASES, deferral)) {
    facts.push(`${profile.profile}: ${DEFERRAL_PHRASES[deferral]}`);
  }
  return facts;
}

/** What a finding of a kind this version does not know is called in counts. */
const UNKNOWN_KIND_NOUN = "unknown-kind finding";

/**
 * How a finding of a kind this version does not know is shown: by its kind's id, with fixed
 * phrases that say this version does not know it.
 */
function unknownPresentation(kind: string): FindingPresentation {
  return {
    heading: `Findings of a kind this version does not know: ${kind}`,
    tag: "unknown-kind",
    summary: `A finding of ${unknownId("kind", kind)}`,
    sarifName: "UnknownFindingKind",
    noun: UNKNOWN_KIND_NOUN,
    headingCounts: true,
    sentence: (finding) =>
      `${finding.profile}: \`${finding.tool}\` has a finding of ${unknownId("kind", kind)}`,
  };
}

/** How findings of `kind` are shown: its row of {@linkcode FINDING_PRESENTATION}, or fixed phrases. */
export function presentationOf(kind: string): FindingPresentation {
  return knows(FINDING_PRESENTATION, kind) ? FINDING_PRESENTATION[kind] : unknownPresentation(kind);
}

/** The hint of findings of `kind`: its rule's, or a fixed one for a kind this version does not know. */
export function kindHint(kind: string): string {
  return knows(RULES, kind) ? RULES[kind].hint : UNKNOWN_HINTS.kind;
}

/**
 * A finding's hint, from this version's table (never the report's own text): a required tool
 * that a config file's filter hides has its own.
 */
export function findingHint(finding: ReportFinding): string {
  const { kind } = finding;
  return knows(RULES, kind)
    ? hintOf(kind, "rule" in finding && finding.rule !== undefined)
    : UNKNOWN_HINTS.kind;
}

/** How a finding's baseline state is said after its sentence. */
export const BASELINE_STATE_PHRASES: Readonly<Record<BaselineState, string>> = {
  new: "new since the baseline",
  unchanged: "in the baseline",
};

/**
 * A section heading with its count: "Defects (2)", "Tools a client hides from its model (4
 * hidden-tool candidates)"; with `tools`, how many tools they are about.
 */
export function countedHeading(kind: string, count: number, tools?: number): string {
  const { heading, headingCounts, noun } = presentationOf(kind);
  const counted = headingCounts ? String(count) : plural(count, noun);
  return `${heading} (${counted})${tools === undefined ? "" : ` for ${plural(tools, "tool")}`}`;
}

/** A finding's sentence, followed by its baseline state when it has one. */
export function findingSentence(finding: ReportFinding, report: Report): string {
  const sentence = presentationOf(finding.kind).sentence(finding, report);
  return finding.baseline_state === undefined
    ? sentence
    : `${sentence} (${statePhrase(finding.baseline_state)})`;
}

/** How a finding's baseline state is said ({@linkcode BASELINE_STATE_PHRASES}). */
export function statePhrase(state: string): string {
  return knows(BASELINE_STATE_PHRASES, state)
    ? BASELINE_STATE_PHRASES[state]
    : unknownId("baseline state", state);
}

/**
 * Whether a report's run could produce findings of `kind`: client rules only with client
 * presets, unknown references only with `--unknown-references`, baseline tools only with
 * `--baseline` (and any kind of the baseline's resolved findings).
 */
export function findingKindApplies(report: Report, kind: FindingKind): boolean {
  // A finding keeps its kind, whatever the options (a report read may be a later version's), and
  // so does a resolved finding of the baseline.
  const ofKind = (finding: { readonly kind: string }) => finding.kind === kind;
  if (findingsOf(report).some(ofKind) || report.baseline?.resolved.some(ofKind)) return true;
  if (kind === "tool-unreachable-in-client") {
    return report.profiles.some((p) => p.client || p.observed);
  }
  if (kind === "tool-cap-exceeded-in-client" || kind === "reference-cut-in-client") {
    return report.profiles.some((p) => p.client);
  }
  if (kind === "preset-disagrees-with-client") {
    return report.profiles.some((p) => p.client) && report.profiles.some((p) => p.observed);
  }
  if (kind === "tool-disabled-in-config") {
    return report.candidates.some((finding) => finding.kind === kind);
  }
  if (kind === "referenced-tool-unknown") {
    return report.reference_detection === "inline-code-identifiers";
  }
  if (kind === "baseline-tool-unavailable") return report.baseline !== undefined;
  return true;
}

/**
 * Whether a finding of `report` fails the gate: its rule says; a finding of a kind this version
 * does not know gates when it is one of the report's defects.
 */
export function gates(finding: ReportFinding, report: Report): boolean {
  if (knows(RULES, finding.kind)) return RULES[finding.kind].gates;
  // The report's defects as a set, once per report: a renderer asks of each of its findings.
  let defects = DEFECTS.get(report.defects);
  if (defects === undefined) {
    defects = new Set(report.defects);
    DEFECTS.set(report.defects, defects);
  }
  return defects.has(finding);
}

/** Each report's defects as a set (see {@linkcode gates}). */
const DEFECTS = new WeakMap<readonly ReportFinding[], ReadonlySet<ReportFinding>>();

/** How a run ended, in words. */
export interface Outcome {
  readonly status: "passed" | "failed" | "incomplete";
  /** Why, in one clause (no trailing period). */
  readonly detail: string;
}

/** The run's result: passed, failed or incomplete, and why. */
export function outcomeOf(report: Report): Outcome {
  if (!report.complete) {
    const incomplete = report.profiles.filter((profile) => !profile.complete).length;
    return {
      status: "incomplete",
      detail: `discovery did not complete for ${
        plural(incomplete, "profile")
      }; no findings are reported (exit 3)`,
    };
  }
  const fresh = report.baseline === undefined
    ? ""
    : `${report.candidates.filter((c) => c.baseline_state === "new").length} new; `;
  // A referenced-tool-unavailable candidate compares a profile with another one.
  const candidates = report.profiles.length < 2 && report.candidates.length === 0
    ? "no review candidates: they need two or more profiles"
    : `${findingCounts(report.candidates, "review candidate")} (${fresh}never fail the gate)`;
  if (report.passed) {
    const required = report.required_tools.length === 0
      ? "no required tools declared"
      : `all ${plural(report.required_tools.length, "required tool")} listed in every profile`;
    const kept = report.baseline?.require_baseline_tools
      ? "; every baseline tool still listed in its profile"
      : "";
    return { status: "passed", detail: `${required}${kept}; ${candidates}` };
  }
  return {
    status: "failed",
    detail: `${findingCounts(report.defects, "defect")}; ${candidates} (exit 1)`,
  };
}

/**
 * Findings counted by kind, each by its own noun ("9 review candidates, 2 hidden-tool
 * candidates"), in rule order; `0 NONEs` when there are none.
 */
export function findingCounts(findings: readonly { kind: string }[], none: string): string {
  const byKind = new Map<string, number>();
  for (const { kind } of findings) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  return kindCounts(byKind, none);
}

/**
 * As {@linkcode findingCounts}, from how many findings of each kind there are; the findings of
 * kinds this version does not know are counted together, after the others.
 */
export function kindCounts(byKind: ReadonlyMap<string, number>, none: string): string {
  const counts = FINDING_KINDS.flatMap((kind) => {
    const count = byKind.get(kind) ?? 0;
    return count === 0 ? [] : [plural(count, FINDING_PRESENTATION[kind].noun)];
  });
  let unknown = 0;
  for (const [kind, count] of byKind) if (!knows(RULES, kind)) unknown += count;
  if (unknown > 0) counts.push(plural(unknown, UNKNOWN_KIND_NOUN));
  return counts.length === 0 ? plural(0, none) : counts.join(", ");
}

/** The parts of a finding its sentence says. */
type Said = Pick<ReportFinding, "profile" | "tool" | "available_in">;

/** One review candidate, in words. */
export function candidateSentence(candidate: Said): string {
  return `${candidate.profile}: \`${candidate.tool}\` is referenced but not listed; available in ${
    candidate.available_in.join(", ")
  }`;
}

/**
 * One required-tool defect, in words; with `report`, a likely tool when no profile lists the
 * required one.
 */
export function defectSentence(
  defect: Said & { readonly rule?: string },
  report?: Report,
): string {
  const filter = defect.rule;
  if (filter !== undefined) {
    return `${defect.profile}: required tool ${defect.tool} is listed but ${
      filteredPhrase(filter)
    } in every profile`;
  }
  const where = defect.available_in.length === 0
    ? `listed in no selected profile${didYouMean(defect.tool, report)}`
    : `available in ${defect.available_in.join(", ")}`;
  return `${defect.profile}: required tool ${defect.tool} is missing; ${where}`;
}

/** What hides a listed tool in every profile: "hidden by the config file's disabled-tools filter". */
export function filteredPhrase(rule: string): string {
  return `hidden by the config file's ${rule} filter`;
}

/** One baseline-tool defect, in words. */
export function baselineToolSentence(defect: Said): string {
  const where = defect.available_in.length === 0
    ? "listed in no selected profile"
    : `available in ${defect.available_in.join(", ")}`;
  return `${defect.profile}: baseline tool ${defect.tool} is no longer listed; ${where}`;
}

/** The resolved findings past the listed ones, in one line. */
export function notListedSentence(count: number): string {
  return `and ${
    plural(count, "more resolved finding")
  }, not listed (at most ${MAX_RESOLVED_LISTED} are)`;
}

/** One resolved finding of the baseline, in words. */
export function resolvedSentence(finding: ResolvedFindingReport<ReportIds>): string {
  return `${finding.profile}: ${finding.tool} (${presentationOf(finding.kind).noun})`;
}

/** A baseline whose profiles are not the run's, said in every format. */
export const PROFILES_DIFFER_PHRASE =
  "The profiles run differ from those of the baseline: findings of a profile not compared are not called resolved";

/** The profiles run are not the baseline's, in one sentence (no trailing period). */
export function profilesDifferSentence(differ: ProfilesDifferReport<ReportIds>): string {
  const parts = [
    differ.not_run.length > 0 ? `not run: ${differ.not_run.join(", ")}` : undefined,
    differ.not_in_baseline.length > 0
      ? `not in the baseline: ${differ.not_in_baseline.join(", ")}`
      : undefined,
    differ.not_judged > 0
      ? `${plural(differ.not_judged, "finding")} of the baseline not judged`
      : undefined,
  ].filter((part) => part !== undefined);
  return `${PROFILES_DIFFER_PHRASE} (${parts.join("; ")})`;
}

/** Why a profile was not compared, in words. */
const NOT_COMPARED: Readonly<Record<"incomplete" | "not-in-baseline", string>> = {
  incomplete: "not compared: its discovery did not complete",
  "not-in-baseline": "not compared: the baseline has no catalog of it",
};

/** One profile's catalog drift, without the profile: "added a, b; removed c" or "no change". */
export function driftText(drift: ProfileDrift<ReportIds>): string {
  if (!drift.compared) {
    return knows(NOT_COMPARED, drift.reason)
      ? NOT_COMPARED[drift.reason]
      : `not compared: ${unknownId("reason", drift.reason)}`;
  }
  const parts = [
    ...(drift.added.length === 0 ? [] : [`added ${drift.added.join(", ")}`]),
    ...(drift.removed.length === 0 ? [] : [`removed ${drift.removed.join(", ")}`]),
  ];
  return parts.length === 0 ? "no change" : parts.join("; ");
}

/** Whether a profile's catalog changed since the baseline. */
export function drifted(drift: ProfileDrift<ReportIds>): boolean {
  return drift.compared && drift.added.length + drift.removed.length > 0;
}

/**
 * `; did you mean X?` when a tool that some profile of `report` lists is close to `tool` (a
 * required tool that no profile lists, likely misspelt), else "".
 */
export function didYouMean(tool: string, report?: Report): string {
  if (!report) return "";
  // Once per report and tool: a report may have many defects of one tool (linear in findings).
  let known = SUGGESTIONS.get(report);
  if (!known) {
    const listed = [...new Set(report.profiles.flatMap((profile) => profile.tools ?? []))].sort();
    known = { listed, byTool: new Map() };
    SUGGESTIONS.set(report, known);
  }
  let said = known.byTool.get(tool);
  if (said === undefined) {
    const likely = closestTypo(tool, known.listed);
    said = likely ? `; did you mean ${likely}?` : "";
    known.byTool.set(tool, said);
  }
  return said;
}

/** Per report: the tools its profiles list, sorted, and what was said of each tool so far. */
const SUGGESTIONS = new WeakMap<
  Report,
  { readonly listed: readonly string[]; readonly byTool: Map<string, string> }
>();

/** An incomplete profile's reason, with the facts it carries (HTTP status, server revision). */
export function reasonText(incomplete: IncompleteReport<ReportIds>): string {
  const status = incomplete.http_status;
  const version = incomplete.server_protocol_version;
  return `${incomplete.reason}${status === undefined ? "" : ` (HTTP ${status})`}${
    version === undefined
      ? ""
      : ` (the server speaks ${version}: try --protocol-version ${version})`
  }`;
}

/**
 * What to tell a person about an incomplete profile: the cause mcpeval saw, when it knows one,
 * else the reason's hint (this version's own words for both). One or more sentences, ending with
 * a period.
 */
export function incompleteExplanation(incomplete: IncompleteReport<ReportIds>): string {
  const { detail, reason } = incomplete;
  if (detail === undefined) {
    return knows(INCOMPLETE_HINTS, reason) ? INCOMPLETE_HINTS[reason] : UNKNOWN_HINTS.reason;
  }
  const { cause } = detail;
  const phrase = knows(DETAIL_PHRASES, cause)
    ? detailPhrase({ ...detail, cause })
    : unknownId("cause", cause);
  return `${phrase[0].toUpperCase()}${phrase.slice(1)}.`;
}

/** An incomplete profile's reason, in words. */
export function incompleteSentence(profile: ProfileReport<ReportIds>): string {
  if (profile.complete) return `${profile.profile}: complete`;
  return `${profile.profile}: incomplete: ${reasonText(profile.incomplete)}`;
}

/**
 * What an observed profile's real client did, in one sentence (no trailing period): how it
 * opened the server, and how much of the catalog and the instructions reached its model.
 */
export function observedSentence(profile: ProfileReport<ReportIds>): string | undefined {
  const observed = profile.observed;
  if (observed === undefined) return undefined;
  const opened = observed.opening === null
    ? "never opened this server"
    : `opened with ${observed.opening}${
      observed.protocol_version === null ? "" : ` (${observed.protocol_version})`
    }`;
  const head = `${profile.profile}: ${observed.client} ${observed.version} ${opened}, ${
    plural(observed.model_requests, "model request")
  }`;
  if (observed.tools_received === null || profile.tool_count === null) return head;
  const instructions = observed.instructions_chars === null
    ? "no instructions to show"
    : `${observed.instructions_shown_chars} of ${observed.instructions_chars} characters of the instructions`;
  return `${head}; its model received ${observed.tools_received} of ${
    plural(profile.tool_count, "listed tool")
  } and ${instructions}`;
}

/** `count noun` or `count nouns`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Tools listed by some but not all complete profiles, with the profiles that list them. */
export function capabilityDependentTools(report: Report): [string, string[]][] {
  const complete = report.profiles.filter((profile) => profile.tools !== null);
  const where = new Map<string, string[]>();
  for (const profile of complete) {
    for (const tool of profile.tools ?? []) {
      const profiles = where.get(tool);
      if (profiles) profiles.push(profile.profile);
      else where.set(tool, [profile.profile]);
    }
  }
  return [...where].filter(([, profiles]) => profiles.length < complete.length)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
