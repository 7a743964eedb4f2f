/**
 * `max-name-length`: tools whose name is longer than the value.
 *
 * @module
 */
import { isCount, type RuleKind, TOOL_EFFECTS } from "./kind.ts";

/** Tool names longer than the client accepts. */
export const maxNameLength: RuleKind = {
  id: "max-name-length",
  check: "its name is longer than the client accepts",
  effects: TOOL_EFFECTS,
  validValue: isCount,
  judge: (rule, tools) =>
    tools.filter((tool) => tool.name.length > (rule.value as number)).map((tool) => tool.name),
};
