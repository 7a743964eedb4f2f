/**
 * The config format registry in-process: which module reads which document, derived labels,
 * selection by key or label, and the pure tool-filter rule with the finding it yields.
 */
import assert from "node:assert/strict";
import { analyze } from "../src/analysis/findings.ts";
import { filteredTools, wildcardMatches } from "../src/analysis/tool_filters.ts";
import { configEntries, derivedLabel, selectEntries } from "../src/config/entries.ts";
import { ConfigError, parseConfig, readConfig } from "../src/config/parse.ts";
import { isNotChecked } from "../src/config/spec.ts";
import { EXPECTED_TABLES, FORMAT_MODULES } from "../src/config/formats/registry.ts";

/** The format and each entry's name and kind (or reason) of a config text. */
async function read(text: string, path = "", project?: string) {
  const parsed = await readConfig(text, {
    path,
    cwd: "/work",
    ...(project === undefined ? {} : { project }),
  });
  return [
    parsed.format,
    ...configEntries(parsed).map((e) =>
      `${e.name} ${isNotChecked(e.spec) ? e.spec.reason : e.spec.kind}`
    ),
  ];
}

Deno.test("detection: the module that claims the file, else the one whose table it has", async () => {
  const cases: Record<string, [text: string, path: string, expected: string[]]> = {
    // A Gemini CLI field alone does not make a file Gemini's: the shared shape takes httpUrl.
    "httpUrl in the shared shape": [
      '{"mcpServers": {"a": {"httpUrl": "http://127.0.0.1/mcp"}, "b": {"url": "http://127.0.0.1/sse"}}}',
      "x.json",
      ["mcpServers", "a streamable-http", "b streamable-http"],
    ],
    // Gemini CLI by its folder: url is the legacy SSE transport.
    "Gemini CLI by its folder": [
      '{"mcpServers": {"b": {"url": "http://127.0.0.1/sse"}}}',
      "/p/.gemini/settings.json",
      ["mcpServers", "b legacy-sse"],
    ],
    // Elsewhere url is Streamable HTTP.
    "url elsewhere": [
      '{"mcpServers": {"b": {"url": "http://127.0.0.1/mcp"}}}',
      "/p/.cursor/mcp.json",
      [
        "mcpServers",
        "b streamable-http",
      ],
    ],
    // VS Code settings.json: the flat dotted key and the nested object.
    "VS Code's dotted key": ['{"mcp.servers": {"a": {"command": "x"}}}', "settings.json", [
      "servers",
      "a stdio",
    ]],
    "VS Code's nested object": ['{"mcp": {"servers": {"a": {"command": "x"}}}}', "settings.json", [
      "servers",
      "a stdio",
    ]],
    // opencode, both layouts; its $schema tells it from VS Code's nested mcp.servers.
    "opencode's mcp": ['{"mcp": {"a": {"type": "local", "command": ["x", "y"]}}}', "", [
      "mcp",
      "a stdio",
    ]],
    "opencode's mcp.servers": [
      '{"$schema": "https://opencode.ai/config.json", "mcp": {"servers": {"a": {"type": "remote", "url": "http://127.0.0.1/mcp", "disabled": true}}}}',
      "",
      ["mcp", "a disabled"],
    ],
    // Kiro by disabledTools; Claude Code's user file by its projects.
    "Kiro by disabledTools": [
      '{"mcpServers": {"a": {"command": "x", "disabledTools": ["t"]}}}',
      "",
      [
        "mcpServers",
        "a stdio",
      ],
    ],
    "Claude Code's user file by its projects": [
      '{"mcpServers": {"u": {"command": "x"}}, "projects": {"/work/app": {"mcpServers": {"u": {"url": "http://127.0.0.1/mcp"}}}}}',
      "",
      ["mcpServers", "u stdio"],
    ],
    // YAML: Continue's list and Goose's extensions, told apart by their tables.
    "Continue's YAML list": ["mcpServers:\n  - name: a b\n    command: x\n", "c.yaml", [
      "mcpServers",
      "a_b stdio",
    ]],
    "Goose's extensions": [
      "extensions:\n  dev: {type: builtin}\n  a: {type: stdio, cmd: x}\n",
      "config.yaml",
      ["extensions", "dev unsupported-entry", "a stdio"],
    ],
    // A YAML file without a .yaml name is read as YAML when it is not TOML.
    "YAML without a .yaml name": [
      "extensions:\n  a:\n    type: sse\n    uri: http://127.0.0.1/sse\n",
      "config",
      ["extensions", "a legacy-sse"],
    ],
  };
  for (const [name, [text, path, expected]] of Object.entries(cases)) {
    assert.deepEqual(await read(text, path), expected, name);
  }
  // A project's entry replaces the user entry of the same name (it is not a repeated key).
  const [userFile] = cases["Claude Code's user file by its projects"];
  assert.deepEqual(await read(userFile, "", "/work/app"), ["mcpServers", "u streamable-http"]);
  // A relative project path is resolved against the folder mcpeval runs in.
  assert.deepEqual(await read(userFile, "", "app"), ["mcpServers", "u streamable-http"]);
});

Deno.test("a file with no table is told every module's expected table, in the table's order", async () => {
  // A module told apart by its table alone must say which table it expects.
  const silent = FORMAT_MODULES.filter((module) => !module.claims && !module.expected);
  assert.deepEqual(silent.map((module) => module.clients), []);
  const expected = FORMAT_MODULES.flatMap((module) => module.expected ?? []);
  assert.equal(EXPECTED_TABLES, `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}`);
  await assert.rejects(
    () => readConfig('{"other": {}}', { path: "x.json" }),
    new ConfigError(`The config file lists no MCP servers: expected ${EXPECTED_TABLES}`),
  );
});

