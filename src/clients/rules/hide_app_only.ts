/**
 * `hide-app-only`: tools marked for apps only (`_meta.ui.visibility` without `"model"`).
 *
 * @module
 */
import type { RuleKind } from "./kind.ts";

/** MCP Apps tools the client keeps from its model. */
export const hideAppOnly: RuleKind = {
  id: "hide-app-only",
  check: 'it is marked for apps only (its _meta.ui.visibility does not name "model")',
  effects: ["drop-tool"],
  validValue: (value) => value === true,
  judge: (_rule, tools) => tools.filter((tool) => tool.appOnly).map((tool) => tool.name),
};
