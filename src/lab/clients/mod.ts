/**
 * The lab's clients, in one table: a driver per client the lab can run headless from the npm
 * registry, and the clients it cannot run, each with the reason.
 *
 * @module
 */
import type { Driver, Unavailable } from "../driver.ts";
import { claudeCode } from "./claude_code.ts";
import { cline } from "./cline.ts";
import { codex } from "./codex.ts";
import { continueCli } from "./continue_cli.ts";
import { copilotCli } from "./copilot_cli.ts";
import { geminiCli } from "./gemini_cli.ts";
import { opencode } from "./opencode.ts";
import { qwenCode } from "./qwen_code.ts";

/** The drivers, in the order the lab runs them. */
export const DRIVERS: readonly Driver[] = [
  claudeCode,
  codex,
  geminiCli,
  copilotCli,
  qwenCode,
  opencode,
  continueCli,
  cline,
];

/** Clients with a preset or a request that the lab cannot run, and why. */
export const UNAVAILABLE: readonly Unavailable[] = [
  { id: "vscode", package: null, reason: "an editor, not on the npm registry" },
  { id: "cursor", package: null, reason: "an editor, not on the npm registry" },
  { id: "windsurf", package: null, reason: "an editor, not on the npm registry" },
  { id: "zed", package: null, reason: "an editor, not on the npm registry" },
  {
    id: "goose",
    package: null,
    reason: "not on the npm registry (a native app and CLI from its own releases)",
  },
  {
    id: "continue",
    package: null,
    reason: "the IDE extension is not on the npm registry (its CLI is continue-cli)",
  },
];
