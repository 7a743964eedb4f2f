/**
 * Mistakes a new user makes: `did you mean ...?` for unknown options, commands, profiles and
 * formats; Deno flags placed after the script; help for every command (all in-process: each is
 * decided before anything starts, and tests/cli_test.ts shows the same rules reach a real
 * process's streams and exit code); `--output FORMAT=-` through the real CLI.
 */
import assert from "node:assert/strict";
import { closest } from "../src/analysis/suggest.ts";
import { run } from "../src/cli/run.ts";
import { fixture, guidanceJson, mcpeval, withoutPlainProgress } from "./_cli.ts";
import { testContext } from "./_context.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

/** Runs `mcpeval ARGV` in-process (nothing may start) and returns its exit code and output. */
async function cli(argv: readonly string[]) {
  const ctx = testContext();
  const code = await run([...argv], ctx);
  assert.deepEqual(ctx.opened, [], "nothing was started");
  return { code, stdout: ctx.out(), stderr: ctx.err() };
}

const TARGET = ["--", ...fixture("demo/server.ts")];

/** [argv, the one stderr line]: each exits 2 before anything starts. */
const MISTAKES: [string[], string][] = [
  [["guidnace"], "mcpeval: Unknown command; did you mean guidance?"],
  [["schmea", "guidance"], "mcpeval: Unknown command; did you mean schema?"],
  [
    ["guidance", "--server", "a", "--profiles", "none", ...TARGET],
    "mcpeval: Unknown option '--profiles'; did you mean --profile?",
  ],
  [
    ["guidance", "--server", "a", "--settle", "100", ...TARGET],
    "mcpeval: Unknown option '--settle'; did you mean --settle-ms?",
  ],
  [
    ["guidance", "--server", "a", "--requre-tool=x", ...TARGET],
    "mcpeval: Unknown option '--requre-tool'; did you mean --require-tool?",
  ],
  [
    ["guidance", "--server", "a", "--profile", "root", ...TARGET],
    "mcpeval: --profile must be one of: none, roots, sampling, elicitation, all; did you mean roots?",
  ],
  [
    ["guidance", "--server", "a", "--format", "jsno", ...TARGET],
    `mcpeval: --format must be one of: ${FORMATS.join(", ")}; did you mean json?`,
  ],
  [
    ["guidance", "--server", "a", "--output", "sarf=r.sarif", ...TARGET],
    `mcpeval: --output must be FORMAT=PATH (PATH - for stdout) with FORMAT one of: ${
      FORMATS.join(", ")
    }; did you mean sarif?`,
  ],
  [
    ["guidance", "--server", "a", "--server-stderr", "inhert", ...TARGET],
    "mcpeval: --server-stderr must be one of: discard, tail, inherit; did you mean inherit?",
  ],
  [
    ["guidance", "--server", "a", "--allow-run=secret-command", ...TARGET],
    "mcpeval: '--allow-run' is a Deno flag: put it before the script (deno run --allow-run ... main.ts guidance ...), not after it",
  ],
  [
    ["--allow-net=127.0.0.1:9", "guidance"],
    "mcpeval: '--allow-net' is a Deno flag: put it before the script (deno run --allow-net ... main.ts guidance ...), not after it",
  ],
  [
    ["guidance", "-A", "--server", "a", ...TARGET],
    "mcpeval: '-A' is a Deno flag: put it before the script (deno run -A ... main.ts guidance ...), not after it",
  ],
  [
    ["guidance", "--server", "a", "--format", "json", "--output", "text=-", ...TARGET],
    "mcpeval: --format and --output FORMAT=- both choose the report on stdout: give one of them",
  ],
  [
    ["guidance", "--server", "a", "--sarif-location", "src/server.ts", ...TARGET],
    "mcpeval: --sarif-location applies only to a SARIF report (--format sarif or --output sarif=PATH)",
  ],
  // A value that can reach a report holds no line break or control, in both commands (it threw
  // a TypeError, exit 70, before).
  ...["src/a.ts\n", "src/a.ts\r:3", "src/\u001b[2Ja.ts", "src/\u202ea.ts"].flatMap((
    location,
  ): [string[], string][] => [
    [
      ["guidance", "--server", "a", "--format", "sarif", "--sarif-location", location, ...TARGET],
      "mcpeval: --sarif-location holds a line break, a control or an invisible format character",
    ],
    [
      ["merge", "--format", "sarif", `--sarif-location=${location}`, "missing.json"],
      "mcpeval: --sarif-location holds a line break, a control or an invisible format character",
    ],
  ]),
  [
    ["guidance", "--server", "a\nb", ...TARGET],
    "mcpeval: --server holds a line break, a control or an invisible format character",
  ],
  [
    ["guidance", "--server", "a", "--require-tool", "x\u2028y", ...TARGET],
    "mcpeval: --require-tool holds a line break, a control or an invisible format character",
  ],
];

