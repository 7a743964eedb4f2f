/** The command line contract: help, version, schema, and every invalid invocation exits 2. */
import assert from "node:assert/strict";
import { run } from "../src/cli/run.ts";
import { DENO, fixture, mcpeval, tempFile } from "./_cli.ts";
import { testContext } from "./_context.ts";
import { PROTOCOL_VERSIONS } from "../src/protocol/versions.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const SECRET = "s3cr3t-value";
const TARGET = ["--", ...fixture("demo/server.ts")];

/** Invalid invocations: [name, argv, text the one stderr line must contain]. */
const INVALID: [string, string[], string][] = [
  [
    "missing --server with --url",
    ["guidance", "--url", "http://127.0.0.1:1/mcp"],
    "--server is required with --url",
  ],
  ["--server without value", ["guidance", "--server"], "--server needs a value"],
  [
    "--server followed by an option",
    ["guidance", "--server", "--format", "json", ...TARGET],
    "--server needs a value",
  ],
  ["--server with a space", ["guidance", "--server", `a ${SECRET}`, ...TARGET], "--server must be"],
  ["--server too long", ["guidance", "--server", "a".repeat(65), ...TARGET], "--server must be"],
  ["--server starting with a dot", ["guidance", "--server", ".x", ...TARGET], "--server must be"],
  [
    "--server given twice",
    ["guidance", "--server", "a", "--server=b", ...TARGET],
    "--server may be given only once",
  ],
  [
    "unknown option",
    ["guidance", "--server", "a", "--frobnicate", ...TARGET],
    "Unknown option '--frobnicate'",
  ],
  [
    "unknown option with a value",
    ["guidance", "--server", "a", `--token=${SECRET}`, ...TARGET],
    "Unknown option '--token'",
  ],
  ["unknown short option", ["guidance", "--server", "a", "-x", ...TARGET], "Unknown option '-x'"],
  ["stray positional", ["guidance", "--server", "a", SECRET, ...TARGET], "Unexpected argument"],
  [
    "unknown format",
    ["guidance", "--server", "a", "--format", "yaml", ...TARGET],
    `--format must be one of: ${FORMATS.join(", ")}`,
  ],
  [
    "unknown profile",
    ["guidance", "--server", "a", "--profile", "root", ...TARGET],
    "--profile must be one of",
  ],
  [
    "empty profile",
    ["guidance", "--server", "a", "--profile=", ...TARGET],
    "--profile must be one of",
  ],
  ["--require-tool with a space", [
    "guidance",
    "--server",
    "a",
    "--require-tool",
    `x ${SECRET}`,
    ...TARGET,
  ], "--require-tool must be"],
  ["--require-tool of 129 characters", [
    "guidance",
    "--server",
    "a",
    "--require-tool",
    "t".repeat(129),
    ...TARGET,
  ], "--require-tool must be"],
  [
    "--settle-ms not a number",
    ["guidance", "--server", "a", "--settle-ms", "soon", ...TARGET],
    "--settle-ms must be an integer from 0 to 5000",
  ],
  [
    "--settle-ms past the limit",
    ["guidance", "--server", "a", "--settle-ms", "5001", ...TARGET],
    "--settle-ms must be an integer from 0 to 5000",
  ],
  [
    "--settle-ms negative",
    ["guidance", "--server", "a", "--settle-ms=-1", ...TARGET],
    "--settle-ms must be an integer",
  ],
  [
    "--settle-ms fractional",
    ["guidance", "--server", "a", "--settle-ms", "1.5", ...TARGET],
    "--settle-ms must be an integer",
  ],
  [
    "--timeout-ms under the limit",
    ["guidance", "--server", "a", "--timeout-ms", "99", ...TARGET],
    "--timeout-ms must be an integer from 100 to 300000",
  ],
  ["--timeout-ms past the limit", [
    "guidance",
    "--server",
    "a",
    "--timeout-ms",
    "300001",
    ...TARGET,
  ], "--timeout-ms must be an integer from 100 to 300000"],
  [
    "--concurrency 0",
    ["guidance", "--server", "a", "--concurrency", "0", ...TARGET],
    "--concurrency must be an integer from 1 to 5",
  ],
  [
    "--concurrency 6",
    ["guidance", "--server", "a", "--concurrency", "6", ...TARGET],
    "--concurrency must be an integer from 1 to 5",
  ],
  [
    "--concurrency in hex",
    ["guidance", "--server", "a", "--concurrency", "0x2", ...TARGET],
    "--concurrency must be an integer",
  ],
  ["no target", ["guidance", "--server", "a"], "A target is required"],
  ["empty command", ["guidance", "--server", "a", "--"], "The server command after '--' is empty"],
  [
    "both targets",
    ["guidance", "--server", "a", "--url", "http://127.0.0.1:1/mcp", ...TARGET],
    "not both",
  ],
  [
    "--server-stderr unknown",
    ["guidance", "--server", "a", "--server-stderr", "file", ...TARGET],
    "--server-stderr must be one of: discard, tail, inherit",
  ],
  ["--server-stderr with --url", [
    "guidance",
    "--server",
    "a",
    "--server-stderr",
    "discard",
    "--url",
    "http://127.0.0.1:1/mcp",
  ], "--server-stderr applies only to stdio targets"],
  [
    "--header with a stdio target",
    ["guidance", "--server", "a", "--header", "X-A=HOME", ...TARGET],
    "--header applies only to --url targets",
  ],
  ["--allow-remote-http with a value", [
    "guidance",
    "--server",
    "a",
    "--allow-remote-http=yes",
    "--url",
    "https://example.com/mcp",
  ], "--allow-remote-http takes no value"],
  [
    "--url not a URL",
    ["guidance", "--server", "a", "--url", `not a url ${SECRET}`],
    "--url must be an absolute http: or https: URL",
  ],
  [
    "--url with another scheme",
    ["guidance", "--server", "a", "--url", `ftp://127.0.0.1/${SECRET}`],
    "--url must be an absolute http: or https: URL",
  ],
  ["--url with credentials", [
    "guidance",
    "--server",
    "a",
    "--url",
    `http://user:${SECRET}@127.0.0.1:1/mcp`,
  ], "--url must not contain credentials"],
  ["--url remote over http", [
    "guidance",
    "--server",
    "a",
    "--allow-remote-http",
    "--url",
    `http://example.com/${SECRET}`,
  ], "needs https: and --allow-remote-http"],
  ["--url remote without the flag", [
    "guidance",
    "--server",
    "a",
    "--url",
    `https://example.com/${SECRET}`,
  ], "needs https: and --allow-remote-http"],
  [
    "--url to a private address",
    ["guidance", "--server", "a", "--url", "http://10.0.0.1/mcp"],
    "needs https: and --allow-remote-http",
  ],
  ["--header without '='", [
    "guidance",
    "--server",
    "a",
    "--header",
    "Authorization",
    "--url",
    "http://127.0.0.1:1/mcp",
  ], "--header must be NAME=ENV_VAR"],
  ["--header with a bad variable name", [
    "guidance",
    "--server",
    "a",
    "--header",
    `X-A=${SECRET}!`,
    "--url",
    "http://127.0.0.1:1/mcp",
  ], "--header must be NAME=ENV_VAR"],
  ["--header of a reserved header", [
    "guidance",
    "--server",
    "a",
    "--header",
    "Mcp-Session-Id=HOME",
    "--url",
    "http://127.0.0.1:1/mcp",
  ], "--header may not set a header that mcpeval sets itself"],
  ["--header with an unset variable", [
    "guidance",
    "--server",
    "a",
    "--header",
    "Authorization=MCPEVAL_UNSET_VARIABLE",
    "--url",
    "http://127.0.0.1:1/mcp",
  ], "environment variable MCPEVAL_UNSET_VARIABLE is not set"],
  ["schema of an unknown report", ["schema", "other"], "Usage: mcpeval schema guidance"],
  [
    "unknown protocol version",
    ["guidance", "--server", "a", "--protocol-version", `2099-${SECRET}`, ...TARGET],
    `--protocol-version must be one of: ${PROTOCOL_VERSIONS.join(", ")}`,
  ],
  [
    "2024-11-05 over HTTP",
    [
      "guidance",
      "--server",
      "a",
      "--protocol-version",
      "2024-11-05",
      "--url",
      "http://127.0.0.1:1/mcp",
    ],
    "--protocol-version 2024-11-05 has no Streamable HTTP",
  ],
  ["--output of an unknown format", [
    "guidance",
    "--server",
    "a",
    "--output",
    `yaml=${SECRET}`,
    ...TARGET,
  ], "--output must be FORMAT=PATH"],
  [
    "--output without a path",
    ["guidance", "--server", "a", "--output", "json=", ...TARGET],
    "--output must be FORMAT=PATH",
  ],
  [
    "--output without a format",
    ["guidance", "--server", "a", "--output", SECRET, ...TARGET],
    "--output must be FORMAT=PATH",
  ],
  ["--output of one file twice", [
    "guidance",
    "--server",
    "a",
    "--output",
    "json=r",
    "--output",
    "sarif=r",
    ...TARGET,
  ], "--output names the same file twice"],
];

