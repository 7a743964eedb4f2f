/**
 * The model API's own limits (SPEC 25): what the client sends is refused by its model API, which
 * the lab's strict stand-in answers as the API documents (`src/lab/strict.ts`), and the client
 * then reacts (the rule's effect: `reject-request`, every request fails while the server is
 * configured; `drop-tool`, `drop-server`). Such a rule carries both pieces of evidence: the
 * document (its `source`, read) and the reaction (`observed`).
 *
 * - `api-name-length`: the name the client sends (its `prefix`, then, with a `separator`, the
 *   server label and the separator, then the tool's name) is longer than the value.
 *
 * @module
 */
import { isCount, type RuleKind, TOOL_EFFECTS } from "./kind.ts";

/** Names the model API refuses as too long, as the client qualifies them. */
export const apiNameLength: RuleKind = {
  id: "api-name-length",
  check: "its name, as the client sends it, is longer than the model API accepts",
  effects: TOOL_EFFECTS,
  validValue: isCount,
  judge: (rule, tools, { server }) => {
    const before = (rule.prefix ?? "").length +
      (rule.separator === undefined ? 0 : server.length + rule.separator.length);
    return tools.filter((tool) => before + tool.name.length > (rule.value as number))
      .map((tool) => tool.name);
  },
};
