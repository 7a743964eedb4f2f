/**
 * Nothing from a config file reaches any output but keys that are valid labels: a secret
 * planted in every field of every format (keys, commands, args, env names and values, env
 * files, folders, URLs, headers, inputs, types) appears in no output of any format.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { FORMATS } from "../src/report/formats/mod.ts";
import { configFile, DENO, type Fleet, hostile, mcpeval, tempDir } from "./_cli.ts";

const SECRET = "CANARY-cfg-91c2-secret";
const VARIABLE = "CANARY_CFG_91C2_SECRET";
const SERVER = hostile("default");
/**
 * A key that is not a label is checked under a label derived from it (shown by design); the
 * key itself never is. This one has no character of the label alphabet, so nothing of it is.
 */
const KEY = "ĉäñ\u0007àřÿ§";

/** Entries with the secret in every field a JSON format has; `[key, entry]`. */
function jsonEntries(shape: "mcpServers" | "servers" | "context_servers"): Record<string, unknown> {
  const url = `http://127.0.0.1:1/${SECRET}?token=${SECRET}`;
  return {
    [`${KEY} key`]: { command: SECRET, args: [SECRET] },
    // (A key that is a valid label is the report's server name: it is shown by design.)
    [`${KEY}/key`]: { command: SECRET },
    runs: {
      ...(shape === "servers" ? { type: "stdio" } : {}),
      command: SERVER[0],
      args: [...SERVER.slice(1), SECRET],
      env: { [SECRET]: SECRET, TOKEN: `${SECRET}\${MCPEVAL_CANARY_VALUE}` },
    },
    "bad-cwd": { command: SERVER[0], args: SERVER.slice(1), cwd: `/nonexistent/${SECRET}` },
    "no-command": { command: `/nonexistent/${SECRET}`, args: [SECRET] },
    "http-local": {
      ...(shape === "context_servers" ? {} : { type: "http" }),
      url,
      headers: { [`X-${SECRET}`]: SECRET, Authorization: `Bearer ${SECRET}` },
    },
    "http-remote": { url: `https://${SECRET}.example.com/mcp` },
    legacy: { type: "sse", url },
    "unset-variable": { command: SECRET, env: { A: `\${${VARIABLE}}` } },
    "env-file": { command: SERVER[0], envFile: `/nonexistent/${SECRET}.env` },
    "bad-args": { command: SECRET, args: [SECRET, 1] },
    "bad-type": { type: SECRET, url },
    "bad-header": { url, headers: { [`${SECRET} x`]: SECRET } },
    "bad-variable": { command: `\${${SECRET}:x}` },
    input: { command: SECRET, env: { A: `\${input:${SECRET}}` } },
    disabled: { command: SECRET, args: [SECRET], disabled: true },
    ...(shape === "context_servers"
      ? {
        "zed-legacy": { command: { path: SECRET, args: [SECRET], env: { A: SECRET } } },
        "zed-extension": { source: "extension", settings: { token: SECRET } },
      }
      : {}),
  };
}

const toml = (value: string) => JSON.stringify(value);
const CODEX = `# ${SECRET}
model = ${toml(SECRET)}

[mcp_servers.${toml(`${KEY} key`)}]
command = ${toml(SECRET)}

[mcp_servers.runs]
command = ${toml(SERVER[0])}
args = [${[...SERVER.slice(1), SECRET].map(toml).join(", ")}]
env = { ${toml(SECRET)} = ${toml(SECRET)} }
env_vars = [${toml(SECRET)}]
enabled_tools = [${toml(SECRET)}]
disabled_tools = [${toml(SECRET)}]

[mcp_servers.bad-tools]
command = ${toml(SECRET)}
enabled_tools = ${toml(SECRET)}

[mcp_servers.no-command]
command = ${toml(`/nonexistent/${SECRET}`)}
cwd = ${toml(`/nonexistent/${SECRET}`)}

[mcp_servers.http-local]
url = ${toml(`http://127.0.0.1:1/${SECRET}`)}
http_headers = { ${toml(`X-${SECRET}`)} = ${toml(SECRET)} }
env_http_headers = { "X-Key" = "MCPEVAL_CANARY_VALUE" }
bearer_token_env_var = "MCPEVAL_CANARY_VALUE"

[mcp_servers.http-remote]
url = ${toml(`https://${SECRET}.example.com/mcp`)}
bearer_token_env_var = ${toml(VARIABLE)}

[mcp_servers.unset]
url = "http://127.0.0.1:1/mcp"
bearer_token_env_var = ${toml(VARIABLE)}

[mcp_servers.bad-headers]
url = "http://127.0.0.1:1/mcp"
env_http_headers = { "X-Key" = ${toml(SECRET)} }