/** Checks the one stderr line of an invalid invocation. */
function assertInvalid(code: number, stdout: string, stderr: string, expected: string): void {
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  const lines = stderr.split("\n");
  assert.equal(lines.length, 2, `one stderr line, got: ${stderr}`);
  assert.equal(lines[1], "");
  assert.match(lines[0], /^mcpeval: /);
  assert.ok(lines[0].includes(expected), `${lines[0]} should contain ${expected}`);
  assert.ok(!stderr.includes(SECRET), "the value given is never repeated");
  assert.ok(!stderr.includes("    at "), "no stack trace");
}

// In-process: the rules of the command line, through run() with a recording context.
for (const [name, argv, expected] of INVALID) {
  Deno.test(`invalid invocation exits 2: ${name}`, async () => {
    const ctx = testContext();
    const code = await run(argv, ctx);
    assertInvalid(code, ctx.out(), ctx.err(), expected);
    assert.deepEqual(ctx.opened, [], "nothing was started");
  });
}

// End to end: the same rules reach a real process's streams and exit code.
const END_TO_END: [string, string[], string][] = [
  INVALID[0],
  INVALID.find(([name]) => name === "--url with credentials")!,
  INVALID.find(([name]) => name === "--header with an unset variable")!,
  [
    "command not found",
    ["guidance", "--server", "a", "--", "mcpeval-no-such-server-command"],
    "was not found",
  ],
];

