/**
 * The seed's safe-report contract (issue 37, SPEC 27): a server's own words (its stderr) reach
 * no report in any format, no file and no step summary; they reach mcpeval's stderr only with
 * `--server-stderr tail` (the default on a terminal) or `inherit`, masked (every value mcpeval
 * passed to the server, URL user-info), escaped, each line behind a non-blank prefix, and with
 * no sequence a CI runner reads as a command. Off a terminal the default is `discard`, and one
 * line of mcpeval's names `--server-stderr tail`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  configFile,
  fixture,
  mcpeval,
  TAIL_POINTER,
  tempDir,
  withoutPlainProgress,
} from "./_cli.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const TOKEN = "tok-literal-7f3a9c21";
const RESOLVED = "resolved-secret-55b1e0";
const ARGUMENT = "arg-secret-9d2c44";

/** What of the server's words must never be shown as it wrote it. */
const SECRETS = [TOKEN, RESOLVED, ARGUMENT, "hunter2-db-pass", "admin:"];

/** The server's own phrases: none of them may reach a report. */
const SERVER_WORDS = [
  "starting with token",
  "connecting to",
  "postgres://",
  "a server line",
  "a workflow command",
  "a-mask",
  "task.setvariable",
  "buildProblem",
  "pause-token",
  "end of a long line",
];

/** A config whose one server prints what it was given (an env value, a variable, an argument). */
function leakyConfig() {
  const [command, ...args] = fixture("stderr_secrets.ts", "${ARG_SECRET}");
  return {
    mcpServers: {
      leaky: { command, args, env: { API_TOKEN: TOKEN, RESOLVED_TOKEN: "${RESOLVED_SECRET}" } },
    },
  };
}

const ENV = { ARG_SECRET: ARGUMENT, RESOLVED_SECRET: RESOLVED };
const PERMISSIONS = ["--allow-run", "--allow-read", "--allow-env", "--allow-write"];

async function leakyRun(args: readonly string[], env: Record<string, string> = {}) {
  await using config = await configFile(leakyConfig());
  return await mcpeval(
    ["guidance", "--config", config.path, "--profile", "none", "--settle-ms", "0", ...args],
    { permissions: PERMISSIONS, env: { ...ENV, ...env } },
  );
}

/** Fails when `text` holds a secret or any of the server's own words. */
function assertNoServerWords(text: string, where: string): void {
  for (const word of [...SECRETS, ...SERVER_WORDS]) {
    assert.ok(!text.includes(word), `${where} holds ${JSON.stringify(word)}`);
  }
}

/**
 * Fails when a line of `text` would be read as a CI runner's command: GitHub's `::name` at the
 * start of a line (after blanks) unless it is mcpeval's own annotation, or `##[`, `##vso[`,
 * `##teamcity[` anywhere.
 */
function assertNoCiCommands(text: string, where: string, ownAnnotations = false): void {
  for (const line of text.split("\n")) {
    if (/^\s*::/.test(line)) {
      assert.ok(
        ownAnnotations && /^::(error|warning|notice) title=mcpeval guidance/.test(line),
        `${where}: ${JSON.stringify(line)}`,
      );
    }
    assert.ok(!/##(\[|vso\[|teamcity\[)/i.test(line), `${where}: ${JSON.stringify(line)}`);
  }
}

/** Fails when `text` holds a control, format or separator character other than `\n`. */
function assertNothingRaw(text: string, where: string): void {
  // deno-lint-ignore no-control-regex
  const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}]/u.exec(text);
  assert.equal(raw, null, `${where}: raw U+${raw?.[0].codePointAt(0)?.toString(16)}`);
}

Deno.test("a server that crashes printing its secrets: no report in any format, file or step summary holds a word of it", async () => {
  await using dir = await tempDir();
  const summary = join(dir.path, "summary.md");
  const outputs = FORMATS.map((format) => `${format}=${join(dir.path, `report.${format}`)}`);
  for (const format of FORMATS) {
    const run = await leakyRun(
      ["--format", format, ...outputs.flatMap((output) => ["--output", output])],
      { GITHUB_STEP_SUMMARY: summary },
    );
    assert.equal(run.code, 3, run.stderr);
    assertNoServerWords(run.stdout, `--format ${format}`);
    assertNoCiCommands(run.stdout, `--format ${format}`, format === "github");
    assertNoServerWords(run.stderr, `stderr of --format ${format}`);
    for (const format of FORMATS) {
      const written = await Deno.readTextFile(join(dir.path, `report.${format}`));
      assertNoServerWords(written, `--output ${format}`);
      assertNoCiCommands(written, `--output ${format}`, format === "github");
    }
  }
  const appended = await Deno.readTextFile(summary);
  assert.match(appended, /leaky/);
  assertNoServerWords(appended, "the step summary");
  const json = JSON.parse((await leakyRun(["--format", "json"])).stdout);
  const profile = json.servers[0].report.profiles[0];
  assert.equal(profile.incomplete.reason, "transport-lost");
  assert.equal(profile.server_stderr_tail, undefined);
  assert.match(profile.incomplete.hint, /--server-stderr tail/);
});

Deno.test("off a terminal the default discards: one line of mcpeval's names --server-stderr tail, --quiet none", async () => {
  const run = await leakyRun([]);
  assert.equal(run.code, 3);
  assert.equal(
    withoutPlainProgress(run.stderr),
    "mcpeval: server leaky (profile none) ended incomplete (transport-lost); --server-stderr tail shows the last lines it wrote to stderr (never in a report)\n",
  );
  assert.match(run.stderr, TAIL_POINTER);
  const quiet = await leakyRun(["--quiet"]);
  assert.equal(quiet.code, 3);
  assert.equal(quiet.stderr, "");
});

