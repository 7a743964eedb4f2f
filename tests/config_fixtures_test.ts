/**
 * Every format's fixture file through the real CLI: with read and env access only, the run
 * exits 2 with the one line of flags its servers need, computed from the file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { mcpeval, ROOT } from "./_cli.ts";

const CONFIGS = join(ROOT, "fixtures", "configs");
const ENV = {
  GITHUB_PERSONAL_ACCESS_TOKEN: "ghp-fixture",
  BRAVE_API_KEY: "brave-fixture",
  LINEAR_API_KEY: "linear-fixture",
  SERVICE_TOKEN: "service-fixture",
  LOCAL_API_KEY: "local-fixture",
  PERPLEXITY_KEY: "perplexity-fixture",
};

const CASES: [string, string[], string][] = [
  // (Team Tools, a key that is not a label, is checked as Team_Tools: node.)
  ["claude-code.mcp.json", [], "--allow-run=npx,node --allow-net=127.0.0.1:3001"],
  ["claude_desktop_config.json", [], "--allow-run=npx,docker"],
  ["cursor/.cursor/mcp.json", [], "--allow-run=node,deno --allow-net=127.0.0.1:3845"],
  ["windsurf.mcp_config.json", [], "--allow-run=npx --allow-net=localhost:7700"],
  ["gemini.settings.json", [], "--allow-net=localhost:3000"],
  ["cline_mcp_settings.json", [], "--allow-net=127.0.0.1:8931 --allow-run=uvx"],
  ["vscode/.vscode/mcp.json", ["--input", "perplexity-key=PERPLEXITY_KEY"], "--allow-run=npx,uvx"],
  ["codex.config.toml", [], "--allow-run=npx,search-mcp,shell-mcp --allow-net=127.0.0.1:8787"],
  ["zed.settings.json", [], "--allow-run=npx,node"],
];

for (const [file, args, flags] of CASES) {
  Deno.test(`fixture ${file}: the permissions its servers need, in one line`, async () => {
    const result = await mcpeval(
      ["guidance", "--config", join(CONFIGS, file), ...args],
      { permissions: [`--allow-read=${CONFIGS}`, "--allow-env"], env: ENV },
    );
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^mcpeval: Permission to [a-z ]+ is missing: add [^\n]+\n$/);
    assert.ok(result.stderr.endsWith(`add ${flags}\n`), result.stderr);
  });
}

Deno.test("fixture .mcp.json without --allow-env: the variables its servers read, with what is known", async () => {
  const result = await mcpeval(
    ["guidance", "--config", join(CONFIGS, "claude-code.mcp.json")],
    { permissions: [`--allow-read=${CONFIGS}`] },
  );
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "mcpeval: Permission to reach the server and run the server command and read environment variables is missing: add --allow-net=127.0.0.1:3001 --allow-run=node --allow-env=MEMORY_FILE_PATH,PROJECT_ROOT,SENTRY_AUTH_TOKEN\n",
  );
});
