/**
 * Gemini CLI: `gemini -p hi` with `~/.gemini/settings.json` naming the probe servers, API-key
 * auth with a dummy `GEMINI_API_KEY`, and `GOOGLE_GEMINI_BASE_URL` pointing at the stand-in;
 * telemetry, usage statistics, update checks and folder trust off. Each probe server is marked
 * `trust: true`: a headless run leaves out the tools that would ask for approval.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, mcpServers, writeFile } from "../driver.ts";

/** Gemini CLI's settings, with the probe servers (shared with Qwen Code, its fork). */
export const geminiSettings = (
  servers: Parameters<typeof mcpServers>[0],
  auth: string,
): Record<string, unknown> => ({
  // trust: a headless run leaves out tools that would ask for approval; trusted servers' do not.
  mcpServers: Object.fromEntries(
    Object.entries(mcpServers(servers)).map(([label, server]) => [label, {
      ...(server as object),
      trust: true,
    }]),
  ),
  security: { auth: { selectedType: auth }, folderTrust: { enabled: false } },
  privacy: { usageStatisticsEnabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false },
  telemetry: { enabled: false },
  ui: { hideTips: true, hideBanner: true },
});

/** The Gemini CLI driver. */
export const geminiCli: Driver = {
  id: "gemini-cli",
  package: "@google/gemini-cli",
  version: "0.61.0",
  api: "gemini",
  prepare: async ({ home, model, servers }) => {
    await writeFile(
      join(home, ".gemini", "settings.json"),
      JSON.stringify(geminiSettings(servers, "gemini-api-key")),
    );
    return {
      bin: "node_modules/.bin/gemini",
      args: ["-p", "hi", "--debug"],
      env: {
        GEMINI_API_KEY: "dummy",
        GOOGLE_GEMINI_BASE_URL: model,
        GEMINI_CLI_NO_RELAUNCH: "true",
        GEMINI_TELEMETRY_ENABLED: "false",
      },
    };
  },
};
