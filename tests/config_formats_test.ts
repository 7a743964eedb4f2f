/**
 * The client file shapes of the format registry, end to end through the CLI with the fixture
 * files in fixtures/configs/: each is detected, its entries listed and checked, keys that are
 * not labels checked under derived labels, the file's own tool filters applied in every
 * profile, and a workspace-relative VS Code entry started in its workspace folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { configFile, type Fleet, fleetJson, mcpeval, ROOT, tempDir } from "./_cli.ts";

const CONFIGS = join(ROOT, "fixtures", "configs");
const PERMISSIONS = ["--allow-read", "--allow-run", "--allow-env", "--allow-net=127.0.0.1"];
const FAST = ["--settle-ms", "0", "--timeout-ms", "10000"];

/** `guidance --format json --config FIXTURE ARGS` (validated), fast settings. */
const fleetOf = (file: string, ...args: string[]) =>
  fleetJson(["--config", join(CONFIGS, file), ...args, ...FAST], { permissions: PERMISSIONS });

/** `guidance --config FIXTURE ARGS` with the text report, fast settings. */
const textOf = (file: string, ...args: string[]) =>
  mcpeval(["guidance", "--config", join(CONFIGS, file), ...args, ...FAST], {
    permissions: PERMISSIONS,
  });

interface Finding {
  kind: string;
  profile: string;
  tool: string;
  rule?: string;
  available_in: string[];
}

/** What became of each server: `name: complete`, or `name: reason`. */
function outcomes(fleet: Fleet): string[] {
  return fleet.servers.map((s) =>
    s.checked
      ? `${s.name}: ${s.report.complete ? "complete" : "incomplete"}`
      : `${s.name}: ${s.reason}`
  );
}

function reportOf(fleet: Fleet, name: string) {
  const server = fleet.servers.find((s) => s.name === name);
  assert.ok(server?.checked, `${name} was checked`);
  return server.report as unknown as { candidates: Finding[]; defects: Finding[] };
}

/** `kind profile tool rule` of a report's findings of `kinds`. */
function findings(list: Finding[], kind: string): string[] {
  return list.filter((f) => f.kind === kind).map((f) =>
    `${f.profile} ${f.tool} ${f.rule ?? "-"} [${f.available_in.join(",")}]`
  );
}

const FORMATS: [string, string[], string, string[]][] = [
  ["vscode-settings/settings.json", [], "servers", ["notes: complete", "MSSQL_TEST_MCP: complete"]],
  ["gemini/.gemini/settings.json", [], "mcpServers", [
    "notes: complete",
    "events: legacy-sse",
    "remote: unset-variable",
  ]],
  ["opencode/opencode.jsonc", [], "mcp", [
    "notes: complete",
    "context7: remote-http-not-allowed",
    "playwright: disabled",
  ]],
  ["continue/.continue/mcpServers/notes.yaml", [], "mcpServers", [
    "Notes_Server: complete",
    "docs: remote-http-not-allowed",
    "legacy: legacy-sse",
    "secrets: unsupported-variable",
  ]],
  ["goose/config.yaml", [], "extensions", [
    "developer: unsupported-entry",
    "notes: complete",
    "github: disabled",
  ]],
  ["kiro/.kiro/settings/mcp.json", [], "mcpServers", ["notes: complete", "aws-docs: disabled"]],
  ["claude-user/.claude.json", [], "mcpServers", ["notes: complete"]],
  ["claude-user/.claude.json", ["--config-project", "/home/dev/app"], "mcpServers", [
    "notes: complete",
    "github.com_upstash_context7-mcp: complete",
  ]],
  ["codex-filters.config.toml", [], "mcp_servers", ["notes: complete", "search-only: complete"]],
];

