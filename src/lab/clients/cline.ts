/**
 * Cline CLI: `cline "say hi"` (a one-word prompt is taken for a command) with the files its own `cline auth -p openai` and `cline mcp add`
 * write in `~/.cline/data/settings/`: an OpenAI-compatible provider at the stand-in (Chat
 * Completions, a dummy key) and the probe servers as stdio transports.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, writeFile } from "../driver.ts";

/** The Cline driver. */
export const cline: Driver = {
  id: "cline",
  package: "cline",
  version: "3.0.65",
  api: "chat",
  prepare: async ({ home, model, servers }) => {
    const settings = join(home, ".cline", "data", "settings");
    await writeFile(
      join(settings, "providers.json"),
      JSON.stringify({
        version: 1,
        lastUsedProvider: "openai-compatible",
        modes: {},
        providers: {
          "openai-compatible": {
            settings: {
              provider: "openai-compatible",
              apiKey: "dummy",
              model: "gpt-4.1",
              baseUrl: `${model}/v1`,
            },
            updatedAt: "2026-12-02T00:00:00.000Z",
            tokenSource: "manual",
          },
        },
      }),
    );
    await writeFile(
      join(settings, "cline_mcp_settings.json"),
      JSON.stringify({
        mcpServers: Object.fromEntries(servers.map((s) => [s.label, {
          transport: { type: "stdio", command: s.command, args: s.args, env: s.env },
        }])),
      }),
    );
    return { bin: "node_modules/.bin/cline", args: ["--verbose", "say hi"], env: {} };
  },
};
