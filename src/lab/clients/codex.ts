/**
 * Codex: `codex exec` with a `config.toml` in `CODEX_HOME` that names a model provider whose
 * `base_url` is the stand-in (Responses API) and whose key is a dummy, and the probe servers as
 * `mcp_servers`. The npm package ships the native binary it runs.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, writeFile } from "../driver.ts";

/** The Codex driver. */
export const codex: Driver = {
  id: "codex",
  package: "@openai/codex",
  version: "0.171.0",
  api: "responses",
  // Its serializer is loaded only to run it: the drivers' table loads with every `--observe`.
  prepare: async ({ home, model, servers }) => {
    const { stringify } = await import("smol-toml");
    const codexHome = join(home, ".codex");
    const config = {
      model: "gpt-5-codex",
      model_provider: "lab",
      approval_policy: "never",
      sandbox_mode: "read-only",
      check_for_update_on_startup: false,
      analytics: { enabled: false },
      otel: { exporter: "none" },
      model_providers: {
        lab: {
          name: "lab",
          base_url: `${model}/v1`,
          env_key: "LAB_API_KEY",
          wire_api: "responses",
          request_max_retries: 0,
          stream_max_retries: 0,
        },
      },
      mcp_servers: Object.fromEntries(
        servers.map((s) => [s.label, {
          command: s.command,
          args: [...s.args],
          env: { ...s.env },
          startup_timeout_sec: 30,
        }]),
      ),
    };
    await writeFile(join(codexHome, "config.toml"), stringify(config));
    return {
      bin: "node_modules/.bin/codex",
      args: ["exec", "--skip-git-repo-check", "hi"],
      env: { CODEX_HOME: codexHome, LAB_API_KEY: "dummy", RUST_LOG: "warn" },
    };
  },
};
