/**
 * opencode: `opencode run hi` with `~/.config/opencode/opencode.json` naming the probe servers
 * (`mcp`, local commands) and its built-in `openai` provider with `baseURL` at the stand-in
 * and a dummy key; auto-update, sharing and the models.dev fetch off. The npm package ships
 * the native binary it runs.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, writeFile } from "../driver.ts";

/** The opencode driver. */
export const opencode: Driver = {
  id: "opencode",
  package: "opencode-ai",
  version: "1.18.33",
  notDriven: {
    "1.17.15":
      "not installable: the native packages it needs (opencode-linux-x64@1.17.15 and the other Linux ones) are not on the npm registry",
  },
  api: "responses",
  prepare: async ({ home, model, servers }) => {
    const config = {
      model: "openai/gpt-4.1",
      autoupdate: false,
      share: "disabled",
      provider: { openai: { options: { baseURL: `${model}/v1`, apiKey: "dummy" } } },
      mcp: Object.fromEntries(servers.map((s) => [s.label, {
        type: "local",
        command: [s.command, ...s.args],
        environment: s.env,
        enabled: true,
      }])),
    };
    await writeFile(join(home, ".config", "opencode", "opencode.json"), JSON.stringify(config));
    return {
      bin: "node_modules/.bin/opencode",
      args: ["run", "--print-logs", "--log-level", "DEBUG", "hi"],
      env: {
        OPENAI_API_KEY: "dummy",
        OPENCODE_DISABLE_AUTOUPDATE: "true",
        OPENCODE_DISABLE_MODELS_FETCH: "true",
        OPENCODE_DISABLE_SHARE: "true",
      },
    };
  },
};
