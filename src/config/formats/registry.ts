/**
 * Every config format module, in one table. Detection: a module that claims the file (its
 * name, or a field only its client writes) wins; else the module whose server table the file
 * has (two different tables: exit 2). A new shape is a module and a row here.
 *
 * @module
 */
import { claudeUser } from "./claude_user.ts";
import { codex } from "./codex.ts";
import { continueYaml } from "./continue_yaml.ts";
import type { FormatModule } from "./format.ts";
import { gemini } from "./gemini.ts";
import { goose } from "./goose.ts";
import { kiro } from "./kiro.ts";
import { mcpServers } from "./mcp_servers.ts";
import { opencode } from "./opencode.ts";
import { vscode } from "./vscode.ts";
import { zed } from "./zed.ts";

/**
 * The format modules. Of two modules that claim one file the first wins; the tables the modules
 * expect are listed in this order.
 */
export const FORMAT_MODULES: readonly FormatModule[] = [
  claudeUser,
  mcpServers,
  vscode,
  codex,
  zed,
  opencode,
  gemini,
  kiro,
  continueYaml,
  goose,
];

/** What the "no servers" message lists: each module's expected table, in the table's order. */
export const EXPECTED_TABLES: string = either(
  FORMAT_MODULES.flatMap((module) => module.expected ?? []),
);

/** "a, b or c". */
function either(values: readonly string[]): string {
  return `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}
