/**
 * The user's own tool filters from a client config file (Codex `enabled_tools` and
 * `disabled_tools`, Gemini CLI `includeTools` and `excludeTools`, Kiro and Roo `disabledTools`,
 * opencode's `tools` map of wildcards): which listed tools they hide from the model, and by
 * which filter (pure).
 *
 * @module
 */

/** The filters a config file can carry, each a fixed id the report names. */
export const TOOL_FILTER_RULE_IDS = [
  "enabled-tools",
  "disabled-tools",
  "include-tools",
  "exclude-tools",
  "tools",
] as const;

/** A config file's tool filter. */
export type ToolFilterRuleId = typeof TOOL_FILTER_RULE_IDS[number];

/** One step of a filter: a list of names, or a map of wildcards. */
export type ToolFilterStep = ToolListStep | ToolWildcardStep;

/** A list: an allow list hides what it does not name, a deny list what it names. */
export interface ToolListStep {
  /** The filter, as the report names it. */
  readonly rule: ToolFilterRuleId;
  /** `allow`: only the named tools stay; `deny`: the named tools go. */
  readonly effect: "allow" | "deny";
  /** The names as written. */
  readonly names: readonly string[];
  /** Gemini CLI's include list: an entry `name(...)` also names the tool `name`. */
  readonly callForm?: boolean;
}

/**
 * opencode's `tools` map: wildcard patterns, each `true` (shown) or `false` (hidden), matched
 * against the name opencode gives the tool (`prefix` then the tool's name, each character outside
 * `A-Za-z0-9_-` as `_`). Of the patterns that match, the longest decides (equal lengths: the last
 * in string order), as opencode's `Wildcard.all`; no match: shown.
 */
export interface ToolWildcardStep {
  readonly rule: "tools";
  readonly effect: "wildcard";
  /** The patterns and their values, as written. */
  readonly patterns: readonly (readonly [string, boolean])[];
  /** What opencode puts before each tool's name: the server's key, sanitized, then `_`. */
  readonly prefix: string;
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
    const step = filter.find((step) => hides(step, tool));
    if (step) hidden.set(tool, step.rule);
  }
  return hidden;
}

function hides(step: ToolFilterStep, tool: string): boolean {
  if (step.effect === "wildcard") return wildcardValue(step, tool) === false;
  const named = step.names.some((name) =>
    name === tool || (step.callForm === true && name.startsWith(`${tool}(`))
  );
  return step.effect === "allow" ? !named : named;
}

/** What opencode makes of a name for its tool ids: each character outside `A-Za-z0-9_-` as `_`. */
export function opencodeName(name: string): string {
  return name.replaceAll(/[^A-Za-z0-9_-]/g, "_");
}

/** The value of the longest matching pattern (ties: the last in string order), or undefined. */
function wildcardValue(step: ToolWildcardStep, tool: string): boolean | undefined {
  const id = step.prefix + opencodeName(tool);
  const ordered = [...step.patterns].sort(([a], [b]) =>
    a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
  );
  return ordered.findLast(([pattern]) => wildcardMatches(pattern, id))?.[1];
}

/**
 * Whether `pattern` matches all of `text`: `*` any run of characters but `/`, `**` any run, `?`
 * one character but `/` (a tool id has no `/`), everything else itself. Linear: no backtracking
 * regular expression is built from the file's text.
 */
export function wildcardMatches(pattern: string, text: string): boolean {
  const tokens = pattern.replaceAll("\\", "/").match(/\*\*|\*|\?|[^*?]/gsu) ?? [];
  const chars = Array.from(text.replaceAll("\\", "/"));
  // The set of token positions reachable after each character (a position past a star also
  // reaches the token after it).
  const close = (states: Set<number>) => {
    for (const state of states) {
      if (tokens[state] === "*" || tokens[state] === "**") states.add(state + 1);
    }
    return states;
  };
  let states = close(new Set([0]));
  for (const char of chars) {
    const next = new Set<number>();
    for (const state of states) {
      const token = tokens[state];
      if (token === undefined) continue;
      if (token === "**" || (token === "*" && char !== "/")) next.add(state);
      else if (token === "?" ? char !== "/" : token === char) next.add(state + 1);
    }
    states = close(next);
    if (states.size === 0) return false;
  }
  return states.has(tokens.length);
}
