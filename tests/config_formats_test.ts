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
  // The filter is the defect's cause: its rule, never "missing" (issue 39).
  assert.deepEqual(findings(notes.defects, "required-tool-unavailable"), [
    "none read-note disabled-tools []",
    "all read-note disabled-tools []",
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
  assert.deepEqual(findings(notes.defects, "required-tool-unavailable"), [
    "all read-note exclude-tools []",
  ]);
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
    "--require-tool",
    "notes:read-note",
  );
  assert.deepEqual(findings(reportOf(fleet, "notes").candidates, "tool-disabled-in-config"), [
    "none read-note disabled-tools []",
  ]);
  assert.deepEqual(findings(reportOf(fleet, "notes").defects, "required-tool-unavailable"), [
    "none read-note disabled-tools []",
  ]);
});

Deno.test("a required tool the config file's filter hides: its own cause and hint, no suggestion, in every format", async () => {
  await using summary = await tempDir();
  const args = [
    "--server",
    "notes",
    "--profile",
    "none",
    "--profile",
    "all",
    "--require-tool",
    "notes:read-note",
    "--require-tool",
    "notes:read-notes",
  ];
  const filtered = "required tool read-note is listed but hidden by the config file's " +
    "disabled-tools filter in every profile";
  const hint = "A required tool is listed, but the config file's own tool filter hides it " +
    "from the model in every profile of this server; change the filter, or the --require-tool " +
    "declaration.";
  const { code, fleet } = await fleetOf("codex-filters.config.toml", ...args);
  assert.equal(code, 1);
  const defects = reportOf(fleet, "notes").defects as (Finding & { hint: string })[];
  assert.deepEqual(
    defects.map((d) => [d.profile, d.tool, d.rule, d.available_in, d.hint === hint]),
    [
      ["none", "read-note", "disabled-tools", [], true],
      ["none", "read-notes", undefined, [], false],
      ["all", "read-note", "disabled-tools", [], true],
      ["all", "read-notes", undefined, [], false],
    ],
  );
  const flat = (text: string) => text.replaceAll(/\s+/g, " ");
  const text = flat((await textOf("codex-filters.config.toml", ...args)).stdout);
  // One row per tool, read-note then read-notes: nothing after the filter (no suggestion).
  assert.ok(
    text.includes(
      "read-note listed in none, all but hidden by the config file's disabled-tools filter " +
        "read-notes missing from none, all",
    ),
    text,
  );
  assert.ok(text.includes(`hint: ${hint}`), text);
  // The tool that is missing keeps its suggestion; the hidden one has none.
  assert.ok(text.includes("listed in no selected profile; did you mean read-note?"), text);
  assert.ok(!text.includes("did you mean read-notes"), text);
  assert.match(text, /Defects: 4, for 2 required tools missing or hidden/);
  for (const format of ["github", "junit", "sarif"]) {
    const path = join(summary.path, `${format}.md`);
    const result = await mcpeval(
      [
        "guidance",
        "--config",
        join(CONFIGS, "codex-filters.config.toml"),
        "--format",
        format,
        ...args,
        ...FAST,
      ],
      {
        permissions: [...PERMISSIONS, `--allow-write=${path}`],
        env: { GITHUB_STEP_SUMMARY: path },
      },
    );
    assert.equal(result.code, 1, result.stderr);
    const output = flat(result.stdout).replaceAll("&apos;", "'");
    // The sentence ends at the filter (no suggestion), then its own hint.
    for (const profile of ["none", "all"]) {
      assert.ok(output.includes(`${profile}: ${filtered}. ${hint}`), `${format}: ${output}`);
    }
    if (format === "github") {
      const written = flat(await Deno.readTextFile(path));
      assert.ok(
        written.includes(
          "| none | `read-note` | no selected profile (hidden by the config file's disabled-tools filter) |",
        ),
        written,
      );
      assert.ok(written.includes(hint), written);
    }
  }
});

Deno.test("a baseline keeps the findings of a config file's filter: unchanged on the next run", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "baseline.json");
  const args = ["--server", "notes", "--profile", "none", "--require-tool", "notes:read-note"];
  const first = await mcpeval(
    [
      "guidance",
      "--config",
      join(CONFIGS, "codex-filters.config.toml"),
      ...args,
      ...FAST,
      "--output",
      `json=${path}`,
    ],
    { permissions: [...PERMISSIONS, `--allow-write=${path}`] },
  );
  assert.equal(first.code, 1, first.stderr);
  const { fleet } = await fleetOf("codex-filters.config.toml", ...args, "--baseline", path);
  const report = reportOf(fleet, "notes") as unknown as {
    candidates: (Finding & { baseline_state: string })[];
    defects: (Finding & { baseline_state: string })[];
  };
  // Before, a finding whose rule was a filter's was left out of the baseline: always "new".
  assert.deepEqual(
    [...report.candidates, ...report.defects]
      .filter((f) => f.rule === "disabled-tools")
      .map((f) => `${f.kind} ${f.baseline_state}`),
    ["tool-disabled-in-config unchanged", "required-tool-unavailable unchanged"],
  );
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

Deno.test("servers under two tables of one shape: exit 2 with one line, never one silently", async () => {
  await using temp = await tempDir();
  const server = { command: "deno", args: ["run", "fixtures/demo/server.ts"] };
  const local = { type: "local", command: ["deno", "run", "fixtures/demo/server.ts"] };
  const cases: [string, unknown, string][] = [
    // VS Code reads servers in .vscode/mcp.json and mcp in settings.json, never both.
    [
      "mcp.json",
      { servers: { a: server }, "mcp.servers": { b: server } },
      'servers, "mcp.servers"',
    ],
    [
      "settings.json",
      { servers: { a: server }, mcp: { servers: { b: server } } },
      [
        "servers",
        '"mcp": {"servers"}',
      ].join(", "),
    ],
    // One setting in settings.json: the later key replaces the earlier in VS Code.
    [
      "settings.json",
      { "mcp.servers": { a: server }, mcp: { servers: { b: server } } },
      [
        '"mcp.servers"',
        '"mcp": {"servers"}',
      ].join(", "),
    ],
    // opencode's two layouts at once: its schema reads mcp as one record of servers.
    ["opencode.json", { mcp: { servers: { a: local }, b: local } }, "mcp.servers, mcp"],
  ];
  for (const [name, document, tables] of cases) {
    const path = join(temp.path, name);
    await Deno.writeTextFile(path, JSON.stringify(document));
    const result = await mcpeval(["guidance", "--config", path, "--format", "json"], {
      permissions: [`--allow-read=${temp.path}`, `--allow-run=deno`],
    });
    assert.equal(
      result.stderr,
      `mcpeval: The config file has more than one table of servers (${tables}): keep one per file\n`,
      name,
    );
    assert.equal(result.code, 2, name);
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
