/**
 * A server's stderr on a real terminal, in both `--server-stderr` modes: nothing it writes reaches
 * the terminal raw (no escape sequence, C0 or C1 control, bidirectional or invisible format
 * character), and the live progress never draws over one of its lines. The bytes are those a
 * pseudo-terminal received (`script`); the final screen is what tmux shows once the run ended.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HOSTILE_STDERR } from "../fixtures/hostile.ts";
import { terminalSafe } from "../src/printable.ts";
import {
  assertNoneLeft,
  DEMO_TARGET,
  DENO,
  hostile,
  ProcessMarker,
  ROOT,
  tempDir,
} from "./_cli.ts";
import { baseEnv, HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const HAS_TMUX: boolean = HAS_SCRIPT && (() => {
  try {
    return new Deno.Command("tmux", { args: ["-V"] }).outputSync().success;
  } catch {
    return false;
  }
})();

const PLAIN = Array.from({ length: 8 }, (_, i) => `plain line ${i + 1} of 8`);

/** The only escape sequences mcpeval itself writes on stderr without colour: its redraw. */
// deno-lint-ignore no-control-regex
const OWN_SEQUENCES = /\x1b\[[0-9]*[FJK]/g;

/**
 * Fails when the terminal got any byte of the server's that a terminal acts on or hides: an
 * escape other than mcpeval's own redraw, a C0 control other than the line ends, a C1 control,
 * a format character, or a line or paragraph separator.
 */
function assertNothingRaw(screen: string): void {
  const rest = screen.replaceAll(OWN_SEQUENCES, "").replaceAll("\r\n", "\n");
  // deno-lint-ignore no-control-regex
  const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}]/u.exec(rest);
  assert.equal(
    raw,
    null,
    raw ? `raw U+${raw[0].codePointAt(0)!.toString(16)} at ${raw.index}` : "",
  );
}

Deno.test("terminalSafe: every Cc, Cf, Zl and Zp character escaped, anything else as it is", () => {
  assert.equal(
    terminalSafe("a\x1b[31m\r\t\x07\x9b\u061c\u200b\u200e\u202e\u2066\u2028\u2029\ufeff\u{e0041}"),
    "a\\x1b[31m\\x0d\\x09\\x07\\x9b\\u061c\\u200b\\u200e\\u202e\\u2066\\u2028\\u2029\\ufeff\\u{e0041}",
  );
  assert.equal(terminalSafe("é 中 😀 \\x1b [ok]"), "é 中 😀 \\x1b [ok]");
  for (const text of HOSTILE_STDERR) assertNothingRaw(terminalSafe(text));
});

Deno.test({
  name: "--server-stderr inherit on a terminal: every line prefixed and escaped, none raw",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using dir = await tempDir();
    const { screen, code } = await onTerminal(
      [
        "guidance",
        "--server",
        "h",
        "--server-stderr",
        "inherit",
        "--",
        ...hostile("stderr-hostile"),
      ],
      { redirect: `>${join(dir.path, "report.txt")}` },
    );
    assert.equal(code, 0, screen);
    assertNothingRaw(screen);
    const lines = screen.replaceAll(OWN_SEQUENCES, "").split("\r\n");
    for (const line of PLAIN) {
      assert.equal(lines.filter((shown) => shown.endsWith(`] ${line}`)).length, 1, line);
    }
    // Each hostile line is shown once, escaped, after its server and profile.
    for (const text of HOSTILE_STDERR.slice(0, -1)) {
      const escaped = terminalSafe(text.slice(0, -1));
      const shown = lines.filter((line) => line.endsWith(`] ${escaped}`));
      assert.equal(shown.length, 1, escaped);
      assert.match(shown[0], /^\[h (none|roots|sampling|elicitation|all)\] /);
    }
    // A line the server finished later is shown whole, escaped: it cannot forge one of ours.
    assert.ok(
      lines.some((line) => line.endsWith("] unfinished, then \\x1b[1A\\x0dmcpeval: forged")),
    );
    assert.ok(!lines.some((line) => line.startsWith("mcpeval: forged")));
  },
});

Deno.test({
  name: "the default on a terminal (tail): the stderr tail of a server that exited, escaped",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using dir = await tempDir();
    const { screen, code } = await onTerminal(
      ["guidance", "--server", "h", "--profile", "none", "--", ...hostile("stderr-hostile-exit")],
      { redirect: `>${join(dir.path, "report.txt")}` },
    );
    assert.equal(code, 3, screen);
    assertNothingRaw(screen);
    const tail = screen.slice(screen.indexOf("its own words (masked and escaped), not mcpeval's:"))
      .split("\r\n");
    assert.deepEqual(
      tail.slice(1, 6),
      [
        terminalSafe(HOSTILE_STDERR[5].slice(0, -1)),
        "plain line 7 of 8",
        terminalSafe(HOSTILE_STDERR[6].slice(0, -1)),
        "plain line 8 of 8",
        "unfinished, then \\x1b[1A\\x0dmcpeval: forged",
      ].map((line) => `[h none] ${line}`),
    );
  },
});

