/**
 * The reliability floor through the real CLI: SIGHUP, file inputs that would block, a server
 * that exits while a grandchild holds its stdout, and the server's stderr where a user sees it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FILE_READ_DEADLINE_MS } from "../src/limits.ts";
import {
  configFile,
  DEMO_TARGET,
  DENO,
  entry,
  fixtureLog,
  fleetJson,
  guidanceJson,
  hostile,
  isRunning,
  mcpeval,
  ROOT,
  spawnMcpeval,
  tempDir,
  tempFile,
  type TempPath,
  waitUntil,
} from "./_cli.ts";
import { HAS_SCRIPT, onTerminal } from "./_terminal.ts";

/** A folder holding `fifo`, a named pipe that no one ever writes. */
async function withFifo(): Promise<TempPath & { fifo: string }> {
  const dir = await tempDir();
  const fifo = join(dir.path, "fifo");
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.equal(made.code, 0);
  return { ...dir, fifo };
}

/** Long enough for any run here; a run that blocks is killed then and fails. */
const BOUND_MS = 60_000;
const NOT_REGULAR = "it is not a regular file: a FIFO, device or socket is not read";

Deno.test({
  name: "SIGHUP stops every server (they ignore stdin EOF), removes reserved files, exit 129",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    await using dir = await tempDir();
    const reserved = join(dir.path, "report.json");
    // silent-list never answers tools/list and never reads its stdin's end: only a signal stops it.
    const running = spawnMcpeval(
      [
        "guidance",
        "--server",
        "s",
        "--settle-ms",
        "0",
        "--output",
        `json=${reserved}`,
        "--",
        ...hostile("silent-list"),
      ],
      {
        permissions: [`--allow-run=${DENO}`, `--allow-write=${dir.path}`],
        env: { MCPEVAL_FIXTURE_LOG: log.path },
      },
    );
    await waitUntil(() => log.received("tools/list") >= 5, 20_000, 50);
    assert.equal(log.received("tools/list"), 5);
    const output = await running.stop("SIGHUP");
    assert.equal(output.code, 129);
    assert.equal(output.stdout, "");
    assert.equal(output.stderr, "mcpeval: hung up (SIGHUP); every server process was stopped\n");
    await assert.rejects(Deno.stat(reserved), Deno.errors.NotFound);
    const pids = log.pids();
    assert.equal(pids.length, 5);
    for (const pid of pids) assert.ok(!isRunning(pid), `server ${pid} survived`);
    await running.assertNoneLeft("mcpeval hung up");
  },
});

Deno.test({
  name: "a FIFO without a writer as --config, --baseline or --client-file: exit 2 at once",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using dir = await withFifo();
    const read = [`--allow-read=${dir.path}`, `--allow-run=${DENO}`];
    const cases: [string[], string][] = [
      [["--config", dir.fifo], `Cannot read the config file (${NOT_REGULAR})`],
      [
        ["--server", "demo", "--baseline", dir.fifo, ...DEMO_TARGET],
        `Cannot read the --baseline file (${NOT_REGULAR})`,
      ],
      [
        ["--server", "demo", "--client", "x", "--client-file", dir.fifo, ...DEMO_TARGET],
        `--client-file cannot be read (${NOT_REGULAR})`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await mcpeval(["guidance", ...args], { permissions: read, boundMs: BOUND_MS });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr, `mcpeval: ${message}\n`);
      assert.equal(result.stdout, "");
    }
  },
});

Deno.test({
  name: "an envFile that is a FIFO, or /dev/stdin while stdin is open: env-file-unreadable",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using dir = await withFifo();
    for (const envFile of [dir.fifo, "/dev/stdin"]) {
      await using config = await configFile({
        mcpServers: { a: entry(hostile("default"), { envFile }) },
      });
      const { code, fleet } = await fleetJson(["--config", config.path], {
        permissions: [`--allow-read=${config.path},${dir.path},/dev/stdin`, `--allow-run=${DENO}`],
        stdin: { open: true },
        boundMs: BOUND_MS,
      });
      assert.equal(code, 3);
      const [server] = fleet.servers;
      assert.equal(server.checked, false);
      assert.equal(!server.checked && server.reason, "env-file-unreadable");
    }
  },
});

Deno.test("--baseline - while stdin stays open: exit 2 once the read deadline passed", async () => {
  const result = await mcpeval(
    ["guidance", "--server", "demo", "--baseline", "-", ...DEMO_TARGET],
    {
      stdin: { open: true },
      boundMs: BOUND_MS,
    },
  );
  assert.equal(result.code, 2, result.stderr);
  assert.equal(
    result.stderr,
    `mcpeval: Cannot read the --baseline file (it was not read within ${
      FILE_READ_DEADLINE_MS / 1000
    } s)\n`,
  );
});

Deno.test({
  name: "read errors: the same fixed phrases for --config and --baseline, no error class names",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using dir = await tempDir();
    const loop = join(dir.path, "loop.json");
    await Deno.symlink(loop, loop);
    const latin1 = join(dir.path, "latin1.json");
    await Deno.writeFile(latin1, new Uint8Array([0x7b, 0xff, 0x7d]));
    const read = [`--allow-read=${dir.path}`, `--allow-run=${DENO}`];
    for (
      const [file, phrase] of [
        [loop, "its path loops through symbolic links"],
        [latin1, "it is not UTF-8 text"],
        [dir.path, "it is a folder"],
      ]
    ) {
      const config = await mcpeval(["guidance", "--config", file], { permissions: read });
      assert.equal(config.stderr, `mcpeval: Cannot read the config file (${phrase})\n`);
      assert.equal(config.code, 2);
      const baseline = await mcpeval(
        ["guidance", "--server", "demo", "--baseline", file, ...DEMO_TARGET],
        { permissions: read },
      );
      assert.equal(baseline.stderr, `mcpeval: Cannot read the --baseline file (${phrase})\n`);
      assert.equal(baseline.code, 2);
    }
  },
});

