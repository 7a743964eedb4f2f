/**
 * The user's own tool filters from a client config file (Codex `enabled_tools` and
 * `disabled_tools`, Gemini CLI `includeTools` and `excludeTools`, Kiro and Roo `disabledTools`):
 * which listed tools they hide from the model, and by which filter (pure).
 *
 * @module
 */

/** The filters a config file can carry, each a fixed id the report names. */
export const TOOL_FILTER_RULE_IDS = [
  "enabled-tools",
  "disabled-tools",
  "include-tools",
  "exclude-tools",
] as const;

/** A config file's tool filter. */
export type ToolFilterRuleId = typeof TOOL_FILTER_RULE_IDS[number];

/** One step of a filter: an allow list hides what it does not name, a deny list what it names. */
export interface ToolFilterStep {
  /** The filter, as the report names it. */
  readonly rule: ToolFilterRuleId;
  /** `allow`: only the named tools stay; `deny`: the named tools go. */
  readonly effect: "allow" | "deny";
  /** The names as written. */
  readonly names: readonly string[];
  /** Gemini CLI's include list: an entry `name(...)` also names the tool `name`. */
  readonly callForm?: boolean;
}

/** A server's filters, in the order its client applies them: the first that hides a tool names it. */
export type ToolFilter = readonly ToolFilterStep[];

/**
 * The listed tools a filter hides, each with the step that hides it first.
 *
 * @example
 * ```ts
 * const filter = [
 *   { rule: "exclude-tools", effect: "deny", names: ["b"] },
 *   { rule: "include-tools", effect: "allow", names: ["a(x)", "b"], callForm: true },
 * ] as const;
 * filteredTools(filter, ["a", "b", "c"]); // Map { "b" => "exclude-tools", "c" => "include-tools" }
 * ```
 */
export function filteredTools(
  filter: ToolFilter,
  tools: readonly string[],
): Map<string, ToolFilterRuleId> {
  const hidden = new Map<string, ToolFilterRuleId>();
  for (const tool of tools) {
    const step = filter.find((step) => {
      const named = step.names.some((name) =>
        name === tool || (step.callForm === true && name.startsWith(`${tool}(`))
      );
      return step.effect === "allow" ? !named : named;
    });
    if (step) hidden.set(tool, step.rule);
  }
  return hidden;
}
