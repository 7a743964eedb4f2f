/**
 * GitHub Copilot CLI: `copilot -p hi` in offline mode with a custom model provider (BYOK,
 * `COPILOT_PROVIDER_BASE_URL` at the stand-in, OpenAI Chat Completions, a dummy key), the probe
 * servers in `~/.copilot/mcp-config.json`, tools allowed (required headless), built-in MCP
 * servers, telemetry and auto-update off. The npm package ships the native binary it runs.
 *
 * @module
 */
import { join } from "node:path";
import { compareVersions } from "../../clients/versions.ts";
import { type Driver, writeFile } from "../driver.ts";

/**
 * The first version observed with `--disable-client-telemetry`: 1.0.92 and earlier refuse the
 * flag (and then take the words after it for the prompt); offline mode sends nothing anyway.
 */
const TELEMETRY_FLAG_SINCE = "1.0.102";

/** The Copilot CLI driver. */
export const copilotCli: Driver = {
  id: "copilot-cli",
  package: "@github/copilot",
  version: "1.0.102",
  api: "chat",
  prepare: async ({ home, model, servers, version }) => {
    const mcpServers = Object.fromEntries(servers.map((s) => [s.label, {
      type: "local",
      command: s.command,
      args: s.args,
      env: s.env,
      tools: ["*"],
    }]));
    await writeFile(join(home, ".copilot", "mcp-config.json"), JSON.stringify({ mcpServers }));
    return {
      bin: "node_modules/.bin/copilot",
      args: [
        "-p",
        "hi",
        "--allow-all-tools",
        "--disable-builtin-mcps",
        ...(compareVersions(version, TELEMETRY_FLAG_SINCE) >= 0
          ? ["--disable-client-telemetry"]
          : []),
        "--no-auto-update",
        "--log-level",
        "debug",
        "--log-dir",
        join(home, "logs"),
      ],
      env: {
        COPILOT_OFFLINE: "true",
        COPILOT_AUTO_UPDATE: "false",
        COPILOT_PROVIDER_BASE_URL: `${model}/v1`,
        COPILOT_PROVIDER_TYPE: "openai",
        COPILOT_PROVIDER_API_KEY: "dummy",
        COPILOT_MODEL: "gpt-4.1",
      },
    };
  },
};
