/**
 * Qwen Code (a fork of Gemini CLI): `qwen -p hi` with `~/.qwen/settings.json` naming the probe
 * servers (trusted, as for Gemini CLI), OpenAI-compatible auth with `OPENAI_BASE_URL` at the
 * stand-in (Chat Completions) and a dummy `OPENAI_API_KEY`; telemetry and updates off.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, writeFile } from "../driver.ts";
import { geminiSettings } from "./gemini_cli.ts";

/** The Qwen Code driver. */
export const qwenCode: Driver = {
  id: "qwen-code",
  package: "@qwen-code/qwen-code",
  version: "0.24.4",
  // The 0.15 line's last release before 0.23 (2026-08-24), between two monthly steps.
  alsoObserve: ["0.15.6"],
  api: "chat",
  prepare: async ({ home, model, servers }) => {
    await writeFile(
      join(home, ".qwen", "settings.json"),
      JSON.stringify(geminiSettings(servers, "openai")),
    );
    return {
      bin: "node_modules/.bin/qwen",
      args: ["-p", "hi", "--debug"],
      env: {
        OPENAI_API_KEY: "dummy",
        OPENAI_BASE_URL: `${model}/v1`,
        OPENAI_MODEL: "qwen3-coder-plus",
        QWEN_CODE_NO_RELAUNCH: "true",
      },
    };
  },
};
