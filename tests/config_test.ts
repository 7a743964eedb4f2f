/**
 * Client config files, in-process: every format's fixture file parses to the entries it holds,
 * each resolved through the same validator as the command line, or listed with a fixed reason.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { configEntries } from "../src/config/entries.ts";
import { ConfigError, parseConfig } from "../src/config/parse.ts";
import { environmentOf, resolveEntry, workspaceFolderOf } from "../src/config/resolve.ts";
import { DENIED, expand, type VariableScope } from "../src/config/variables.ts";
import { validateSettings } from "../src/request/request.ts";
import { ROOT } from "./_cli.ts";

const CONFIGS = join(ROOT, "fixtures", "configs");

/** The environment the fixtures are resolved in: some variables set, the others unset. */
const ENV: Record<string, string> = {
  GITHUB_PERSONAL_ACCESS_TOKEN: "ghp-fixture",
  BRAVE_API_KEY: "brave-fixture",
  LINEAR_API_KEY: "linear-fixture",
  HOME: "/home/fixture",
  SERVICE_TOKEN: "service-fixture",
  LOCAL_API_KEY: "local-fixture",
  PERPLEXITY_KEY: "perplexity-fixture",
};

function scopeFor(path: string, inputs: Record<string, string> = {}): VariableScope {
  return {
    env: (name) => ENV[name],
    input: (id) => id in inputs ? { env: ENV[inputs[id]] } : undefined,
    workspaceFolder: workspaceFolderOf(path, ROOT),
    pathSeparator: "/",
  };
}

/** What became of each entry: its transport when checked, else its reason. */
function outcomes(
  file: string,
  { inputs = {}, allowRemoteHttp = false }: {
    inputs?: Record<string, string>;
    allowRemoteHttp?: boolean;
  } = {},
): { format: string; entries: [string, string][] } {
  const path = join(CONFIGS, file);
  const parsed = parseConfig(Deno.readTextFileSync(path));
  const settings = validateSettings({});
  const entries = configEntries(parsed).map((entry): [string, string] => {
    const resolved = resolveEntry(entry, {
      settings,
      requirements: new Map(),
      stderr: "discard",
      allowRemoteHttp,
      scope: scopeFor(path, inputs),
      envFile: (file) => {
        try {
          return Object.fromEntries(
            Deno.readTextFileSync(file).split("\n").filter((line) => /^\w+=/.test(line)).map(
              (line) => line.split("=", 2),
            ),
          );
        } catch {
          return undefined;
        }
      },
    });
    if ("request" in resolved) return [entry.name, resolved.request.target.kind];
    if ("notChecked" in resolved) {
      const { reason, field } = resolved.notChecked;
      return [entry.name, field ? `${reason} (${field})` : reason];
    }
    return [entry.name, "blocked"];
  });
  return { format: parsed.format, entries };
}

const EXPECTED: [string, string, [string, string][]][] = [
  ["claude-code.mcp.json", "mcpServers", [
    ["github", "remote-http-not-allowed"],
    ["filesystem", "stdio"],
    ["memory", "stdio"],
    ["docs", "streamable-http"],
    ["sentry", "unset-variable"],
    ["events", "legacy-sse"],
    ["Team_Tools", "stdio"],
  ]],
  ["claude_desktop_config.json", "mcpServers", [
    ["everything", "stdio"],
    ["puppeteer", "stdio"],
    ["postgres", "unset-variable"],
    ["brave-search", "stdio"],
  ]],
  ["cursor/.cursor/mcp.json", "mcpServers", [
    ["linear", "remote-http-not-allowed"],
    ["project", "stdio"],
    ["notes", "stdio"],
    ["figma", "streamable-http"],
    ["browser", "disabled"],
  ]],
  ["windsurf.mcp_config.json", "mcpServers", [
    ["github", "stdio"],
    ["context7", "remote-http-not-allowed"],
    ["local-search", "streamable-http"],
    ["slack", "disabled"],
  ]],
  ["gemini.settings.json", "mcpServers", [
    ["pythonTools", "unset-variable"],
    ["httpServer", "streamable-http"],
    ["docker-tools", "unset-variable"],
  ]],
  ["cline_mcp_settings.json", "mcpServers", [
    ["weather", "unset-variable"],
    ["remote-tools", "streamable-http"],
    ["old-remote", "legacy-sse"],
    ["github.com_modelcontextprotocol_servers_tree_main_src_git", "stdio"],
  ]],
  ["vscode/.vscode/mcp.json", "servers", [
    ["Perplexity", "unresolved-input"],
    ["github", "remote-http-not-allowed"],
    ["workspace", "env-file-unreadable"],
    ["fetch", "stdio"],
    ["legacy", "legacy-sse"],
    ["settings-sync", "unsupported-variable"],
  ]],
  ["codex.config.toml", "mcp_servers", [
    ["docs", "stdio"],
    ["figma", "remote-http-not-allowed"],
    ["local-api", "streamable-http"],
    ["playwright", "disabled"],
    ["search_tools", "stdio"],
    ["shell", "stdio"],
  ]],
  ["zed.settings.json", "context_servers", [
    ["postgres-context-server", "unsupported-entry"],
    ["mcp-server-github", "stdio"],
    ["legacy-shape", "stdio"],
    ["you-com", "remote-http-not-allowed"],
    ["local", "unset-variable"],
  ]],
];

