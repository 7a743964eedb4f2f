/**
 * The first ten minutes (issue 24): lookups that say what was meant, the --server default, where
 * Deno flags go for how mcpeval was started, and progress during a slow start. Through the real
 * CLI (a pseudo-terminal where a terminal matters), pure rules in-process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { completion, lookupHint } from "../src/analysis/suggest.ts";
import { programName } from "../src/cli/args.ts";
import { INSTALLED_LOCATION, launchOf, misplacedDenoFlag } from "../src/cli/deno_flags.ts";
import { GUIDANCE_HELP, USAGE } from "../src/cli/help.ts";
import { run } from "../src/cli/run.ts";
import { escaped } from "../src/printable.ts";
import {
  configFile,
  DENO,
  entry,
  fixture,
  guidanceJson,
  hostile,
  mcpeval,
  tempDir,
} from "./_cli.ts";
import { testContext } from "./_context.ts";
import { baseEnv, HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const DEMO = fixture("demo/server.ts");

/** Runs `mcpeval ARGS` and returns its one stderr line, after checking exit 2 and no stdout. */
async function oneLine(args: readonly string[], permissions?: readonly string[]): Promise<string> {
  const result = await mcpeval(args, permissions ? { permissions } : {});
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^mcpeval: [^\n]+\n$/);
  return result.stderr.slice("mcpeval: ".length, -1);
}

Deno.test("--server memry in a fleet: did you mean memory; a name far from all: the labels", async () => {
  await using config = await configFile({
    mcpServers: {
      memory: entry(DEMO),
      docs: entry(DEMO),
      "Team Tools": entry(DEMO),
    },
  });
  const reading = [`--allow-read=${config.path}`];
  assert.equal(
    await oneLine(["guidance", "--config", config.path, "--server", "memry"], reading),
    "--server memry names no server of the config file; did you mean memory?",
  );
  // Only server labels are listed: "Team Tools" is text from the file, listed by its derived label.
  assert.equal(
    await oneLine(["guidance", "--config", config.path, "--server", "zzz"], reading),
    "--server zzz names no server of the config file; it lists: Team_Tools, docs, memory",
  );
  assert.equal(
    await oneLine(["guidance", "--config", config.path, "--require-tool", "doc:search"], reading),
    "--require-tool names server doc, which the config file does not list; did you mean docs?",
  );
});

Deno.test("--client claude: did you mean claude-code (the start of one preset's name)", async () => {
  assert.match(
    await oneLine(["guidance", "--server", "a", "--client", "claude", "--", ...DEMO]),
    /^--client must name a client preset: claude-code, [a-z, -]+; did you mean claude-code\?$/,
  );
});

Deno.test("--profile roots,sampling and --client a,b: repeat the option", async () => {
  assert.equal(
    await oneLine(["guidance", "--server", "a", "--profile", "roots,sampling", "--", ...DEMO]),
    "--profile must be one of: none, roots, sampling, elicitation, all; repeat --profile for each one (roots, sampling) instead of a comma-separated list",
  );
  assert.match(
    await oneLine(["guidance", "--server", "a", "--client", "cursor,zed", "--", ...DEMO]),
    /; repeat --client for each one \(cursor, zed\) instead of a comma-separated list$/,
  );
});

Deno.test("--output json=nodir/x.json: the path given, quoted and escaped, before any server starts", async () => {
  assert.equal(
    await oneLine(
      ["guidance", "--server", "a", "--output", "json=nodir/x.json", "--", ...DEMO],
      [`--allow-run=${DENO}`, "--allow-write"],
    ),
    'Cannot write the report file "nodir/x.json" given to --output (its folder does not exist)',
  );
  assert.equal(
    await oneLine(
      ["guidance", "--server", "a", "--output", 'json=no"dir/\x1b[31m\u202e.json', "--", ...DEMO],
      [`--allow-run=${DENO}`, "--allow-write"],
    ),
    'Cannot write the report file "no\\"dir/\\u{1b}[31m\\u{202e}.json" given to --output (its folder does not exist)',
  );
});