Deno.test("parseConfig without a YAML parser asks for one; readConfig loads it", async () => {
  assert.throws(() => parseConfig("mcpServers: []\n", { path: "a.yaml" }), /YAML parser/);
  await assert.rejects(() => readConfig("mcpServers: []\n", { path: "a.yaml" }), ConfigError);
});

Deno.test("derived labels: the label alphabet kept, the rest replaced, unique, at most 64", () => {
  assert.equal(derivedLabel("github.com/upstash/context7-mcp"), "github.com_upstash_context7-mcp");
  assert.equal(derivedLabel("io.windsurf/context7"), "io.windsurf_context7");
  assert.equal(derivedLabel("MSSQL TEST MCP"), "MSSQL_TEST_MCP");
  assert.equal(derivedLabel("サーバー"), "server");
  assert.equal(derivedLabel("_hidden"), "hidden");
  assert.equal(derivedLabel("x".repeat(80)), "x".repeat(64));
  const long = "y".repeat(70);
  const text = JSON.stringify({
    mcpServers: {
      "a b": { command: "x" },
      a_b: { command: "x" },
      "a/b": { command: "x" },
      [`${long} 1`]: { command: "x" },
      [`${long} 2`]: { command: "x" },
      "": { command: "x" },
    },
  });
  const names = configEntries(parseConfig(text)).map((e) => e.name);
  assert.deepEqual(names, [
    "a_b-2",
    "a_b",
    "a_b-3",
    "y".repeat(64),
    `${"y".repeat(62)}-2`,
    "server",
  ]);
  assert.ok(names.every((name) => name.length <= 64));
});

Deno.test("selection: --server and --require-tool by key or by label", () => {
  const entries = configEntries(parseConfig(JSON.stringify({
    mcpServers: { "a b": { command: "x" }, c: { command: "y" } },
  })));
  const byKey = selectEntries(entries, ["a b"], new Map([["a b", ["t"]], ["a_b", ["s"]]]));
  assert.deepEqual(byKey.entries.map((e) => e.name), ["a_b"]);
  assert.deepEqual([...byKey.requirements], [["a_b", ["s", "t"]]]);
  assert.deepEqual(selectEntries(entries, undefined, new Map()).entries.length, 2);
  assert.throws(
    () => selectEntries(entries, ["no such key"], new Map()),
    /^SelectionError: --server names no server of the config file; it lists: a_b, c$/,
  );
  assert.throws(() => selectEntries(entries, ["d"], new Map()), /--server d names no server/);
  assert.throws(
    () => selectEntries(entries, ["a b"], new Map([["c", ["t"]]])),
    /^SelectionError: --require-tool names server c, which no --server selects$/,
  );
});

Deno.test("tool filters: Codex allow then deny, Gemini exclude wins and name( matches", () => {
  const tools = ["a", "b", "c"];
  const codex = [
    { rule: "enabled-tools", effect: "allow", names: ["a", "b"] },
    { rule: "disabled-tools", effect: "deny", names: ["b"] },
  ] as const;
  assert.deepEqual([...filteredTools(codex, tools)], [["b", "disabled-tools"], [
    "c",
    "enabled-tools",
  ]]);
  const gemini = [
    { rule: "exclude-tools", effect: "deny", names: ["a"] },
    { rule: "include-tools", effect: "allow", names: ["a", "b(x: string)"], callForm: true },
  ] as const;
  assert.deepEqual([...filteredTools(gemini, tools)], [["a", "exclude-tools"], [
    "c",
    "include-tools",
  ]]);
  // Without the call form, "b(x)" names no tool.
  assert.deepEqual(
    [...filteredTools([{ rule: "disabled-tools", effect: "deny", names: ["b(x)"] }], tools)],
    [],
  );
});

Deno.test("analysis: a filtered tool is not seen; named, it is tool-disabled-in-config; required, a defect", () => {
  const filtered = new Map([["b", "disabled-tools" as const]]);
  const profile = (name: "none" | "all") => ({
    profile: name,
    codeSpans: new Set(["a", "b"]),
    tools: ["a", "b"],
    filtered,
  });
  const { findings, passed } = analyze([profile("none"), profile("all")], ["b"]);
  assert.deepEqual(findings.map((f) => [f.kind, f.profile, f.tool, f.rule, f.availableIn]), [
    ["tool-disabled-in-config", "none", "b", "disabled-tools", []],
    ["tool-disabled-in-config", "all", "b", "disabled-tools", []],
    ["required-tool-unavailable", "none", "b", "disabled-tools", []],
    ["required-tool-unavailable", "all", "b", "disabled-tools", []],
  ]);
  assert.equal(passed, false);
});

Deno.test("opencode's tools wildcards: * any run, ? one character, the longest match decides", () => {
  const step = {
    rule: "tools",
    effect: "wildcard",
    patterns: [["gh_*", false], ["gh_get_?ssue", true], ["*", true], ["gh_get*", false]],
    prefix: "gh_",
  } as const;
  const tools = ["get_issue", "get_pr", "list", "x.y"];
  // gh_get_issue: gh_get_?ssue (12) beats gh_get* (7) and gh_* (4); gh_x_y: gh_* beats *.
  assert.deepEqual([...filteredTools([step], tools)], [
    ["get_pr", "tools"],
    ["list", "tools"],
    ["x.y", "tools"],
  ]);
  assert.deepEqual([...filteredTools([{ ...step, prefix: "other_" }], tools)], []);
  assert.equal(wildcardMatches("a*b?c", "a--b-c"), true);
  assert.equal(wildcardMatches("a*b?c", "abc"), false);
  assert.equal(wildcardMatches("**", "a/b"), true);
  assert.equal(wildcardMatches("a*", "a/b"), false);
});