for (const [file, format, expected] of EXPECTED) {
  Deno.test(`config fixture ${file}: ${format}, every entry listed with its outcome`, () => {
    assert.deepEqual(outcomes(file), { format, entries: expected });
  });
}

Deno.test("VS Code: --input answers an input; --allow-remote-http lets remote entries through", () => {
  const { entries } = outcomes("vscode/.vscode/mcp.json", {
    inputs: { "perplexity-key": "PERPLEXITY_KEY", github_token: "MCPEVAL_UNSET_FIXTURE" },
    allowRemoteHttp: true,
  });
  assert.deepEqual(entries.slice(0, 2), [
    ["Perplexity", "stdio"],
    ["github", "unset-variable"],
  ]);
});

Deno.test("resolved stdio entries carry env (env file first, then env) and an absolute cwd", () => {
  const path = join(CONFIGS, "cursor/.cursor/mcp.json");
  const [, project] = configEntries(parseConfig(Deno.readTextFileSync(path)));
  const resolved = resolveEntry(project, {
    settings: validateSettings({}),
    requirements: new Map([["project", ["a"]]]),
    stderr: "discard",
    allowRemoteHttp: false,
    scope: scopeFor(path),
    envFile: () => ({ PROJECT_API_KEY: "from-file", OTHER: "x" }),
  });
  assert.ok("request" in resolved);
  const { target, requiredTools } = resolved.request;
  assert.equal(target.kind, "stdio");
  assert.deepEqual(requiredTools, ["a"]);
  if (target.kind !== "stdio") return;
  assert.equal(target.command, "node");
  assert.deepEqual(target.args, [
    join(CONFIGS, "cursor", "scripts/mcp-server.js"),
    "--root",
    join(CONFIGS, "cursor"),
  ]);
  assert.deepEqual(target.env, { PROJECT_API_KEY: "from-file", OTHER: "x" });
});

Deno.test("a variable mcpeval may not read blocks the entry; only used variables are read", () => {
  const text = JSON.stringify({
    mcpServers: {
      a: { command: "x", env: { T: "${TOKEN}" } },
      b: { command: "y", disabled: true, env: { U: "${UNUSED}" } },
      c: { url: "https://example.com/mcp", headers: { A: "${REMOTE}" } },
    },
  });
  const entries = configEntries(parseConfig(text));
  const inputs = new Map<string, string>();
  assert.deepEqual(entries.map((e) => [...environmentOf(e, inputs, false)]), [["TOKEN"], [], []]);
  const resolved = resolveEntry(entries[0], {
    settings: validateSettings({}),
    requirements: new Map(),
    stderr: "discard",
    allowRemoteHttp: false,
    scope: { ...scopeFor("/x/.mcp.json"), env: () => DENIED },
    envFile: () => undefined,
  });
  assert.ok("blocked" in resolved);
});

