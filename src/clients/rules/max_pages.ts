/**
 * `max-pages`: tools listed on a `tools/list` page past the value (1: only the first page),
 * which a client that stops following `nextCursor` never reads. Claude Code's changelog says
 * its versions before 2.1.144 dropped every page after the first.
 *
 * @module
 */
import { isCount, type RuleKind } from "./kind.ts";

/** The pages the client reads. */
export const maxPages: RuleKind = {
  id: "max-pages",
  check: "it is listed on a tools/list page the client does not read",
  effects: ["drop-tool"],
  validValue: isCount,
  judge: (rule, tools) =>
    tools.filter((tool) => (tool.page ?? 1) > (rule.value as number)).map((tool) => tool.name),
};
