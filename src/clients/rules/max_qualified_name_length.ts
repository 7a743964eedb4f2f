/**
 * `max-qualified-name-length`: tools whose server label, separator and name together are longer
 * than the value.
 *
 * @module
 */
import { isCount, type RuleKind, TOOL_EFFECTS } from "./kind.ts";

/** Server label plus tool name longer than the client accepts. */
export const maxQualifiedNameLength: RuleKind = {
  id: "max-qualified-name-length",
  check: "the server label and its name together are longer than the client accepts",
  effects: TOOL_EFFECTS,
  // Its separator is a field of every rule, checked with the others.
  validValue: isCount,
  judge: (rule, tools, { server }) => {
    const prefix = server.length + (rule.separator ?? "").length;
    return tools.filter((tool) => prefix + tool.name.length > (rule.value as number))
      .map((tool) => tool.name);
  },
};