Deno.test("variables: every form, defaults, and the most fundamental problem", () => {
  const scope: VariableScope = {
    env: (name) => ({ SET: "v", EMPTY: "" } as Record<string, string>)[name],
    input: (id) => id === "given" ? { env: "answer" } : undefined,
    workspaceFolder: "/repo",
    pathSeparator: "/",
  };
  const value = (text: string) => expand(text, scope);
  assert.deepEqual(value("a ${SET} ${env:SET} ${SET:-d}"), { value: "a v v v" });
  assert.deepEqual(value("${UNSET:-fallback} ${EMPTY:-e} ${EMPTY}"), { value: "fallback e " });
  assert.deepEqual(value("${workspaceFolder}${/}x ${workspaceFolderBasename}"), {
    value: "/repo/x repo",
  });
  assert.deepEqual(value("${input:given}"), { value: "answer" });
  assert.deepEqual(value("no variables, $SET, ${unterminated"), {
    value: "no variables, $SET, ${unterminated",
  });
  assert.deepEqual(value("${UNSET}"), { problem: "unset-variable" });
  assert.deepEqual(value("${input:other} ${UNSET}"), { problem: "unresolved-input" });
  assert.deepEqual(value("${UNSET} ${config:editor.x}"), { problem: "unsupported-variable" });
  assert.deepEqual(value("${env:not a name}"), { problem: "unsupported-variable" });
});

Deno.test("keys: invalid labels get a derived label, earlier duplicates are entry-N, none dropped", () => {
  const text = `{"mcpServers": {"a": {"command": "x"}, "has space": {"command": "y"},
    "a": {"command": "z"}, "entry-2": {"command": "w"}, "1": {"command": "v"}}}`;
  const entries = configEntries(parseConfig(text));
  assert.deepEqual(entries.map((e) => [e.name, "reason" in e.spec ? e.spec.reason : "ok"]), [
    ["entry-1", "invalid-name"],
    ["has_space", "ok"],
    ["a", "ok"],
    ["entry-2", "ok"],
    ["1", "ok"],
  ]);
});

Deno.test("entries that break a rule name the field, through the shared validator", () => {
  const text = JSON.stringify({
    mcpServers: {
      args: { command: "x", args: ["ok", 3] },
      env: { command: "x", env: { A: 1 } },
      url: { url: "ftp://127.0.0.1/mcp" },
      creds: { url: "http://user:pw@127.0.0.1/mcp" },
      header: { url: "http://127.0.0.1/mcp", headers: { "Mcp-Session-Id": "x" } },
      nothing: { args: ["x"] },
      type: { type: "websocket", url: "ws://127.0.0.1" },
      notobject: "npx server",
    },
  });
  const settings = validateSettings({});
  const reasons = configEntries(parseConfig(text)).map((entry) => {
    const resolved = resolveEntry(entry, {
      settings,
      requirements: new Map(),
      stderr: "discard",
      allowRemoteHttp: false,
      scope: scopeFor("/x/.mcp.json"),
      envFile: () => undefined,
    });
    return "notChecked" in resolved
      ? `${resolved.notChecked.reason} ${resolved.notChecked.field ?? ""}`.trim()
      : "checked";
  });
  assert.deepEqual(reasons, [
    "invalid-entry args",
    "invalid-entry env",
    "invalid-entry url",
    "invalid-entry url",
    "invalid-entry headers",
    "invalid-entry command",
    "unsupported-entry",
    "invalid-entry entry",
  ]);
});

Deno.test("files that are not configs: a fixed message with a line and column, no content", () => {
  const cases: [string, RegExp][] = [
    [
      '{"mcpServers": {"a": }',
      /^The config file is not valid JSON: ValueExpected at line 1, column 22$/,
    ],
    [
      "[mcp_servers.a\ncommand = 'x'",
      /^The config file is neither a JSON object nor valid TOML: TOML error at line 1/,
    ],
    ['{"other": {}}', /^The config file lists no MCP servers/],
    ['{"mcpServers": {}, "servers": {}}', /more than one table of servers \(mcpServers, servers\)/],
    ['{"mcpServers": []}', /^The config file's mcpServers is not an object$/],
    ["model = 'x'", /^The config file lists no MCP servers/],
  ];
  for (const [text, expected] of cases) {
    assert.throws(() => parseConfig(text), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, expected);
      return true;
    });
  }
});
