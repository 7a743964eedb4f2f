/**
 * Findings and the gate, as pure functions of the profiles' catalogs.
 *
 * @module
 */
import type { RuleKindId } from "../clients/rules/registry.ts";
import { type RuleEffect, WHOLE_SERVER_EFFECTS } from "../clients/rules/kind.ts";
import type { CapWarning, HiddenTool } from "./reachability.ts";
import type { ProfileLabel } from "../profiles.ts";
import { type FindingKind, RULES } from "./rules.ts";
import { MAX_SUGGESTION_LOOKUPS } from "../limits.ts";
import { closestTypo } from "./suggest.ts";
import type { ToolFilterRuleId } from "./tool_filters.ts";
import { disagreements, type ObservedRule } from "./observed.ts";

/** What analysis needs to know about one completed profile. */
export interface ObservedProfile {
  readonly profile: ProfileLabel;
  /** Inline code spans of its instructions that are valid tool identifiers. */
  readonly codeSpans: ReadonlySet<string>;
  /**
   * A client profile whose client cuts the instructions: the spans of the text as it shows them
   * (the kept prefix and its marker, parsed anew), and the cut (SPEC 25).
   */
  readonly shown?: { readonly codeSpans: ReadonlySet<string>; readonly cut: number };
  /**
   * How a client profile's references are read: from the text as its client shows it (the
   * default), none (`not-shown`: the client shows its model no instructions), or from the
   * instructions as given (`as-given`: its handling is not known).
   */
  readonly references?: ReferenceReading;
  /** Its catalog, as the server listed it. */
  readonly tools: readonly string[];
  /**
   * Its catalog with, in a client profile, the tools whose name is not a valid identifier (by
   * their fixed phrase and position); `tools` when absent.
   */
  readonly listed?: readonly string[];
  /**
   * Client presets: the listed tools its client's rules hide from the model, and which rule; an
   * observed profile: the listed tools its model did not receive (rule `observed`).
   */
  readonly hidden?: ReadonlyMap<string, RuleKindId | HiddenTool>;
  /** Client presets: the caps that only warn and that this catalog exceeds. */
  readonly capWarnings?: readonly CapWarning[];
  /** A fleet: the listed tools the config file's own tool filter hides, and which filter. */
  readonly filtered?: ReadonlyMap<string, ToolFilterRuleId>;
  /**
   * Client presets: the client version the preset is of (`client:NAME` is the newest observed
   * one), which pairs it with the observation of that version alone.
   */
  readonly presetVersion?: string;
}

/** How a profile's references are read from its instructions (SPEC 25), in one list. */
export const REFERENCE_READINGS = ["as-shown", "not-shown", "as-given"] as const;

/** How a profile's references are read from its instructions. */
export type ReferenceReading = typeof REFERENCE_READINGS[number];

/** One finding: a tool that a profile cannot see, and where it is visible. */
export interface Finding {
  /** Its rule. */
  readonly kind: FindingKind;
  /** The profile whose catalog lacks the tool (or whose instructions name it). */
  readonly profile: ProfileLabel;
  /** The tool. */
  readonly tool: string;
  /** Profiles whose model sees the tool, in the order given. */
  readonly availableIn: readonly ProfileLabel[];
  /**
   * `tool-unreachable-in-client`: the client rule (`observed` in an observed profile);
   * `tool-disabled-in-config`, and a `required-tool-unavailable` whose listed tool the config file
   * hides: the filter; `preset-disagrees-with-client`: the preset's rule that hides a tool the
   * observed client's model received (absent: the preset sends a tool it did not receive).
   */
  readonly rule?: RuleKindId | ToolFilterRuleId | ObservedRule;
  /** `preset-disagrees-with-client`: the observed profile the preset disagrees with. */
  readonly observed?: ProfileLabel;
  /** `tool-unreachable-in-client`: a whole-server effect (every tool of the server hidden). */
  readonly effect?: RuleEffect;
  /** `referenced-tool-unknown`: the closest listed tool name, when one is close. */
  readonly suggestion?: string;
  /** `reference-cut-in-client`: where its client cuts the instructions (characters kept). */
  readonly cut?: number;
}

/** The findings of a complete run and whether it passes the gate. */
export interface Analysis {
  /** Every finding, in rule order, then profile order, then tool. */
  readonly findings: readonly Finding[];
  /** False when any finding's rule gates. */
  readonly passed: boolean;
}

/** Optional analyses. */
export interface AnalysisOptions {
  /** Report backticked identifiers that no selected catalog lists (`referenced-tool-unknown`). */
  readonly unknownReferences?: boolean;
}

