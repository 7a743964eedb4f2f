/**
 * Cline CLI: `cline "say hi"` (a one-word prompt is taken for a command) with the files its own `cline auth -p openai` and `cline mcp add`
 * write in `~/.cline/data/settings/`: an OpenAI-compatible provider at the stand-in (Chat
 * Completions, a dummy key) and the probe servers as stdio transports.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, writeFile } from "../driver.ts";

/**
 * Why the 2.x CLI is not driven: it keeps its provider in another store than 3.x
 * (`~/.cline/data/globalState.json` and `secrets.json`); with the 3.x files it exits "Not
 * authenticated", and with a provider in its global state it starts the task but sends no model
 * request to the stand-in within the run's bound. A driver for 2.x is not written.
 */
const TWO =
  "the 2.x CLI keeps its provider elsewhere than 3.x: with the 3.x files it exits 'Not authenticated', with its own it sends no model request to the stand-in (no 2.x driver)";

/** The Cline driver. */
export const cline: Driver = {
  id: "cline",
  package: "cline",
  version: "3.0.65",
  notDriven: {
    "2.18.0": TWO,
    "2.14.0": TWO,
  },
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
        // A connect timeout of 60 s: the default (3 s per server) passes before a busy machine
        // has started the probe set's 29 servers, and the task then starts without them.
        mcpServers: Object.fromEntries(servers.map((s) => [s.label, {
          transport: { type: "stdio", command: s.command, args: s.args, env: s.env },
          timeout: 60,
        }])),
      }),
    );
    return { bin: "node_modules/.bin/cline", args: ["--verbose", "say hi"], env: {} };
  },
};