for (const [argv, line] of MISTAKES) {
  Deno.test(`mistake: mcpeval ${JSON.stringify(argv.slice(0, 7))}`, async () => {
    const result = await cli(argv);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, `${line}\n`);
    assert.ok(!result.stderr.includes("secret-command"), "a flag's value is never repeated");
  });
}

Deno.test("an unknown command with nothing close: the usage, and the value is not repeated", async () => {
  const result = await cli(["frobnicate-token-123"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^mcpeval: Unknown command\n\nUsage:\n/);
  assert.ok(!result.stderr.includes("frobnicate"));
});

Deno.test("mcpeval's own --allow-remote-http is not taken for a Deno flag", async () => {
  const result = await cli(["guidance", "--server", "a", "--allow-remote-http", ...TARGET]);
  assert.equal(result.stderr, "mcpeval: --allow-remote-http applies only to --url targets\n");
});

Deno.test("help for every command: help guidance, guidance --help, schema --help, help schema", async () => {
  const guidance = await cli(["guidance", "--help"]);
  const schema = await cli(["schema", "--help"]);
  for (
    const [argv, expected] of [
      [["help", "guidance"], guidance.stdout],
      [["schema", "--help"], schema.stdout],
      [["schema", "-h"], schema.stdout],
      [["help", "schema"], schema.stdout],
    ] as const
  ) {
    const result = await cli(argv);
    assert.deepEqual([result.code, result.stderr], [0, ""], argv.join(" "));
    assert.equal(result.stdout, expected);
  }
  assert.match(guidance.stdout, /--quiet/);
  assert.match(schema.stdout, /^mcpeval schema: print the JSON Schema/);
  const unknown = await cli(["help", "guidnace"]);
  assert.deepEqual([unknown.code, unknown.stderr], [
    2,
    "mcpeval: Unknown command; did you mean guidance?\n",
  ]);
});

Deno.test("--output json=- prints the JSON report on stdout", async () => {
  const result = await mcpeval([
    "guidance",
    "--server",
    "demo",
    "--profile",
    "none",
    "--settle-ms",
    "0",
    "--output",
    "json=-",
    ...TARGET,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(withoutPlainProgress(result.stderr), "");
  const same = await guidanceJson([
    "--server",
    "demo",
    "--profile",
    "none",
    "--settle-ms",
    "0",
    ...TARGET,
  ]);
  assert.deepEqual(JSON.parse(result.stdout), same.report);
});

Deno.test("closest: typos, prefixes, nothing for distant words", () => {
  assert.equal(closest("guidnace", ["guidance", "schema"]), "guidance");
  assert.equal(closest("--settle", ["--settle-ms", "--server"]), "--settle-ms");
  assert.equal(closest("JSON", ["text", "json"]), "json");
  assert.equal(closest("yaml", FORMATS), undefined);
  assert.equal(closest("json", ["text", "json"]), undefined, "an exact word needs no suggestion");
  assert.equal(closest("", ["a"]), undefined);
});