for (const [name, argv, expected] of END_TO_END) {
  Deno.test(`invalid invocation exits 2 end to end: ${name}`, async () => {
    const result = await mcpeval(argv, { permissions: ["--allow-run", "--allow-env"] });
    assertInvalid(result.code, result.stdout, result.stderr, expected);
  });
}

Deno.test("no arguments: usage on stderr, exit 2", async () => {
  const result = await mcpeval([]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^mcpeval: A command is required\n\nUsage:\n/);
});

Deno.test("unknown command: usage on stderr, exit 2", async () => {
  const result = await mcpeval([`frob-${SECRET}`]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^mcpeval: Unknown command\n\nUsage:\n/);
  assert.ok(!result.stderr.includes(SECRET));
});

Deno.test("--help and guidance --help: stdout, exit 0", async () => {
  for (
    const argv of [["--help"], ["-h"], ["guidance", "--help"], ["guidance", "--server", "a", "-h"]]
  ) {
    const result = await mcpeval(argv);
    assert.equal(result.code, 0, argv.join(" "));
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /Usage:/);
  }
  const guidance = await mcpeval(["guidance", "--help"]);
  for (
    const option of [
      "--server",
      "--profile",
      "--require-tool",
      "--settle-ms",
      "--timeout-ms",
      "--url",
      "--header",
      "--config",
      "--jobs",
      "--input",
    ]
  ) {
    assert.ok(guidance.stdout.includes(option), option);
  }
});

Deno.test("--version prints the version from deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const result = await mcpeval(["--version"]);
  assert.deepEqual([result.code, result.stdout, result.stderr], [
    0,
    `mcpeval ${config.version}\n`,
    "",
  ]);
});

Deno.test("a missing run permission names the flag to add, and nothing runs", async () => {
  const result = await mcpeval(["guidance", "--server", "a", "--", ...fixture("demo/server.ts")], {
    permissions: [],
  });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    `mcpeval: Permission to run the server command is missing: add --allow-run=${DENO}\n`,
  );
});

Deno.test({
  name: "a server command that is not executable: exit 2, one line",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using file = await tempFile({ prefix: "mcpeval-not-executable-" });
    await Deno.chmod(file.path, 0o644);
    const result = await mcpeval(["guidance", "--server", "a", "--", file.path], {
      permissions: ["--allow-run"],
    });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      "mcpeval: Cannot start the server command: permission denied (is it executable, and allowed by --allow-run?)\n",
    );
  },
});
