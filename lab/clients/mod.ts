/**
 * The lab's clients, in one table: a driver per client the lab can run headless from the npm
 * registry, and the clients it cannot run, each with the reason.
 *
 * @module
 */
import type { Driver, Unavailable } from "../driver.ts";
import { claudeCode } from "./claude_code.ts";
import { codex } from "./codex.ts";
import { copilotCli } from "./copilot_cli.ts";
import { geminiCli } from "./gemini_cli.ts";
import { qwenCode } from "./qwen_code.ts";

/** The drivers, in the order the lab runs them. */
export const DRIVERS: readonly Driver[] = [claudeCode, codex, geminiCli, copilotCli, qwenCode];

/** Clients with a preset or a request that the lab cannot run, and why. */
export const UNAVAILABLE: readonly Unavailable[] = [];