[mcp_servers.disabled]
command = ${toml(SECRET)}
enabled = false
`;

const url = `http://127.0.0.1:1/${SECRET}?token=${SECRET}`;
const headers = { [`X-${SECRET}`]: SECRET, Authorization: `Bearer ${SECRET}` };
const runs = { command: SERVER[0], args: [...SERVER.slice(1), SECRET] };
const yaml = (value: unknown) => JSON.stringify(value);

/** Gemini CLI: httpUrl, url (legacy SSE), $VAR, includeTools, excludeTools, trust, timeout. */
const GEMINI = {
  theme: SECRET,
  mcpServers: {
    [`${KEY} key`]: { command: SECRET, args: [SECRET], trust: true },
    runs: {
      ...runs,
      env: { [SECRET]: SECRET, TOKEN: `${SECRET}$MCPEVAL_CANARY_VALUE` },
      includeTools: [SECRET, `${SECRET}(x)`],
      excludeTools: [SECRET],
      timeout: 1000,
    },
    "http-local": { httpUrl: url, headers },
    "bad-cwd": { ...runs, cwd: `/nonexistent/${SECRET}` },
    legacy: { url },
    "unset-variable": { command: SECRET, env: { A: `$${VARIABLE}` } },
    "bad-tools": { command: SECRET, excludeTools: [SECRET, 1] },
  },
};

/** opencode: $schema, mcp, type local/remote, command arrays, environment, {env:}, {file:}. */
const OPENCODE = `// ${SECRET}
${
  JSON.stringify({
    $schema: "https://opencode.ai/config.json",
    mcp: {
      [`${KEY} key`]: { type: "local", command: [SECRET, SECRET] },
      runs: {
        type: "local",
        command: [...SERVER, SECRET],
        environment: { [SECRET]: SECRET, T: "{env:MCPEVAL_CANARY_VALUE}" },
        enabled: true,
      },
      "http-local": { type: "remote", url, headers },
      "http-remote": { type: "remote", url: `https://${SECRET}.example.com/mcp` },
      "unset-variable": {
        type: "local",
        command: [SECRET],
        environment: { A: `{env:${VARIABLE}}` },
      },
      "file-variable": {
        type: "local",
        command: [SECRET],
        environment: { A: `{file:/${SECRET}}` },
      },
      "bad-type": { type: SECRET, url },
      "bad-command": { type: "local", command: SECRET },
      disabled: { type: "local", command: [SECRET], enabled: false },
    },
  })
}`;

/** opencode's newer layout: mcp.servers, disabled, cwd. */
const OPENCODE_SERVERS = {
  $schema: `https://opencode.ai/config.json#${SECRET}`,
  mcp: {
    servers: {
      [`${KEY} key`]: { type: "local", command: [SECRET] },
      runs: { type: "local", command: [...SERVER, SECRET] },
      "bad-cwd": { type: "local", command: SERVER, cwd: `/nonexistent/${SECRET}` },
      disabled: { type: "local", command: [SECRET], disabled: true },
    },
  },
};

/** Continue: a YAML list with names, types, requestOptions headers, anchors, secrets templates. */
const CONTINUE = `# ${SECRET}
name: ${yaml(SECRET)}
version: 0.0.1
schema: v1
defaults: &defaults
  env:
    ${yaml(SECRET)}: ${yaml(SECRET)}
mcpServers:
  - name: ${yaml(`${KEY} key`)}
    command: ${yaml(SECRET)}
    args: [${yaml(SECRET)}]
  - name: runs
    <<: *defaults
    command: ${yaml(SERVER[0])}
    args: ${yaml([...SERVER.slice(1), SECRET])}
  - name: http-local
    type: streamable-http
    url: ${yaml(url)}
    requestOptions:
      headers: ${yaml(headers)}
  - name: legacy
    type: sse
    url: ${yaml(url)}
  - name: bad-cwd
    command: ${yaml(SERVER[0])}
    cwd: ${yaml(`/nonexistent/${SECRET}`)}
  - name: secret-template
    command: ${yaml(SECRET)}
    env: { A: "\${{ secrets.${SECRET} }}" }
  - name: bad-args
    command: ${yaml(SECRET)}
    args: [${yaml(SECRET)}, 1]
  - command: ${yaml(SECRET)}
`;

