/**
 * `name-characters`: tools whose name a pattern does not match. Patterns come from data and
 * `--client-file`, so they run on a linear-time engine (RE2, loaded only when such a rule is
 * selected); what RE2 cannot run (backreferences, lookaround) and over-long patterns are
 * refused when the file is read.
 *
 * @module
 */
import { MAX_NAME_PATTERN_LENGTH } from "../../limits.ts";
import { type RuleKind, TOOL_EFFECTS } from "./kind.ts";

type Matcher = { test(input: string): boolean };
let compile: ((pattern: string) => Matcher) | undefined;
const compiled = new Map<string, Matcher>();

/** Constructs a backtracking-only engine accepts and RE2 does not. */
const UNSUPPORTED = /\\[1-9]|\\k<|\(\?<?[=!]/;

function validPattern(value: unknown): boolean | string {
  if (typeof value !== "string") return false;
  if (value.length > MAX_NAME_PATTERN_LENGTH) {
    return `is a pattern longer than ${MAX_NAME_PATTERN_LENGTH} characters`;
  }
  if (UNSUPPORTED.test(value)) {
    return "is a pattern with a backreference or lookaround (patterns run in linear time)";
  }
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

/** Names outside the characters the client accepts. */
export const nameCharacters: RuleKind = {
  id: "name-characters",
  check: "its name has characters the client does not accept",
  effects: TOOL_EFFECTS,
  validValue: validPattern,
  prepare: async () => {
    if (compile) return;
    const { RE2JS } = await import("re2js");
    compile = (pattern) => RE2JS.compile(pattern);
  },
  judge: (rule, tools) => {
    if (!compile) throw new Error("name-characters applied before it was prepared");
    const pattern = rule.value as string;
    let matcher = compiled.get(pattern);
    if (!matcher) {
      try {
        matcher = compile(pattern);
      } catch {
        // Valid for JavaScript but not for RE2: it judges nothing (claims least).
        matcher = { test: () => true };
      }
      compiled.set(pattern, matcher);
    }
    return tools.filter((tool) => !matcher.test(tool.name)).map((tool) => tool.name);
  },
};
