/**
 * `hide-app-only`: tools marked for apps only (`_meta.ui.visibility` without `"model"`).
 *
 * @module
 */
import type { RuleKind } from "./kind.ts";

/** MCP Apps tools the client keeps from its model. */
export const hideAppOnly: RuleKind = {
  id: "hide-app-only",
  effects: ["drop-tool"],
  validValue: (value) => value === true,
  judge: (_rule, tools) => tools.filter((tool) => tool.appOnly).map((tool) => tool.name),
};