for (const [file, extra, format, expected] of FORMATS) {
  Deno.test(`config format ${file}${extra.length ? ` ${extra.join(" ")}` : ""}: ${format}, every entry listed`, async () => {
    const { fleet, stdout } = await fleetOf(file, ...extra, "--profile", "none");
    assert.equal(fleet.config_format, format);
    assert.deepEqual(outcomes(fleet), expected);
    // A key that is not a label is never shown, only its derived label.
    for (const key of ["MSSQL TEST MCP", "Notes Server", "github.com/upstash"]) {
      assert.ok(!stdout.includes(key), `${file}: the key ${key} was shown`);
    }
  });
}

Deno.test("unset-variable names the variables the entry needs, never a value", async () => {
  const { fleet } = await fleetOf("gemini/.gemini/settings.json", "--server", "remote");
  const [server] = fleet.servers as unknown as { reason: string; variables?: string[] }[];
  assert.equal(server.reason, "unset-variable");
  assert.deepEqual(server.variables, ["GEMINI_FIXTURE_TOKEN"]);
  const text = await textOf("gemini/.gemini/settings.json", "--server", "remote");
  assert.equal(text.code, 3);
  assert.match(text.stdout, /not checked: unset-variable \(needs GEMINI_FIXTURE_TOKEN\)/);
});

Deno.test("--server takes a key that is not a label, or its derived label", async () => {
  for (const name of ["MSSQL TEST MCP", "MSSQL_TEST_MCP"]) {
    const { fleet } = await fleetOf(
      "vscode-settings/settings.json",
      "--server",
      name,
      "--require-tool",
      // The other spelling of the same entry.
      `${name === "MSSQL TEST MCP" ? "MSSQL_TEST_MCP" : "MSSQL TEST MCP"}:read-note`,
      "--profile",
      "none",
    );
    assert.deepEqual(outcomes(fleet), ["MSSQL_TEST_MCP: complete"]);
    assert.equal(fleet.passed, true);
  }
  const { fleet } = await fleetOf(
    "claude-user/.claude.json",
    "--config-project",
    "/home/dev/app",
    "--server",
    "github.com/upstash/context7-mcp",
    "--require-tool",
    "github.com/upstash/context7-mcp:search-notes",
    "--profile",
    "none",
  );
  assert.deepEqual(outcomes(fleet), ["github.com_upstash_context7-mcp: complete"]);
  assert.equal(fleet.passed, true);
});

Deno.test("Codex enabled_tools and disabled_tools: tool-disabled-in-config in every profile, a required one is a defect", async () => {
  const { code, fleet } = await fleetOf(
    "codex-filters.config.toml",
    "--profile",
    "none",
    "--profile",
    "all",
    "--require-tool",
    "notes:read-note",
  );
  assert.equal(code, 1);
  const notes = reportOf(fleet, "notes");
  assert.deepEqual(findings(notes.candidates, "tool-disabled-in-config"), [
    "none read-note disabled-tools []",
    "all read-note disabled-tools []",
  ]);
  assert.deepEqual(findings(notes.defects, "required-tool-unavailable"), [
    "none read-note - []",
    "all read-note - []",
  ]);
  const only = reportOf(fleet, "search-only");
  // Named in the instructions, hidden by the allow list: read-note, and in "all" the tools
  // that need client capabilities.
  assert.deepEqual(findings(only.candidates, "tool-disabled-in-config"), [
    "none read-note enabled-tools []",
    "all list-workspace-files enabled-tools []",
    "all read-note enabled-tools []",
    "all summarize-notes enabled-tools []",
  ]);
  assert.equal(only.defects.length, 0);
});

