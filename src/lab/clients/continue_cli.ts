/**
 * Continue CLI: `cn -p hi --config FILE` with a local `config.yaml` whose one model is an
 * OpenAI-compatible provider at the stand-in (`apiBase`, Chat Completions, a dummy key) and
 * whose `mcpServers` are the probe servers; telemetry off.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, writeFile } from "../driver.ts";

/** The Continue CLI driver. */
export const continueCli: Driver = {
  id: "continue-cli",
  package: "@continuedev/cli",
  version: "1.5.47",
  api: "chat",
  // Observed 1.5.47: "MCP server(s) failed to load" ends the headless run before any model
  // request when one server refuses its initialize (the 2026-07-28-only probe).
  revisionsAlone: true,
  // Its serializer is loaded only to run it: the drivers' table loads with every `--observe`.
  prepare: async ({ home, model, servers }) => {
    const { stringify } = await import("yaml");
    const file = join(home, ".continue", "config.yaml");
    await writeFile(
      file,
      stringify({
        name: "lab",
        version: "1.0.0",
        schema: "v1",
        models: [{
          name: "lab",
          provider: "openai",
          model: "gpt-4.1",
          apiKey: "dummy",
          apiBase: `${model}/v1`,
          roles: ["chat"],
        }],
        mcpServers: servers.map((s) => ({
          name: s.label,
          command: s.command,
          args: [...s.args],
          env: { ...s.env },
        })),
      }),
    );
    return {
      bin: "node_modules/.bin/cn",
      args: ["-p", "hi", "--config", file],
      env: { CONTINUE_CLI_DISABLE_TELEMETRY: "1", CONTINUE_TELEMETRY_ENABLED: "0" },
    };
  },
};
