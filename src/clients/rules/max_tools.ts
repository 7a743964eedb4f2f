/**
 * `max-tools`: the most tools the client sends to its model, counted over every server of a
 * fleet in config order, after the other rules. Its effect says what happens past it.
 *
 * @module
 */
import { isCount, type RuleKind } from "./kind.ts";

/** The tool cap. A cap whose effect has no evidence is `warn` (nothing hidden). */
export const maxTools: RuleKind = {
  id: "max-tools",
  check: "it comes past the most tools the client sends to its model",
  effects: ["warn", "truncate", "refuse-server"],
  cap: true,
  validValue: isCount,
  judge: (rule, tools, { toolsBefore }) =>
    tools.slice(Math.max(0, (rule.value as number) - toolsBefore)).map((tool) => tool.name),
};
