/**
 * Nothing from a config file reaches any output but keys that are valid labels: a secret
 * planted in every field of every format (keys, commands, args, env names and values, env
 * files, folders, URLs, headers, inputs, types) appears in no output of any format.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FORMATS } from "../src/report/formats/mod.ts";
import { configFile, DENO, type Fleet, hostile, mcpeval, tempDir } from "./_cli.ts";

const SECRET = "CANARY-cfg-91c2-secret";
const VARIABLE = "CANARY_CFG_91C2_SECRET";
const SERVER = hostile("default");

/** Entries with the secret in every field a JSON format has; `[key, entry]`. */
function jsonEntries(shape: "mcpServers" | "servers" | "context_servers"): Record<string, unknown> {
  const url = `http://127.0.0.1:1/${SECRET}?token=${SECRET}`;
  return {
    [`${SECRET} key`]: { command: SECRET, args: [SECRET] },
    // (A key that is a valid label is the report's server name: it is shown by design.)
    [`${SECRET}/key`]: { command: SECRET },
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

[mcp_servers.${toml(`${SECRET} key`)}]
command = ${toml(SECRET)}

[mcp_servers.runs]
command = ${toml(SERVER[0])}
args = [${[...SERVER.slice(1), SECRET].map(toml).join(", ")}]
env = { ${toml(SECRET)} = ${toml(SECRET)} }
env_vars = [${toml(SECRET)}]

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

const FILES: [string, string, string][] = [
  ["mcpServers", ".json", JSON.stringify({ mcpServers: jsonEntries("mcpServers") }, null, 2)],
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
  "entry-1: invalid-name",
  "entry-2: invalid-name",
  "runs: complete",
  "bad-cwd: spawn-failed",
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
  context_servers: [
    ...JSON_OUTCOMES,
    "zed-legacy: spawn-failed",
    "zed-extension: unsupported-entry",
  ],
  mcp_servers: [
    "entry-1: invalid-name",
    "runs: complete",
    "no-command: spawn-failed",
    "http-local: transport-lost",
    "http-remote: remote-http-not-allowed",
    "unset: unset-variable",
    "bad-headers: invalid-entry headers",
    "disabled: disabled",
  ],
};

// Anything below 0x20 but the newline, and DEL.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

for (const [format, suffix, text] of FILES) {
  Deno.test(`config canary: ${format}: no field of the file reaches any output`, async () => {
    await using config = await configFile(text, suffix);
    await using temp = await tempDir();
    const files = FORMATS.map((name) => [name, join(temp.path, `report.${name}`)]);
    for (const stdoutFormat of ["text", "json"]) {
      const result = await mcpeval(
        [
          "guidance",
          "--config",
          config.path,
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
