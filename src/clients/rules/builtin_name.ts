/**
 * `builtin-name`: a tool named as one of the client's own tools (the value: those names, as the
 * lab saw the client leave them out). A client that names MCP tools as they are served may let
 * its own tool shadow them (Gemini CLI in headless mode never sends `write_file`, issue 41).
 *
 * @module
 */
import type { RuleKind } from "./kind.ts";

/** At most this many names in one rule. */
const MAX_NAMES = 256;

/** Tools whose name is one of the client's own tools'. */
export const builtinName: RuleKind = {
  id: "builtin-name",
  check: "its name is one of the client's own tools' names",
  effects: ["drop-tool"],
  validValue: (value) =>
    Array.isArray(value) && value.length > 0 && value.length <= MAX_NAMES &&
      value.every((name) => typeof name === "string" && /^[\x21-\x7e]{1,128}$/.test(name)) &&
      new Set(value).size === value.length ||
    "must be a list of 1 to 256 distinct names of 1-128 printable ASCII characters",
  judge: (rule, tools) => {
    const names = new Set(rule.value as readonly string[]);
    return tools.filter((tool) => names.has(tool.name)).map((tool) => tool.name);
  },
};
