/**
 * Config files read as their clients read them (issue 32), through the real CLI: a project entry
 * of `~/.claude.json` replaces the user's, the shared `mcpServers` shape takes `httpUrl`, Goose's
 * YAML 1.2 keys, opencode's `tools` wildcards, and the hint for a working folder that is missing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { configFile, DENO, fixture, fleetJson, mcpeval, ROOT } from "./_cli.ts";

const CONFIGS = join(ROOT, "fixtures", "configs");
const PERMISSIONS = ["--allow-run=deno", `--allow-read=${CONFIGS}`, "--allow-net=127.0.0.1"];
const QUICK = ["--profile", "none", "--settle-ms", "0", "--timeout-ms", "5000"];

/** The fleet of a fixture config, checked under profile none. */
function fleetOf(file: string, ...extra: string[]) {
  return fleetJson(["--config", join(CONFIGS, file), ...extra, ...QUICK], {
    permissions: PERMISSIONS,
  });
}

Deno.test("~/.claude.json with --config-project: the project's entry replaces the user's of the same name", async () => {
  const { code, fleet } = await fleetOf(
    "claude-shared/.claude.json",
    "--config-project",
    "/home/dev/app",
  );
  // The user's `shared` (an invalid entry) is not listed: the project's is checked in its place.
  assert.deepEqual(fleet.servers.map((s) => [s.name, s.checked]), [
    ["notes", true],
    ["shared", true],
  ]);
  assert.equal(code, 0);
});

Deno.test("an mcpServers file with an httpUrl entry is the shared shape: url, serverUrl and httpUrl are Streamable HTTP", async () => {
  const { code, fleet } = await fleetOf("shared-http.mcp.json");
  assert.deepEqual(
    fleet.servers.map((s) => [s.name, s.checked && s.report.transport]),
    [["gemini-style", "streamable-http"], ["plain", "streamable-http"], [
      "windsurf",
      "streamable-http",
    ]],
  );
  // Nothing listens on port 9: each is checked and incomplete, none is legacy-sse.
  assert.equal(code, 3);
});

Deno.test("Goose's YAML is read as YAML 1.2: extensions named off and yes keep their names", async () => {
  const { code, fleet } = await fleetOf("goose-keys/config.yaml");
  assert.deepEqual(fleet.servers.map((s) => [s.name, s.checked]), [["off", true], ["yes", true]]);
  assert.equal(code, 0);
  const selected = await fleetOf("goose-keys/config.yaml", "--server", "off");
  assert.deepEqual(selected.fleet.servers.map((s) => s.name), ["off"]);
});

Deno.test("opencode's tools map hides the tools its wildcards set to false (the longest pattern decides)", async () => {
  const { code, fleet } = await fleetOf(
    "opencode-tools/opencode.json",
    "--require-tool",
    "notes:search-notes",
    "--require-tool",
    "notes:read-note",
  );
  const [server] = fleet.servers;
  assert.ok(server.checked);
  const { report } = server;
  // notes_search-notes matches only notes_* (false); notes_read-note also notes_read-not? (true).
  assert.deepEqual(
    report.candidates.map((c) => [c.kind, c.tool, c.rule]),
    [["tool-disabled-in-config", "search-notes", "tools"]],
  );
  assert.deepEqual(report.defects.map((d) => [d.kind, d.tool, d.rule]), [[
    "required-tool-unavailable",
    "search-notes",
    "tools",
  ]]);
  assert.equal(code, 1);
});

Deno.test("an entry whose working folder does not exist is cwd-not-found, not a PATH problem", async () => {
  await using config = await configFile({
    mcpServers: {
      missing: {
        command: DENO,
        args: fixture("demo/server.ts").slice(1),
        cwd: "/nonexistent-mcpeval-folder/secret-cwd",
      },
    },
  });
  const { code, fleet, stdout } = await fleetJson(["--config", config.path, ...QUICK], {
    permissions: [`--allow-run=${DENO}`, `--allow-read=${config.path}`],
  });
  const [server] = fleet.servers;
  assert.ok(!server.checked);
  assert.equal(server.reason, "cwd-not-found");
  assert.match(server.hint, /working folder \(cwd\) does not exist/);
  assert.doesNotMatch(server.hint, /PATH/);
  assert.ok(!stdout.includes("secret-cwd"), "the folder is never shown");
  assert.equal(code, 3);
  const text = await mcpeval(["guidance", "--config", config.path, ...QUICK], {
    permissions: [`--allow-run=${DENO}`, `--allow-read=${config.path}`],
  });
  assert.match(text.stdout, /working folder \(cwd\) does not exist/);
  assert.equal(text.code, 3);
});