Deno.test({
  name: "a server that exits while a process it started holds its stdout: transport-lost, status 1",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    const { code, report } = await guidanceJson(
      [
        "--server",
        "h",
        "--settle-ms",
        "0",
        // Far longer than the test's bound: a timeout here would fail the run's bound first.
        "--timeout-ms",
        "300000",
        "--",
        DENO,
        "run",
        "--quiet",
        "--allow-run=sleep",
        "--allow-env",
        "--allow-write",
        join(ROOT, "fixtures", "orphan_stdout.ts"),
      ],
      // Unscoped --allow-run: the sleeping child is ended with the server's process group.
      { permissions: ["--allow-run"], env: { MCPEVAL_FIXTURE_LOG: log.path }, boundMs: BOUND_MS },
    );
    assert.equal(code, 3);
    assert.deepEqual(
      report.profiles.map((p) => ({ reason: p.incomplete?.reason, detail: p.incomplete?.detail })),
      Array(5).fill({
        reason: "transport-lost",
        detail: { cause: "exited-before-initialize", exit_code: 1 },
      }),
    );
    const children = log.pids();
    assert.equal(children.length, 5);
    for (const pid of children) assert.ok(!isRunning(pid), `child ${pid} survived`);
  },
});

/** The stderr_exit fixture: seven lines on stderr, then exit 1 before answering. */
const STDERR_EXIT = [DENO, "run", "--quiet", join(ROOT, "fixtures", "stderr_exit.ts")];
const NPM_LINES = [
  "first line, not among the last five",
  "second line, not among the last five",
  "npm error code E404",
  "npm error 404 Not Found - GET https://registry.invalid/no-such-server",
];

Deno.test("--server-stderr inherit: each line once, prefixed with its server and profile", async () => {
  const result = await mcpeval([
    "guidance",
    "--server",
    "npx-server",
    "--server-stderr",
    "inherit",
    "--",
    ...STDERR_EXIT,
  ], { boundMs: BOUND_MS });
  assert.equal(result.code, 3);
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  // Five profiles printed the same eight lines (one blank): each is shown once.
  assert.equal(lines.length, 8, result.stderr);
  for (const line of NPM_LINES) {
    const shown = lines.filter((l) => l.endsWith(`] ${line}`));
    assert.equal(shown.length, 1, line);
    assert.match(shown[0], /^\[npx-server (none|roots|sampling|elicitation|all)\] /);
  }
  // The report carries none of the server's words (issue 37).
  assert.ok(!result.stdout.includes("npm error"), result.stdout);
});

Deno.test("--server-stderr inherit with --config: the same lines of two servers, each once", async () => {
  await using config = await configFile({
    mcpServers: { a: entry(STDERR_EXIT), b: entry(STDERR_EXIT) },
  });
  const result = await mcpeval(
    ["guidance", "--config", config.path, "--server-stderr", "inherit", "--profile", "none"],
    { permissions: [`--allow-read=${config.path}`, `--allow-run=${DENO}`], boundMs: BOUND_MS },
  );
  assert.equal(result.code, 3, result.stderr);
  for (const server of ["a", "b"]) {
    for (const line of NPM_LINES) {
      assert.equal(result.stderr.split(`[${server} none] ${line}\n`).length, 2, line);
    }
  }
});

Deno.test({
  name: "on a terminal: the last 5 stderr lines of one profile, once, escaped, never in the report",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using report = await tempFile();
    const { screen, code } = await onTerminal(
      ["guidance", "--server", "npx-server", "--", ...STDERR_EXIT],
      { redirect: `>${report.path}` },
    );
    assert.equal(code, 3);
    const leadIn =
      /mcpeval: server npx-server \(profile (none|roots|sampling|elicitation|all)\) ended incomplete \(transport-lost\); the last lines it wrote to stderr follow, its own words \(masked and escaped\), not mcpeval's:\r\n/g;
    const found = [...screen.matchAll(leadIn)];
    assert.equal(found.length, 1, screen);
    const prefix = `[npx-server ${found[0][1]}] `;
    const after = screen.slice(screen.search(leadIn)).split("\r\n").slice(1, 6);
    assert.deepEqual(
      after,
      [
        "npm error code E404",
        "npm error 404 Not Found - GET https://registry.invalid/no-such-server",
        "npm error 404 \\x1b[31mno-such-server\\x1b[0m is not in this registry.",
        `npm error 404 ${"x".repeat(186)}...`,
        "npm error A complete log of this run can be found in: /tmp/npm-debug.log",
      ].map((line) => prefix + line),
    );
    assert.ok(!screen.includes("first line"));
    assert.ok(!screen.includes("\x1b[31mno-such"), "the server's escape is never sent as is");
    const text = await Deno.readTextFile(report.path);
    assert.match(text, /Result: incomplete/);
    // The report carries none of it (issue 37).
    assert.ok(!text.includes("npm error"), text);
    // Not a terminal, or --quiet: nothing of the server's (off a terminal, a pointer to tail).
    const piped = await mcpeval(["guidance", "--server", "npx-server", "--", ...STDERR_EXIT]);
    assert.ok(!piped.stderr.includes("npm error"), piped.stderr);
    assert.match(piped.stderr, /--server-stderr tail shows the last lines/);
    const quiet = await onTerminal(
      ["guidance", "--server", "npx-server", "--quiet", "--", ...STDERR_EXIT],
      { redirect: `>${report.path}` },
    );
    assert.ok(!quiet.screen.includes("npm error"), quiet.screen);
  },
});
