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

/** The format modules; claiming modules first, then the plain tables, in message order. */
export const FORMAT_MODULES: readonly FormatModule[] = [
  claudeUser,
  opencode,
  gemini,
  kiro,
  mcpServers,
  vscode,
  codex,
  zed,
  continueYaml,
  goose,
];

/** What the "no servers" message lists: each plain table and who writes it. */
export const EXPECTED_TABLES =
  "mcpServers, servers (VS Code), mcp_servers (Codex TOML), context_servers (Zed), mcp (opencode), a YAML mcpServers list (Continue) or extensions (Goose YAML)";