Deno.test({
  name:
    "the stderr tail with the report on the same terminal: shown once, on stderr, not in the report",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    // NO_COLOR: the report's own escapes apart, nothing on the screen may be raw.
    const { screen, code } = await onTerminal(
      ["guidance", "--server", "h", "--profile", "none", "--", ...hostile("stderr-hostile-exit")],
      { env: { ...baseEnv(), NO_COLOR: "1" } },
    );
    assert.equal(code, 3, screen);
    assertNothingRaw(screen);
    assert.equal(screen.split("its own words (masked and escaped)").length - 1, 1, screen);
    assert.equal(screen.split("plain line 8 of 8").length - 1, 1, screen);
    assert.match(screen, /\[h none\] plain line 8 of 8/);
  },
});

/** A one-profile run of server `h` with its GitHub report on the terminal; its target follows. */
const GITHUB_ON_TERMINAL = ["guidance", "--format", "github", "--server", "h", "--profile", "none"];

Deno.test({
  name: "the stderr tail with a GitHub report on the same terminal: shown on stderr, once",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal(
      [...GITHUB_ON_TERMINAL, "--", ...hostile("stderr-hostile-exit")],
      { env: { ...baseEnv(), NO_COLOR: "1" } },
    );
    assert.equal(code, 3, screen);
    assert.equal(screen.split("its own words (masked and escaped)").length - 1, 1, screen);
    assert.match(screen, /mcpeval: server h \(profile none\) ended incomplete \(transport-lost\)/);
  },
});

Deno.test({
  name: "a GitHub report on a terminal without --allow-env: no permission prompt, no summary",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using dir = await tempDir();
    const summary = join(dir.path, "summary.md");
    const { screen, code } = await onTerminal(
      [...GITHUB_ON_TERMINAL, ...DEMO_TARGET],
      { env: { ...baseEnv(), NO_COLOR: "1", GITHUB_STEP_SUMMARY: summary } },
    );
    assert.equal(code, 0, screen);
    assert.doesNotMatch(screen, /Deno requests/);
    assert.match(screen, /::notice title=mcpeval guidance \(h\)::/);
    // GITHUB_STEP_SUMMARY is unreadable without its --allow-env: as if it were unset.
    await assert.rejects(Deno.stat(summary), Deno.errors.NotFound);
  },
});

/**
 * Runs `mcpeval ARGS` in a tmux pane of 100 columns and 60 rows (with `remain-on-exit`, so the
 * screen stays once it exited) and returns the lines of its final screen and scrollback as tmux
 * shows them, and its exit status.
 */
async function finalScreen(args: readonly string[]): Promise<{ lines: string[]; code: number }> {
  await using dir = await tempDir();
  const conf = join(dir.path, "tmux.conf");
  await Deno.writeTextFile(conf, "set -g remain-on-exit on\nset -g history-limit 2000\n");
  const socket = join(dir.path, "socket");
  const marker = new ProcessMarker();
  const tmux = (...words: string[]) =>
    new Deno.Command("tmux", {
      args: ["-S", socket, "-f", conf, ...words],
      env: { ...baseEnv(), ...marker.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  // --no-prompt: a permission prompt on the pane's terminal would wait for ever.
  const line = [
    DENO,
    "run",
    "--quiet",
    "--no-prompt",
    `--allow-run=${DENO}`,
    join(ROOT, "main.ts"),
    ...args,
  ]
    .map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
  const report = join(dir.path, "report.txt");
  // The shell in the pane writes mcpeval's exit status to a file: tmux may mark the pane dead
  // before it has reaped the process (`pane_dead_status` still empty), so its status is not read.
  const exit = join(dir.path, "exit");
  const command = `${line} >${report}; echo $? >${exit}`;
  try {
    const started = await tmux("new-session", "-d", "-x", "100", "-y", "60", command);
    assert.ok(started.success, new TextDecoder().decode(started.stderr));
    let status = "";
    for (const begun = Date.now(); Date.now() - begun < 120_000;) {
      status = await Deno.readTextFile(exit).then((text) => text.trim(), () => "");
      if (/^\d+$/.test(status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const captured = await tmux("capture-pane", "-p", "-S", "-2000");
    assert.match(
      status,
      /^\d+$/,
      `the run ended within the bound:\n${new TextDecoder().decode(captured.stdout)}`,
    );
    return {
      lines: new TextDecoder().decode(captured.stdout).split("\n"),
      code: Number(status),
    };
  } finally {
    await tmux("kill-server");
    assertNoneLeft(await marker.reap(), "mcpeval in tmux");
  }
}

Deno.test({
  name: "--server-stderr inherit with live progress: every plain line survives on the final screen",
  ignore: !HAS_TMUX,
  fn: async () => {
    const { lines, code } = await finalScreen([
      "guidance",
      "--server",
      "h",
      "--server-stderr",
      "inherit",
      "--",
      ...hostile("stderr-hostile"),
    ]);
    assert.equal(code, 0, lines.join("\n"));
    for (const line of PLAIN) {
      assert.equal(lines.filter((shown) => shown.endsWith(`] ${line}`)).length, 1, line);
    }
    // The progress block stays below the server's lines, in its final state.
    const block = lines.findLastIndex((shown) => shown.startsWith("mcpeval: discovering h"));
    assert.ok(block > lines.findLastIndex((shown) => shown.endsWith("] plain line 8 of 8")));
    assert.deepEqual(
      lines.slice(block + 1, block + 6).map((shown) => shown.trim()),
      ["none", "roots", "sampling", "elicitation", "all"].map((p) =>
        `${p.padEnd(11)}  done, 2 tools`
      ),
    );
  },
});
