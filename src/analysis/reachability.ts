/**
 * What a client's own rules hide from its model: applied to a catalog in the order the server
 * listed it (pure).
 *
 * @module
 */
import type { ClientRule, ClientRuleId } from "../clients/presets.ts";

/** What the rules need to know of one catalog. */
export interface ListedCatalog {
  /** Tool names in the order the server listed them. */
  readonly listed: readonly string[];
  /** Tools the server marked as visible to apps only (`_meta.ui.visibility` without "model"). */
  readonly appOnly: ReadonlySet<string>;
}

/**
 * The tools `rules` hide, each with the first rule that hides it. Name rules apply first; the
 * tool cap then counts the remaining tools in listing order, after `toolsBefore` tools that
 * the client already took from servers before this one (a config run, in config order).
 *
 * @example
 * ```ts
 * const rule = { id: "max-tools", value: 1, source: "https://example.com", verified_at: "2026-11-30" } as const;
 * hiddenTools([rule], "srv", { listed: ["a", "b"], appOnly: new Set() }); // Map { "b" => "max-tools" }
 * ```
 */
export function hiddenTools(
  rules: readonly ClientRule[],
  server: string,
  catalog: ListedCatalog,
  toolsBefore = 0,
): Map<string, ClientRuleId> {
  const hidden = new Map<string, ClientRuleId>();
  const hide = (tool: string, id: ClientRuleId) => {
    if (!hidden.has(tool)) hidden.set(tool, id);
  };
  for (const rule of rules) {
    for (const tool of catalog.listed) {
      switch (rule.id) {
        case "max-name-length":
          if (tool.length > (rule.value as number)) hide(tool, rule.id);
          break;
        case "max-qualified-name-length": {
          const qualified = `${server}${rule.separator ?? ""}${tool}`;
          if (qualified.length > (rule.value as number)) hide(tool, rule.id);
          break;
        }
        case "name-characters":
          if (!new RegExp(rule.value as string, "u").test(tool)) hide(tool, rule.id);
          break;
        case "hide-app-only":
          if (catalog.appOnly.has(tool)) hide(tool, rule.id);
          break;
      }
    }
  }
  const cap = rules.find((rule) => rule.id === "max-tools");
  if (cap) {
    let sent = toolsBefore;
    for (const tool of catalog.listed) {
      if (hidden.has(tool)) continue;
      if (sent >= (cap.value as number)) hide(tool, "max-tools");
      else sent++;
    }
  }
  return hidden;
}