/**
 * Compares each profile's referenced tools and the required tools with what each profile's
 * model can see (its catalog, less what its client's rules hide). `profiles` must be every
 * selected profile, complete, in report order.
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
  options: AnalysisOptions = {},
): Analysis {
  const catalogs = profiles.map((observed) => ({
    ...observed,
    visible: new Set(
      (observed.listed ?? observed.tools).filter((tool) =>
        !observed.hidden?.has(tool) && !observed.filtered?.has(tool)
      ),
    ),
  }));
  const availableIn = (tool: string) =>
    catalogs.filter((catalog) => catalog.visible.has(tool)).map((catalog) => catalog.profile);
  const listedAnywhere = new Set(profiles.flatMap((observed) => observed.tools));
  const names = [...listedAnywhere].sort();
  const required = [...requiredTools].sort();
  // Suggestions cost a comparison with every listed name: computed once per word, and for at
  // most MAX_SUGGESTION_LOOKUPS words, so hostile instructions cannot make analysis slow.
  const suggestions = new Map<string, string | undefined>();
  const suggest = (word: string) => {
    if (suggestions.has(word)) return suggestions.get(word);
    if (suggestions.size >= MAX_SUGGESTION_LOOKUPS) return undefined;
    const suggestion = closestTypo(word, names);
    suggestions.set(word, suggestion);
    return suggestion;
  };

  const byKind = Object.fromEntries(
    Object.keys(RULES).map((kind) => [kind, [] as Finding[]]),
  ) as Record<FindingKind, Finding[]>;
  const add = (finding: Finding) => byKind[finding.kind].push(finding);
  for (const catalog of catalogs) {
    const { profile } = catalog;
    // A client that shows its model no instructions gives no reference candidates; one that cuts
    // them is judged on the text it shows.
    const spans = catalog.references === "not-shown"
      ? new Set<string>()
      : catalog.references === "as-given"
      ? catalog.codeSpans
      : catalog.shown?.codeSpans ?? catalog.codeSpans;
    if (catalog.shown && catalog.references !== "not-shown" && catalog.references !== "as-given") {
      const { codeSpans: shown, cut } = catalog.shown;
      for (const tool of [...catalog.codeSpans].sort()) {
        if (shown.has(tool) || !listedAnywhere.has(tool)) continue;
        add({
          kind: "reference-cut-in-client",
          profile,
          tool,
          availableIn: availableIn(tool),
          cut,
        });
      }
    }
    for (const tool of [...spans].sort()) {
      if (catalog.visible.has(tool)) continue;
      const filter = catalog.filtered?.get(tool);
      if (filter !== undefined) {
        add({ kind: "tool-disabled-in-config", profile, tool, availableIn: [], rule: filter });
        continue;
      }
      const where = availableIn(tool);
      if (where.length > 0) {
        add({ kind: "referenced-tool-unavailable", profile, tool, availableIn: where });
      } else if (options.unknownReferences && !listedAnywhere.has(tool)) {
        const suggestion = suggest(tool);
        add({
          kind: "referenced-tool-unknown",
          profile,
          tool,
          availableIn: [],
          ...(suggestion === undefined ? {} : { suggestion }),
        });
      }
    }
    for (const [tool, why] of [...(catalog.hidden ?? [])].sort(([a], [b]) => compare(a, b))) {
      const hidden = typeof why === "string" ? { rule: why, reported: true } : why;
      if (!hidden.reported) continue;
      add({
        kind: "tool-unreachable-in-client",
        profile,
        tool,
        availableIn: availableIn(tool),
        rule: hidden.rule,
        ...("effect" in hidden && WHOLE_SERVER_EFFECTS.has(hidden.effect)
          ? { effect: hidden.effect }
          : {}),
      });
    }
    for (const { rule, tool } of catalog.capWarnings ?? []) {
      add({
        kind: "tool-cap-exceeded-in-client",
        profile,
        tool,
        availableIn: availableIn(tool),
        rule,
      });
    }
    for (const tool of required) {
      if (catalog.visible.has(tool)) continue;
      // Listed, and hidden by the config file's own filter: that is its cause, not the catalog.
      const filter = catalog.filtered?.get(tool);
      add({
        kind: "required-tool-unavailable",
        profile,
        tool,
        availableIn: availableIn(tool),
        ...(filter === undefined ? {} : { rule: filter }),
      });
    }
  }
  // A preset and the observation of its client in the same run: every tool they judge apart.
  for (
    const found of disagreements(catalogs.map((catalog) => ({
      profile: catalog.profile,
      ...(catalog.presetVersion === undefined ? {} : { version: catalog.presetVersion }),
      listed: catalog.listed ?? catalog.tools,
      hidden: catalog.hidden && hiddenRules(catalog.hidden),
      filtered: catalog.filtered,
    })))
  ) {
    add({
      kind: "preset-disagrees-with-client",
      profile: found.profile,
      tool: found.tool,
      availableIn: availableIn(found.tool),
      observed: found.observed,
      ...(found.rule === undefined ? {} : { rule: found.rule as RuleKindId }),
    });
  }
  const findings = Object.values(byKind).flat();
  return { findings, passed: passes(findings) };
}

/** Each hidden tool's rule, whichever form its map holds. */
function hiddenRules(
  hidden: ReadonlyMap<string, RuleKindId | HiddenTool>,
): Map<string, { readonly rule: string }> {
  return new Map(
    [...hidden].map(([tool, why]) => [tool, { rule: typeof why === "string" ? why : why.rule }]),
  );
}

/** Whether a run with these findings passes the gate: none of them is of a kind that gates. */
export function passes(findings: readonly Finding[]): boolean {
  return !findings.some((finding) => RULES[finding.kind].gates);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