/** Goose: extensions with cmd, envs, env_keys, uri, builtin, enabled, name, description. */
const GOOSE = `GOOSE_PROVIDER: ${yaml(SECRET)}
extensions:
  ${yaml(`${KEY} key`)}: { type: stdio, cmd: ${yaml(SECRET)}, args: [${
  yaml(SECRET)
}], enabled: true }
  runs:
    type: stdio
    name: ${yaml(SECRET)}
    description: ${yaml(SECRET)}
    cmd: ${yaml(SERVER[0])}
    args: ${yaml([...SERVER.slice(1), SECRET])}
    envs: { ${yaml(SECRET)}: ${yaml(SECRET)} }
    env_keys: [MCPEVAL_CANARY_VALUE]
    enabled: true
    timeout: 300
  http-local: { type: streamable_http, uri: ${yaml(url)}, headers: ${yaml(headers)}, enabled: true }
  legacy: { type: sse, uri: ${yaml(url)}, enabled: true }
  developer: { type: builtin, name: ${yaml(SECRET)}, bundled: true, enabled: true }
  unset-variable: { type: stdio, cmd: ${yaml(SECRET)}, env_keys: [${VARIABLE}] }
  bad-keys: { type: stdio, cmd: ${yaml(SECRET)}, env_keys: [${yaml(`${SECRET} x`)}] }
  disabled: { type: stdio, cmd: ${yaml(SECRET)}, enabled: false }
`;

/** Kiro and Roo Code: disabled, disabledTools, autoApprove, alwaysAllow. */
const KIRO = {
  mcpServers: {
    [`${KEY} key`]: { command: SECRET },
    runs: { ...runs, disabledTools: [SECRET], autoApprove: [SECRET], alwaysAllow: [SECRET] },
    "bad-tools": { command: SECRET, disabledTools: SECRET },
    disabled: { command: SECRET, disabled: true, disabledTools: [SECRET] },
    "http-local": { url, headers },
  },
};

/** Claude Code's user file: user servers, projects' servers, the project chosen by path. */
const PROJECT = `/nonexistent/${SECRET}`;
const CLAUDE_USER = {
  numStartups: 1,
  mcpServers: { [`${KEY} key`]: { command: SECRET } },
  projects: {
    [PROJECT]: {
      allowedTools: [SECRET],
      mcpServers: {
        runs: { type: "stdio", ...runs },
        "http-local": { type: "http", url, headers },
      },
    },
    [`/other/${SECRET}`]: { mcpServers: { other: { command: SECRET } } },
  },
};

const FILES: [string, string, string, string[]?][] = [
  ["mcpServers", ".json", JSON.stringify({ mcpServers: jsonEntries("mcpServers") }, null, 2)],
  ["mcp.servers", ".json", JSON.stringify({ "mcp.servers": jsonEntries("servers") })],
  // Gemini CLI's by its place: a settings.json in a .gemini folder.
  ["gemini", "/.gemini/settings.json", JSON.stringify(GEMINI)],
  ["opencode", ".jsonc", OPENCODE],
  ["opencode-servers", ".json", JSON.stringify(OPENCODE_SERVERS)],
  ["continue", ".yaml", CONTINUE],
  ["goose", ".yaml", GOOSE],
  ["kiro", ".json", JSON.stringify(KIRO)],
  ["claude-user", ".json", JSON.stringify(CLAUDE_USER), ["--config-project", PROJECT]],
  [
    "servers",
    ".json",
    `// ${SECRET}\n${
      JSON.stringify({
        inputs: [{ type: "promptString", id: SECRET, description: SECRET, password: true }],
        servers: jsonEntries("servers"),
      })
    }`,
  ],
  [
    "context_servers",
    ".json",
    `/* ${SECRET} */ ${
      JSON.stringify({ theme: SECRET, context_servers: jsonEntries("context_servers") })
    }`,
  ],
  ["mcp_servers", ".toml", CODEX],
];

