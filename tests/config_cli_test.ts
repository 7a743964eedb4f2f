/**
 * `--config` on the command line, in-process: invalid invocations exit 2 with one line that
 * names the option and never a value, and every permission is asked for in one line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { run } from "../src/cli/run.ts";
import { ROOT } from "./_cli.ts";
import { testContext } from "./_context.ts";

const SECRET = "s3cr3t-value";
const CONFIG = JSON.stringify({
  mcpServers: {
    alpha: { command: "alpha-server", env: { TOKEN: "${ALPHA_TOKEN}" } },
    beta: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer ${BETA}" } },
    gamma: { command: "${GAMMA_BIN}", args: [SECRET] },
    off: { command: SECRET, disabled: true },
  },
});

/** A context that reads CONFIG for any path and grants `granted` (all when omitted). */
function configContext(granted?: (descriptor: Deno.PermissionDescriptor) => boolean) {
  return testContext({
    readTextFile: () => Promise.resolve(CONFIG),
    env: (name) => ({ ALPHA_TOKEN: SECRET, BETA: SECRET, GAMMA_BIN: `/opt/${SECRET}` })[name],
    permission: (descriptor) =>
      Promise.resolve(granted?.(descriptor) ?? true ? "granted" : "denied"),
  });
}

const INVALID: [string, string[], string][] = [
  ["--config with --url", ["--url", "http://127.0.0.1:1/mcp"], "Give either --config or --url"],
  ["--config with a command", ["--", "server"], "Give either --config or a server command"],
  ["--config with --header", ["--header", "A=B"], "--header applies only to --url targets"],
  [
    "a bare --require-tool",
    ["--require-tool", "search"],
    "--require-tool must be SERVER:TOOL in a config run",
  ],
  [
    // A key need not be a label; one that names no entry is not shown.
    "--require-tool with a server the file does not list",
    ["--require-tool", `a b:${SECRET}`],
    "--require-tool names server, which the config file does not list",
  ],
  [
    "--require-tool with a bad tool",
    ["--require-tool", `alpha:${SECRET} x`],
    "--require-tool TOOL must be",
  ],
  [
    "--require-tool for an unselected server",
    ["--server", "alpha", "--require-tool", "beta:x"],
    "--require-tool names server beta, which no --server selects",
  ],
  [
    "--require-tool for an unknown server",
    ["--require-tool", "delta:x"],
    "--require-tool names server delta, which the config file does not list",
  ],
  ["--jobs 0", ["--jobs", "0"], "--jobs must be an integer from 1 to 64"],
  ["--jobs 65", ["--jobs", "65"], "--jobs must be an integer from 1 to 64"],
  ["--jobs not a number", ["--jobs", SECRET], "--jobs must be an integer"],
  ["--input without '='", ["--input", SECRET], "--input must be ID=ENV_VAR"],
  ["--input twice", ["--input", "a=B", "--input", "a=C"], "--input gives input a twice"],
  [
    "--input for no input",
    ["--input", "other=B"],
    "--input other answers no input of the config file",
  ],
  [
    "--server with a key the file does not list",
    ["--server", `a ${SECRET}`],
    "--server names no server of the config file",
  ],
  [
    "--server with a control character",
    ["--server", `a\u0007${SECRET}`],
    "--server holds a line break",
  ],
  [
    "--server naming no entry",
    ["--server", "delta"],
    "--server delta names no server of the config file",
  ],
  ["--profile unknown", ["--profile", "root"], "--profile must be one of"],
  [
    "--settle-ms out of range",
    ["--settle-ms", "5001"],
    "--settle-ms must be an integer from 0 to 5000",
  ],
];

for (const [name, argv, expected] of INVALID) {
  Deno.test(`--config invalid invocation exits 2: ${name}`, async () => {
    const ctx = configContext();
    const code = await run(["guidance", "--config", "mcp.json", ...argv], ctx);
    assert.equal(code, 2, ctx.err());
    assert.equal(ctx.out(), "");
    assert.match(ctx.err(), /^mcpeval: [^\n]+\n$/);
    assert.ok(ctx.err().includes(expected), `${ctx.err()} should contain ${expected}`);
    assert.ok(!ctx.err().includes(SECRET), "no value from the command line or the file");
    assert.deepEqual(ctx.opened, []);
  });
}

Deno.test("--jobs and --input apply only with --config", async () => {
  for (const option of ["--jobs=2", "--input=a=B"]) {
    const ctx = configContext();
    assert.equal(await run(["guidance", "--server", "s", option, "--", "x"], ctx), 2);
    assert.match(ctx.err(), /^mcpeval: --(jobs|input) applies only with --config\n$/);
  }
});

Deno.test("--config: without read access, only that is asked for (with the report files)", async () => {
  const ctx = configContext((d) => d.name !== "read" && d.name !== "write");
  const code = await run(
    ["guidance", "--config", ".mcp.json", "--output", "json=out/r.json"],
    ctx,
  );
  assert.equal(code, 2);
  assert.equal(
    ctx.err(),
    "mcpeval: Permission to read the config file and write a report file is missing: add --allow-read=.mcp.json --allow-write=out/r.json\n",
  );
});

Deno.test("--config: every other permission in one line; values from variables are not shown", async () => {
  const ctx = configContext((d) => d.name === "read");
  assert.equal(await run(["guidance", "--config", ".mcp.json"], ctx), 2);
  assert.equal(
    ctx.err(),
    "mcpeval: Permission to read environment variables is missing: add --allow-env=ALPHA_TOKEN,BETA,GAMMA_BIN\n",
  );
  const withEnv = configContext((d) => d.name === "read" || d.name === "env");
  assert.equal(await run(["guidance", "--config", ".mcp.json"], withEnv), 2);
  assert.equal(
    withEnv.err(),
    "mcpeval: Permission to run the server command and reach the server is missing: add --allow-run=alpha-server (and a value that cannot be shown) --allow-net=127.0.0.1:3001\n",
  );
  assert.ok(!withEnv.err().includes(SECRET));
});

Deno.test("--config: a file that cannot be read or parsed exits 2 without its content", async () => {
  const missing = testContext();
  assert.equal(await run(["guidance", "--config", "nope.json"], missing), 2);
  assert.equal(missing.err(), "mcpeval: Cannot read the config file (it does not exist)\n");
  const broken = testContext({ readTextFile: () => Promise.resolve(`{"mcpServers": ${SECRET}}`) });
  assert.equal(await run(["guidance", "--config", "x.json"], broken), 2);
  assert.match(
    broken.err(),
    /^mcpeval: The config file is not valid JSON: [A-Za-z]+ at line 1, column \d+\n$/,
  );
  assert.ok(!broken.err().includes(SECRET));
});

Deno.test("--config: a real fixture file, read through the process context", async () => {
  const { processContext } = await import("../src/cli/process.ts");
  let [out, err] = ["", ""];
  const context = {
    ...processContext(),
    stdout: (text: string) => Promise.resolve(void (out += text)),
    stderr: (text: string) => Promise.resolve(void (err += text)),
  };
  const file = join(ROOT, "fixtures", "configs", "claude_desktop_config.json");
  const code = await run(["guidance", "--config", file, "--server", "postgres"], {
    ...context,
    permission: (d) =>
      Promise.resolve(d.name === "read" || d.name === "env" ? "granted" : "denied"),
    env: () => undefined,
  });
  assert.equal(code, 3, err);
  assert.match(out, /^ {2}postgres +- +- +- +- +- +not checked: unset-variable \(needs\s+\w+\)$/m);
});
