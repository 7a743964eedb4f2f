/**
 * What a client's own rules hide from its model: the registered rule kinds
 * (`clients/rules/registry.ts`) applied to a catalog's per-tool facts in the order the server
 * listed it (pure).
 *
 * @module
 */
import type { ClientRule } from "../clients/presets.ts";
import type { RuleKindId } from "../clients/rules/registry.ts";
import { type RuleEffect, type ToolFacts, WHOLE_SERVER_EFFECTS } from "../clients/rules/kind.ts";
import { kindOf } from "../clients/rules/registry.ts";
import type { ObservedRule } from "./observed.ts";

/** What the rules need to know of one catalog. */
export interface ListedCatalog {
  /** Tool names in the order the server listed them. */
  readonly listed: readonly string[];
  /** Tools the server marked as visible to apps only (`_meta.ui.visibility` without "model"). */
  readonly appOnly: ReadonlySet<string>;
  /** Per-tool facts in listing order, as the catalog kept them (name and app-only when absent). */
  readonly facts?: readonly ToolFacts[];
}

/** One tool a rule hides, and how it is reported. */
export interface HiddenTool {
  /** The first rule that hides it (an observed profile: `observed`, its model did not receive it). */
  readonly rule: RuleKindId | ObservedRule;
  /** What the client does (`drop-tool`, `truncate`, or a whole-server effect). */
  readonly effect: RuleEffect;
  /**
   * Whether it is reported on its own: a whole-server effect is reported once, on the tool that
   * caused it; the other tools of that server are hidden without a finding of their own.
   */
  readonly reported: boolean;
}

/** A `warn` cap that the catalog exceeds: nothing hidden, one finding on the first tool past it. */
export interface CapWarning {
  readonly rule: RuleKindId;
  readonly tool: string;
}

/** What a client's rules do to one server's catalog. */
export interface Reachability {
  /** The tools hidden from the model, in listing order. */
  readonly hidden: ReadonlyMap<string, HiddenTool>;
  /** The caps that only warn and that this catalog exceeds. */
  readonly warnings: readonly CapWarning[];
}

/**
 * Applies `rules`: every rule but the caps first, each judging the whole catalog (a tool keeps
 * the first rule that hides it); a whole-server effect hides every tool; then each cap counts
 * the tools left, in listing order, after `toolsBefore` tools the client already took from
 * servers before this one (a fleet, in config order).
 *
 * @example
 * ```ts
 * const rule = { id: "max-tools", value: 1, effect: "truncate", source: "https://example.com", verified_at: "2026-11-30" } as const;
 * reachability([rule], "srv", { listed: ["a", "b"], appOnly: new Set() }).hidden;
 * // Map { "b" => { rule: "max-tools", effect: "truncate", reported: true } }
 * ```
 */
export function reachability(
  rules: readonly ClientRule[],
  server: string,
  catalog: ListedCatalog,
  toolsBefore = 0,
): Reachability {
  const tools: readonly ToolFacts[] = catalog.facts ??
    catalog.listed.map((name) => ({ name, appOnly: catalog.appOnly.has(name), facts: {} }));
  // Rules judge names as served; past them a tool is named by its key (a name that is not a
  // valid identifier never leaves this function).
  const keyOf = new Map(tools.map((tool) => [tool.name, tool.key ?? tool.name]));
  const keys = tools.map((tool) => tool.key ?? tool.name);
  const hidden = new Map<string, HiddenTool>();
  const warnings: CapWarning[] = [];
  const context = { server, toolsBefore };
  const apply = (rule: ClientRule, names: readonly string[]) => {
    const judged = names.map((name) => keyOf.get(name)!);
    if (judged.length === 0) return;
    if (rule.effect === "warn") return void warnings.push({ rule: rule.id, tool: judged[0] });
    if (!WHOLE_SERVER_EFFECTS.has(rule.effect)) {
      for (const tool of judged) {
        if (!hidden.has(tool)) {
          hidden.set(tool, { rule: rule.id, effect: rule.effect, reported: true });
        }
      }
      return;
    }
    // The whole server: reported once, on the first tool judged; a tool an earlier rule hid
    // keeps its own finding. A server already dropped stays as it was.
    if (keys.some((key) => WHOLE_SERVER_EFFECTS.has(hidden.get(key)?.effect!))) return;
    const cause = judged[0];
    for (const key of keys) {
      if (hidden.has(key) && key !== cause) continue;
      hidden.set(key, { rule: rule.id, effect: rule.effect, reported: key === cause });
    }
  };
  for (const rule of rules) {
    if (!kindOf(rule).cap) apply(rule, kindOf(rule).judge(rule, tools, context));
  }
  for (const rule of rules) {
    if (!kindOf(rule).cap) continue;
    const left = tools.filter((tool) => !hidden.has(tool.key ?? tool.name));
    apply(rule, kindOf(rule).judge(rule, left, context));
  }
  return { hidden, warnings };
}

/**
 * The tools `rules` hide, each with the first rule that hides it (see
 * {@linkcode reachability}, which also says each effect).
 */
export function hiddenTools(
  rules: readonly ClientRule[],
  server: string,
  catalog: ListedCatalog,
  toolsBefore = 0,
): Map<string, RuleKindId> {
  const { hidden } = reachability(rules, server, catalog, toolsBefore);
  // A preset's rules are rule kinds: `observed` is an observed profile's, never theirs.
  return new Map([...hidden].map(([tool, { rule }]) => [tool, rule as RuleKindId]));
}