/** What becomes of each entry: every reason a configured server can be listed with. */
const JSON_OUTCOMES = [
  "key: spawn-failed",
  "key-2: spawn-failed",
  "runs: complete",
  "bad-cwd: cwd-not-found",
  "no-command: spawn-failed",
  "http-local: transport-lost",
  "http-remote: remote-http-not-allowed",
  "legacy: legacy-sse",
  "unset-variable: unset-variable",
  "env-file: env-file-unreadable",
  "bad-args: invalid-entry args",
  "bad-type: unsupported-entry",
  "bad-header: invalid-entry headers",
  "bad-variable: unsupported-variable",
  "input: unresolved-input",
  "disabled: disabled",
];
const OUTCOMES: Record<string, string[]> = {
  mcpServers: JSON_OUTCOMES,
  servers: JSON_OUTCOMES,
  "mcp.servers": JSON_OUTCOMES,
  gemini: [
    "key: spawn-failed",
    "runs: complete",
    "http-local: transport-lost",
    "bad-cwd: cwd-not-found",
    "legacy: legacy-sse",
    "unset-variable: unset-variable",
    "bad-tools: invalid-entry tools",
  ],
  opencode: [
    "key: spawn-failed",
    "runs: complete",
    "http-local: transport-lost",
    "http-remote: remote-http-not-allowed",
    "unset-variable: unset-variable",
    "file-variable: unsupported-variable",
    "bad-type: unsupported-entry",
    "bad-command: invalid-entry command",
    "disabled: disabled",
  ],
  "opencode-servers": [
    "key: spawn-failed",
    "runs: complete",
    "bad-cwd: cwd-not-found",
    "disabled: disabled",
  ],
  continue: [
    "key: spawn-failed",
    "runs: complete",
    "http-local: transport-lost",
    "legacy: legacy-sse",
    "bad-cwd: cwd-not-found",
    "secret-template: unsupported-variable",
    "bad-args: invalid-entry args",
    "server: spawn-failed",
  ],
  goose: [
    "key: spawn-failed",
    "runs: complete",
    "http-local: transport-lost",
    "legacy: legacy-sse",
    "developer: unsupported-entry",
    "unset-variable: unset-variable",
    "bad-keys: invalid-entry env",
    "disabled: disabled",
  ],
  kiro: [
    "key: spawn-failed",
    "runs: complete",
    "bad-tools: invalid-entry tools",
    "disabled: disabled",
    "http-local: transport-lost",
  ],
  "claude-user": ["key: spawn-failed", "runs: complete", "http-local: transport-lost"],
  context_servers: [
    ...JSON_OUTCOMES,
    "zed-legacy: spawn-failed",
    "zed-extension: unsupported-entry",
  ],
  mcp_servers: [
    "key: spawn-failed",
    "runs: complete",
    "bad-tools: invalid-entry tools",
    // Its folder is missing too: the first thing that stops it.
    "no-command: cwd-not-found",
    "http-local: transport-lost",
    "http-remote: remote-http-not-allowed",
    "unset: unset-variable",
    "bad-headers: invalid-entry headers",
    "disabled: disabled",
  ],
};

/** `text` written at `place` inside `folder` (removed with the folder). */
async function placedFile(folder: string, place: string, text: string) {
  const path = join(folder, place);
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
  return { path, [Symbol.asyncDispose]: () => Promise.resolve() };
}

// Anything below 0x20 but the newline, and DEL.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

for (const [format, suffix, text, extra = []] of FILES) {
  Deno.test(`config canary: ${format}: no field of the file reaches any output`, async () => {
    await using temp = await tempDir();
    await using config = suffix.startsWith("/")
      ? await placedFile(temp.path, suffix, text)
      : await configFile(text, suffix);
    const files = FORMATS.map((name) => [name, join(temp.path, `report.${name}`)]);
    for (const stdoutFormat of ["text", "json"]) {
      const result = await mcpeval(
        [
          "guidance",
          "--config",
          config.path,
          ...extra,
          "--format",
          stdoutFormat,
          ...files.map(([name, path]) => `--output=${name}=${path}`),
          "--profile",
          "none",
          "--settle-ms",
          "0",
          "--timeout-ms",
          "2000",
        ],
        {
          permissions: [
            "--allow-read",
            "--allow-env",
            "--allow-run",
            "--allow-net=127.0.0.1",
            `--allow-write=${temp.path}`,
          ],
          env: { MCPEVAL_CANARY_VALUE: SECRET },
        },
      );
      assert.ok([2, 3].includes(result.code), `${format}: exit ${result.code} ${result.stderr}`);
      const outputs = [
        ["stdout", result.stdout],
        ["stderr", result.stderr],
        ...(result.code === 3
          ? files.map(([name, path]) => [name, Deno.readTextFileSync(path)])
          : []),
      ];
      for (const [where, output] of outputs) {
        assert.ok(!output.includes("91c2"), `${format}: the secret reached ${where}`);
        assert.ok(!/[ĉäñàřÿ§]/.test(output), `${format}: a key reached ${where}`);
        assert.ok(!output.includes("example.com"), `${format}: a URL reached ${where}`);
        assert.ok(!output.includes("127.0.0.1:1"), `${format}: a URL reached ${where}`);
        assert.ok(!output.includes(DENO), `${format}: a command reached ${where}`);
        assert.ok(!CONTROL.test(output), `${format}: a control character reached ${where}`);
      }
      assert.equal(result.code, 3, `${format}: ${result.stderr}`);
      if (stdoutFormat === "json") {
        const fleet = JSON.parse(result.stdout) as Fleet;
        const outcomes = fleet.servers.map((s) =>
          s.checked
            ? `${s.name}: ${
              s.report.complete ? "complete" : s.report.profiles[0].incomplete?.reason
            }`
            : `${s.name}: ${s.reason}${s.field ? ` ${s.field}` : ""}`
        );
        assert.deepEqual(outcomes, OUTCOMES[format]);
      }
    }
  });
}
