/**
 * A run compared with its baseline, an earlier complete run of the same server: catalog drift
 * per profile, each finding as new or unchanged, the baseline's findings that no longer occur,
 * and (when asked) a `baseline-tool-unavailable` defect per baseline tool that a profile lost.
 * Pure: the caller reads and validates the baseline.
 *
 * @module
 */
import type { ProfileLabel } from "../profiles.ts";
import type { Finding } from "./findings.ts";
import { FINDING_KINDS } from "./rules.ts";

/**
 * What a run is compared with: the catalogs and findings of an earlier complete run. Its
 * profile labels are as the baseline has them: a label this version does not know (a later
 * version's) is a profile this run did not select, and matches none of its own.
 */
export interface Baseline {
  /** Each profile the baseline observed, with its catalog. */
  readonly catalogs: ReadonlyMap<string, readonly string[]>;
  /**
   * Every finding of the baseline (review candidates and defects) of a kind this version knows,
   * its profiles as the baseline has them.
   */
  readonly findings: readonly (Omit<Finding, "profile" | "availableIn" | "observed"> & {
    readonly profile: string;
    readonly availableIn: readonly string[];
    readonly observed?: string;
  })[];
}

/** A finding of a baseline. */
export type BaselineFinding = Baseline["findings"][number];

/** A profile of the current run as the comparison sees it: its catalog, or null if incomplete. */
export interface CurrentProfile {
  readonly profile: ProfileLabel;
  /** Its catalog as the server listed it; null when its discovery did not complete. */
  readonly tools: readonly string[] | null;
  /** Client presets: the listed tools its client's rules hide from the model. */
  readonly hidden?: ReadonlyMap<string, unknown>;
}

/** Why a profile is not compared with the baseline, in the report's words. */
export const NOT_COMPARED_REASONS = ["incomplete", "not-in-baseline"] as const;

/** Why a profile was not compared with the baseline. */
export type NotComparedReason = typeof NOT_COMPARED_REASONS[number];

/** One profile's catalog against the baseline's. */
export type ProfileDrift =
  | {
    readonly profile: ProfileLabel;
    readonly compared: true;
    /** Listed now, not in the baseline; sorted. */
    readonly added: readonly string[];
    /** Listed in the baseline, not now; sorted. */
    readonly removed: readonly string[];
  }
  | {
    readonly profile: ProfileLabel;
    readonly compared: false;
    readonly reason: NotComparedReason;
  };

/** A finding's states relative to the baseline, in the report's words. */
export const BASELINE_STATES = ["new", "unchanged"] as const;

/** A finding relative to the baseline: also there (`unchanged`), or not (`new`). */
export type BaselineState = typeof BASELINE_STATES[number];

/** The comparison of one run with its baseline. */
export interface BaselineComparison {
  /** One entry per current profile, in the order given. */
  readonly drift: readonly ProfileDrift[];
  /**
   * The run's findings with the baseline's defects added (rule order, then profile, then tool);
   * empty when the run is incomplete.
   */
  readonly findings: readonly Finding[];
  /** The state of each of {@linkcode BaselineComparison.findings}, index by index. */
  readonly states: readonly BaselineState[];
  /**
   * The baseline's findings that this run no longer produces, in profiles it compared; empty
   * when the run is incomplete.
   */
  readonly resolved: readonly Finding[];
  /**
   * When the profiles run are not the baseline's: the baseline's profiles not run now, and how
   * many of its findings are neither found again nor resolved, because a profile they concern
   * (their own, or one that listed the tool) was not compared now.
   */
  readonly profilesDiffer?: {
    /** The baseline's labels, a later version's included. */
    readonly notRun: readonly string[];
    readonly notInBaseline: readonly ProfileLabel[];
    readonly notJudged: number;
  };
}

/** How to compare. */
export interface ComparisonOptions {
  /** Whether every tool of a baseline catalog is required in that profile now. */
  readonly requireBaselineTools: boolean;
}