Deno.test("Gemini CLI includeTools and excludeTools: exclude wins, name( matches, a required one is a defect", async () => {
  const { code, fleet, stdout } = await fleetOf(
    "gemini/.gemini/settings.json",
    "--server",
    "notes",
    "--profile",
    "all",
    "--require-tool",
    "notes:read-note",
    "--require-tool",
    "notes:search-notes",
  );
  assert.equal(code, 1);
  const notes = reportOf(fleet, "notes");
  assert.deepEqual(findings(notes.candidates, "tool-disabled-in-config"), [
    "all list-workspace-files include-tools []",
    "all read-note exclude-tools []",
    "all summarize-notes include-tools []",
  ]);
  assert.deepEqual(findings(notes.defects, "required-tool-unavailable"), ["all read-note - []"]);
  assert.ok(!stdout.includes("search-notes(text)"), "the file's filter text was shown");
  const text = await textOf(
    "gemini/.gemini/settings.json",
    "--server",
    "notes",
    "--profile",
    "all",
  );
  assert.equal(text.code, 0);
  assert.match(
    text.stdout,
    /filtered all: `read-note` is named and listed but the config file's exclude-tools\s+filter/,
  );
});

Deno.test("Kiro disabledTools hides a tool in every profile", async () => {
  const { fleet } = await fleetOf(
    "kiro/.kiro/settings/mcp.json",
    "--server",
    "notes",
    "--profile",
    "none",
  );
  assert.deepEqual(findings(reportOf(fleet, "notes").candidates, "tool-disabled-in-config"), [
    "none read-note disabled-tools []",
  ]);
});

Deno.test("a workspace-relative VS Code entry starts in its workspace folder, wherever mcpeval runs", async () => {
  // mcpeval runs in the repository root; the entry's "../../demo/server.ts" is relative to the
  // folder above .vscode.
  const { fleet } = await fleetOf("vscode-workspace/.vscode/mcp.json", "--profile", "none");
  assert.deepEqual(outcomes(fleet), ["notes: complete", "script: complete"]);
  assert.deepEqual(reportOf(fleet, "notes").candidates.map((c) => c.kind), []);
});

Deno.test("an empty server table, like a file without one, exits 2 with one line", async () => {
  await using temp = await tempDir();
  const cases: [string, string, RegExp][] = [
    [
      "mcp.json",
      '{"mcpServers": {}}',
      /^mcpeval: The config file's mcpServers lists no servers: there is nothing to check\n$/,
    ],
    [
      "settings.json",
      '{"mcp": {"servers": {}}}',
      /^mcpeval: The config file's mcp.servers lists no servers/,
    ],
    ["config.toml", "[mcp_servers]\n", /^mcpeval: The config file's mcp_servers lists no servers/],
    ["config.yaml", "mcpServers: []\n", /^mcpeval: The config file's mcpServers lists no servers/],
    ["goose.yaml", "extensions: {}\n", /^mcpeval: The config file's extensions lists no servers/],
    [
      ".claude.json",
      '{"projects": {"/a": {"mcpServers": {}}}}',
      /^mcpeval: The config file lists no servers of its own: give --config-project PATH/,
    ],
    ["other.yaml", "models: []\n", /^mcpeval: The config file lists no MCP servers: expected/],
    [
      "bad.yaml",
      "mcpServers: [\n",
      /^mcpeval: The config file is not valid YAML at line \d+, column \d+\n$/,
    ],
  ];
  for (const [name, text, expected] of cases) {
    const path = join(temp.path, name);
    await Deno.writeTextFile(path, text);
    const result = await mcpeval(["guidance", "--config", path], {
      permissions: [`--allow-read=${temp.path}`],
    });
    assert.equal(result.code, 2, `${name}: ${result.stderr}`);
    assert.match(result.stderr, expected);
    assert.equal(result.stderr.split("\n").length, 2, `${name}: one line`);
    assert.equal(result.stdout, "");
  }
});

Deno.test("--config-project: only with a Claude Code user file, and only a project it lists", async () => {
  const user = await textOf("claude-user/.claude.json", "--config-project", "/nowhere");
  assert.equal(user.code, 2);
  assert.equal(user.stderr, "mcpeval: --config-project names no project of the config file\n");
  await using other = await configFile({ mcpServers: { a: { command: "x" } } });
  const plain = await mcpeval(
    ["guidance", "--config", other.path, "--config-project", "/home/dev/app"],
    { permissions: PERMISSIONS },
  );
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /^mcpeval: --config-project applies only to Claude Code's user file/);
});
