/**
 * `api-max-tools` (SPEC 25): the tools the client sends (its own `builtin` ones, then every
 * server's in config order, after the other rules) are more than its model API accepts in one
 * request: a cap. The strict stand-in answers as the API documents (`src/lab/strict.ts`); the
 * rule carries the document (read) and the client's reaction (observed).
 *
 * @module
 */
import { isCount, type RuleKind } from "./kind.ts";

/** More tools than the model API accepts in one request, the client's own counted first. */
export const apiMaxTools: RuleKind = {
  id: "api-max-tools",
  check: "it comes past the most tools the model API accepts in one request",
  effects: ["reject-request", "truncate", "refuse-server"],
  cap: true,
  validValue: isCount,
  judge: (rule, tools, { toolsBefore }) =>
    tools.slice(Math.max(0, (rule.value as number) - (rule.builtin ?? 0) - toolsBefore))
      .map((tool) => tool.name),
};