/**
 * Compares the current profiles (every selected one, in report order) and, for a complete run,
 * its findings with `baseline`. Drift compares the catalogs as the server listed them. `findings` is null when the run is incomplete: then only
 * the complete profiles' catalogs are compared, and nothing else is concluded.
 *
 * @example
 * ```ts
 * const baseline = { catalogs: new Map([["none", ["echo", "pick"]]]), findings: [] } as const;
 * compareWithBaseline([{ profile: "none", tools: ["echo"] }], [], baseline, {
 *   requireBaselineTools: true,
 * }).findings;
 * // [{ kind: "baseline-tool-unavailable", profile: "none", tool: "pick", availableIn: [] }]
 * ```
 */
export function compareWithBaseline(
  current: readonly CurrentProfile[],
  findings: readonly Finding[] | null,
  baseline: Baseline,
  options: ComparisonOptions,
): BaselineComparison {
  const drift = current.map((profile) => driftOf(profile, baseline));
  const run: ReadonlySet<string> = new Set(current.map(({ profile }) => profile));
  const notRun = [...baseline.catalogs.keys()].filter((profile) => !run.has(profile));
  const notInBaseline = current.flatMap(({ profile }) =>
    baseline.catalogs.has(profile) ? [] : [profile]
  );
  const differ = (notJudged: number) =>
    notRun.length > 0 || notInBaseline.length > 0
      ? { profilesDiffer: { notRun, notInBaseline, notJudged } }
      : {};
  if (findings === null) return { drift, findings: [], states: [], resolved: [], ...differ(0) };

  // Like every finding's, a defect's `availableIn` names the profiles whose model sees the tool.
  const catalogs = current.map(({ profile, tools, hidden }) => ({
    profile,
    visible: new Set(tools?.filter((tool) => !hidden?.has(tool))),
  }));
  const availableIn = (tool: string) =>
    catalogs.filter(({ visible }) => visible.has(tool)).map(({ profile }) => profile);
  const compared = new Set<string>();
  const lost: Finding[] = [];
  for (const entry of drift) {
    if (!entry.compared) continue;
    compared.add(entry.profile);
    if (!options.requireBaselineTools) continue;
    for (const tool of entry.removed) {
      lost.push({
        kind: "baseline-tool-unavailable",
        profile: entry.profile,
        tool,
        availableIn: availableIn(tool),
      });
    }
  }
  const all = [...findings, ...lost].sort((a, b) =>
    FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind)
  );
  const before = new Set(baseline.findings.map(key));
  const now = new Set(all.map(key));
  // A finding no longer produced is resolved only when every profile it concerns was compared:
  // a candidate disappears by itself when the profile that listed its tool is not run.
  const gone = baseline.findings.filter((finding) => !now.has(key(finding)));
  // Every profile compared is one of this run's: a finding judged is of this run's profiles.
  const judged = (finding: BaselineFinding): finding is Finding =>
    compared.has(finding.profile) && finding.availableIn.every((p) => compared.has(p));
  const resolved = gone.filter(judged);
  return {
    drift,
    findings: all,
    states: all.map((finding) => before.has(key(finding)) ? "unchanged" : "new"),
    resolved,
    ...differ(gone.length - resolved.length),
  };
}

function driftOf({ profile, tools }: CurrentProfile, baseline: Baseline): ProfileDrift {
  if (tools === null) return { profile, compared: false, reason: "incomplete" };
  const before = baseline.catalogs.get(profile);
  if (before === undefined) return { profile, compared: false, reason: "not-in-baseline" };
  const was = new Set(before);
  const is = new Set(tools);
  return {
    profile,
    compared: true,
    added: tools.filter((tool) => !was.has(tool)).sort(),
    removed: before.filter((tool) => !is.has(tool)).sort(),
  };
}

/** A finding's identity: its kind, profile and tool (`available_in` may change), and the observed profile it names. */
function key(finding: Pick<BaselineFinding, "kind" | "profile" | "tool" | "observed">): string {
  // A preset's disagreement is with one observed profile: two observed versions are two.
  return `${finding.kind}\u0000${finding.profile}\u0000${finding.tool}\u0000${
    finding.observed ?? ""
  }`;
}