Deno.test("--server-stderr tail: the last lines once, on stderr, masked, escaped, none a CI command", async () => {
  for (const extra of [[], ["--quiet"]]) {
    const run = await leakyRun(["--server-stderr", "tail", ...extra]);
    assert.equal(run.code, 3);
    const stderr = withoutPlainProgress(run.stderr);
    const [lead, ...lines] = stderr.trimEnd().split("\n");
    assert.equal(
      lead,
      "mcpeval: server leaky (profile none) ended incomplete (transport-lost); the last lines it wrote to stderr follow, its own words (masked and escaped), not mcpeval's:",
    );
    assert.equal(lines.length, 5, stderr);
    for (const line of lines) assert.ok(line.startsWith("[leaky none] "), line);
    assert.deepEqual(lines, [
      "[leaky none] ::error title=fake::a workflow command",
      "[leaky none]    ::add-mask::a-mask-after-blanks",
      "[leaky none] text before #\\x23[add-mask]a-mask-mid-line and #\\x23vso[task.setvariable variable=x]1",
      "[leaky none] #\\x23teamcity[buildProblem description='x'] \\x1b[2J\\x1b]0;title\\x07 done",
      "[leaky none] ::stop-commands::pause-token",
    ]);
    assertNoCiCommands(stderr, "stderr");
    assertNothingRaw(stderr, "stderr");
    for (const secret of SECRETS) assert.ok(!stderr.includes(secret), secret);
  }
});

Deno.test("--server-stderr inherit: every line masked (a value cut between two pieces too), prefixed, none a CI command", async () => {
  const run = await leakyRun(["--server-stderr", "inherit"]);
  assert.equal(run.code, 3);
  const lines = withoutPlainProgress(run.stderr).trimEnd().split("\n");
  assert.deepEqual(lines.slice(0, 3), [
    "[leaky none] starting with token <masked> and resolved <masked>",
    "[leaky none] argument <masked>",
    `[leaky none] ${"x".repeat(4090)}<masked>...`,
  ]);
  assert.equal(lines[3], "[leaky none] connecting to postgres://<masked>@db.internal:5432/app");
  assert.equal(
    lines[4],
    "[leaky none] #\\x23[error]a server line that GitHub's runner would read as an annotation",
  );
  assert.equal(lines[5], "[leaky none] ::error title=fake::a workflow command");
  assert.equal(lines[6], "[leaky none]    ::add-mask::a-mask-after-blanks");
  assert.equal(lines.length, 10, lines.join("\n"));
  const stderr = lines.join("\n");
  assertNoCiCommands(stderr, "stderr");
  assertNothingRaw(stderr, "stderr");
  for (const secret of SECRETS) assert.ok(!stderr.includes(secret), secret);
});

Deno.test("a one-server run: the server's words only with tail, never in the text report", async () => {
  const args = ["guidance", "--server", "leaky", "--profile", "none", "--settle-ms", "0"];
  const command = ["--", ...fixture("stderr_secrets.ts", ARGUMENT)];
  const discarded = await mcpeval([...args, ...command], { env: { API_TOKEN: TOKEN } });
  assert.equal(discarded.code, 3);
  assertNoServerWords(discarded.stdout + discarded.stderr, "a discarding run");
  assert.match(discarded.stdout, /exited with status 1 before answering initialize\./);
  assert.ok(!discarded.stdout.includes("--server-stderr inherit"), discarded.stdout);
  const tail = await mcpeval([...args, "--server-stderr", "tail", ...command]);
  assert.equal(tail.code, 3);
  assertNoServerWords(tail.stdout, "the text report");
  assert.match(tail.stderr, /\[leaky none\] ##|\[leaky none\] #\\x23/);
});

Deno.test("a server that exits at start: one ::error naming its five profiles and the cause", async () => {
  const run = await mcpeval([
    "guidance",
    "--format",
    "github",
    "--server",
    "leaky",
    "--settle-ms",
    "0",
    "--",
    ...fixture("stderr_secrets.ts"),
  ]);
  assert.equal(run.code, 3);
  const errors = run.stdout.split("\n").filter((line) => line.startsWith("::error "));
  assert.deepEqual(errors, [
    "::error title=mcpeval guidance (leaky)%3A profile incomplete::none, roots, sampling, elicitation, all: incomplete: transport-lost. The server process exited with status 1 before answering initialize.",
  ]);
});

Deno.test("merge drops the stderr tail an earlier version wrote into a report", async () => {
  await using dir = await tempDir();
  const run = await leakyRun(["--format", "json"]);
  const report = JSON.parse(run.stdout);
  report.servers[0].report.profiles[0].server_stderr_tail = ["starting with token " + TOKEN];
  const path = join(dir.path, "old.json");
  await Deno.writeTextFile(path, JSON.stringify(report));
  for (const format of FORMATS) {
    const merged = await mcpeval(["merge", "--format", format, path], {
      permissions: [`--allow-read=${dir.path}`],
    });
    assert.equal(merged.code, 3, merged.stderr);
    assertNoServerWords(merged.stdout, `merge --format ${format}`);
  }
  // As a baseline, too, it is read without the tail.
  const again = await leakyRun(["--format", "json", "--baseline", path]);
  assert.equal(again.code, 3, again.stderr);
  assertNoServerWords(again.stdout, "a run with that baseline");
});
