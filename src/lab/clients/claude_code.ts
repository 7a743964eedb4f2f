/**
 * Claude Code: `claude -p hi --mcp-config FILE --strict-mcp-config`, pointed at the stand-in
 * with `ANTHROPIC_BASE_URL` and a dummy `ANTHROPIC_API_KEY`; `--debug` so that its schema
 * warnings reach stderr (classified, never kept). Tool search is off, so that every tool is
 * declared in the request rather than deferred behind a search tool, and the servers are
 * connected before the first model request.
 *
 * @module
 */
import { join } from "node:path";
import { type Driver, mcpServers, writeFile } from "../driver.ts";

/** The Claude Code driver. */
export const claudeCode: Driver = {
  id: "claude-code",
  package: "@anthropic-ai/claude-code",
  version: "2.1.332",
  // Issue 40 measured it: 91 days before 2.1.332, it differs on 6 probe tools and its opening.
  alsoObserve: ["2.1.246"],
  api: "anthropic",
  // Its default defers MCP tools behind its tool search (names only): the lab observes both.
  labSetting: "ENABLE_TOOL_SEARCH=false",
  prepare: async ({ home, model, servers, defaults }) => {
    const config = join(home, "mcp.json");
    await writeFile(config, JSON.stringify({ mcpServers: mcpServers(servers) }));
    return {
      bin: "node_modules/.bin/claude",
      args: [
        "-p",
        "hi",
        "--mcp-config",
        config,
        "--strict-mcp-config",
        "--debug",
        "--debug-to-stderr",
      ],
      env: {
        ANTHROPIC_BASE_URL: model,
        ANTHROPIC_API_KEY: "dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        ...(defaults ? {} : { ENABLE_TOOL_SEARCH: "false" }),
        MCP_TIMEOUT: "30000",
        // Versions 2.1.17x-2.1.20x connect --mcp-config servers in the background of a -p run
        // (its first model request goes out before them): wait for them, as later ones do.
        MCP_CONNECTION_NONBLOCKING: "false",
      },
    };
  },
};