Deno.test("a server command without '--': the word is named by its place, never by its value", async () => {
  const secret = "s3cr3t-word";
  const line = await oneLine(["guidance", "--server", "a", "--quiet", secret, "dist/server.js"]);
  assert.equal(
    line,
    "Unexpected argument 4 (the word after '--quiet'): put the server command after '--' (mcpeval guidance [options] -- COMMAND [ARG...]), or use --url",
  );
  assert.equal(
    await oneLine(["guidance", "--server", "a", "node", "dist/server.js"]),
    "Unexpected argument 3 (the word after '--server' and its value): put the server command after '--' (mcpeval guidance [options] -- COMMAND [ARG...]), or use --url",
  );
  assert.match(await oneLine(["guidance", "node"]), /^Unexpected argument 1 \(the first word/);
});

Deno.test("--server defaults to a stdio program's name; the same run with --server prints its label", async () => {
  const args = ["--profile", "none", "--settle-ms", "0", "--", ...DEMO];
  const { report } = await guidanceJson(args);
  assert.equal((report as unknown as { server: string }).server, "deno");
  const text = await mcpeval(["guidance", ...args]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^mcpeval guidance {2}server deno\n/);
  const named = await mcpeval(["guidance", "--server", "demo", ...args]);
  assert.equal(text.stdout.replace("server deno", "server demo"), named.stdout);
});

Deno.test("--server is required with --url and for a program whose name is not a label", async () => {
  assert.equal(
    await oneLine(["guidance", "--url", "http://127.0.0.1:1/mcp"]),
    "--server is required with --url: it labels the report",
  );
  await using dir = await tempDir();
  const hidden = join(dir.path, ".hidden");
  assert.equal(
    await oneLine(["guidance", "--", hidden]),
    "--server is required: the program name of the command after '--' is not a server label, which --server otherwise defaults to",
  );
});

Deno.test("programName: the last path segment without its extension, when it is a label", () => {
  assert.equal(programName("node"), "node");
  assert.equal(programName("/usr/local/bin/my-server.js"), "my-server");
  assert.equal(programName("./my_server.py"), "my_server");
  assert.equal(programName("C:\\Tools\\server.exe"), "server");
  assert.equal(programName("npx"), "npx");
  assert.equal(programName("/opt/.hidden"), undefined);
  assert.equal(programName("/opt/two words"), undefined);
  assert.equal(programName(""), undefined);
});

Deno.test("launchOf: the install line's --location marks the installed command, wherever it runs", () => {
  assert.equal(launchOf("file:///src/mcpeval/main.ts", undefined), "deno-run");
  assert.equal(launchOf("file:///src/mcpeval/main.ts", INSTALLED_LOCATION), "installed");
  assert.equal(launchOf("file:///src/mcpeval/main.ts", "https://example.com/"), "deno-run");
  assert.equal(launchOf("https://jsr.io/@mcpeval/guidance/0.2.0/main.ts", undefined), "jsr");
  assert.equal(launchOf("file:///tmp/deno-compile-mcpeval/main.ts", undefined), "compiled");
});

Deno.test("a Deno flag after the script or a missing permission: where it goes for each launch", async () => {
  assert.equal(
    misplacedDenoFlag("--allow-read"),
    "'--allow-read' is a Deno flag: put it before the script (deno run --allow-read ... main.ts guidance ...), not after it",
  );
  assert.match(
    misplacedDenoFlag("--allow-read", "jsr"),
    /cannot carry it \(with deno run: before the script; for the installed mcpeval command, reinstall it: deno install -g -f -n mcpeval \.\.\. --allow-read jsr:@mcpeval\/guidance\)$/,
  );
  // In-process, the context says how mcpeval was started.
  const installed = testContext({
    launch: "installed",
    permission: (d) => Promise.resolve(d.name === "read" ? "prompt" : "granted"),
  });
  assert.equal(await run(["guidance", "--config", "a.json"], installed), 2);
  assert.equal(
    installed.err(),
    "mcpeval: Permission to read the config file is missing: add --allow-read=a.json; the installed mcpeval command takes Deno flags only from its install line: reinstall it with the flag added (from the clone: deno install -g -f -n mcpeval --config deno.json --location=https://mcpeval.invalid/installed ... --allow-read=.,a.json main.ts)\n",
  );
  const flag = testContext({ launch: "installed" });
  assert.equal(await run(["guidance", "-A"], flag), 2);
  assert.match(
    flag.err(),
    /^mcpeval: '-A' is a Deno flag, and mcpeval's arguments cannot carry it; the installed mcpeval command takes Deno flags only from its install line: reinstall it with the flag added \(from the clone: deno install -g -f -n mcpeval --config deno.json --location=https:\/\/mcpeval\.invalid\/installed \.\.\. -A main\.ts\)\n$/,
  );
  const command = testContext({ launch: "installed" });
  assert.equal(await run(["--allow-net", "guidance"], command), 2);
  assert.match(command.err(), /^mcpeval: '--allow-net' is a Deno flag, and mcpeval's arguments/);
});

Deno.test("help: --server's default, and --profile's default is not the all profile", () => {
  assert.match(
    GUIDANCE_HELP,
    /\n {2}--profile P {14}none, roots, sampling, elicitation or all; repeatable\n {27}\(default: the five standard profiles\)\n/,
  );
  assert.ok(!GUIDANCE_HELP.includes("(default all)"));
  assert.match(
    GUIDANCE_HELP,
    /--server NAME {12}report label [^\n]*; for a stdio server\n {27}the program's name by default/,
  );
  assert.match(USAGE, /mcpeval guidance \[--server NAME\] \[options\] -- COMMAND/);
});

Deno.test("completion and lookupHint: one known word begun, else close, else the list", () => {
  assert.equal(completion("claude", ["claude-code", "cursor"]), "claude-code");
  assert.equal(completion("cl", ["claude-code"]), undefined);
  assert.equal(completion("gem", ["gemini-cli", "gemma"]), undefined);
  assert.equal(lookupHint("memry", ["memory", "docs"], "it lists:", ""), "; did you mean memory?");
  assert.equal(lookupHint("x", ["memory", "docs"], "it lists:", ""), "; it lists: docs, memory");
  assert.equal(lookupHint("x", [], "it lists:", "; none"), "; none");
  const many = Array.from({ length: 25 }, (_, i) => `s${String(i).padStart(2, "0")}`);
  assert.match(lookupHint("zzzzzz", many, "it lists:", ""), /s19, and 5 more$/);
});

Deno.test("escaped: printable ASCII as it is, everything else escaped, bounded", () => {
  assert.equal(escaped("nodir/x.json"), '"nodir/x.json"');
  assert.equal(escaped('a\nb\x1b\u202e"\\é'), '"a\\u{a}b\\u{1b}\\u{202e}\\"\\\\\\u{e9}"');
  assert.equal(escaped("x".repeat(300)), `"${"x".repeat(200)}..."`);
});

/** The lines a terminal showed, without escapes and line ends. */
function shownLines(screen: string): string[] {
  return screen.split(/\r?\n/).map((line) =>
    // deno-lint-ignore no-control-regex
    line.replaceAll(/\x1b\[[0-9;]*[A-Za-z]/g, "").replaceAll("\r", "")
  );
}

// A server that never answers initialize: its line changes after STARTING_SLOW_MS (3 s), before
// the request's 5 s timeout ends it (both timers in one process: their order is the deadlines').
const SILENT = [
  "guidance",
  "--server",
  "h",
  "--profile",
  "none",
  "--timeout-ms",
  "5000",
  "--",
  ...hostile("silent-initialize"),
];

Deno.test({
  name: "progress: a start without an answer says so after a few seconds, with its clock",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal(SILENT, { env: { ...baseEnv(), NO_COLOR: "1" } });
    assert.equal(code, 3, screen);
    const states = shownLines(screen).filter((line) => line.startsWith("  none  "))
      .map((line) => line.slice(8));
    assert.ok(states.some((s) => /^starting the server, initializing \(\d+\.\d s\)$/.test(s)));
    const slow = states.findIndex((s) =>
      /^starting the server, no answer yet \((\d+\.\d) s\)$/
        .test(s)
    );
    assert.ok(slow >= 0, states.join("\n"));
    assert.ok(Number(/\((\d+\.\d) s\)$/.exec(states[slow])![1]) >= 3);
    assert.ok(states.slice(slow).includes("incomplete, timeout"), states.join("\n"));
  },
});

Deno.test({
  name: "progress on TERM=dumb: a start without an answer is one more line",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal(SILENT, {
      env: { ...baseEnv(), TERM: "dumb" },
      permissions: [`--allow-run=${DENO}`, "--allow-env=TERM,FORCE_COLOR"],
    });
    assert.equal(code, 3, screen);
    assert.deepEqual(shownLines(screen).slice(0, 4), [
      "mcpeval: discovering h, 1 profile(s)",
      "mcpeval: none: starting the server, initializing",
      "mcpeval: none: starting the server, no answer after 3 s (npx or uvx may still be downloading it)",
      "mcpeval: none: incomplete, timeout",
    ]);
  },
});
