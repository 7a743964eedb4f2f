/**
 * Live progress: on a terminal's stderr only, per profile, redrawn in place, and never on a pipe
 * or with --quiet. Run on a real pseudo-terminal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  configFile,
  DENO,
  entry,
  fixture,
  hostile,
  mcpeval,
  profileNone,
  tempDir,
  withoutPlainProgress,
} from "./_cli.ts";
import { baseEnv, HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const ESC = "\x1b[";
const PAGES = ["--server", "h", "--settle-ms", "300", "--", ...hostile("slow-pages")];
const DEMO = ["--server", "demo", "--settle-ms", "100", "--", ...fixture("demo/server.ts")];

/** The lines a live redraw showed, without escapes and line ends. */
function shownLines(screen: string): string[] {
  return screen.split(/\r?\n/).map((line) =>
    // deno-lint-ignore no-control-regex
    line.replaceAll(/\x1b\[[0-9;]*[A-Za-z]/g, "").replaceAll("\r", "")
  );
}

Deno.test({
  name: "progress on a terminal: each profile starts, settles, lists pages and is done, in place",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal(["guidance", ...PAGES], {
      env: { ...baseEnv(), NO_COLOR: "1" },
    });
    assert.equal(code, 0, screen);
    const lines = shownLines(screen);
    for (const profile of ["none", "roots", "sampling", "elicitation", "all"]) {
      const of = lines.filter((line) => line.startsWith(`  ${profile.padEnd(11)}  `));
      const states = of.map((line) => line.slice(15));
      assert.ok(states.includes("waiting"), `${profile}: ${states}`);
      assert.ok(states.some((s) => /^starting the server, initializing \(\d+\.\d s\)$/.test(s)));
      assert.ok(states.some((s) => /^settling, 300 ms window \(\d+\.\d s\)$/.test(s)));
      for (const pages of ["0 pages", "1 page", "2 pages"]) {
        assert.ok(
          states.some((s) =>
            new RegExp(`^listing tools, ${pages} so far \\(\\d+\\.\\d s\\)$`).test(s)
          ),
          `${profile}: ${states}`,
        );
      }
      assert.ok(states.includes("done, 3 tools"), `${profile}: ${states}`);
    }
    assert.ok(lines.some((line) => /^mcpeval: discovering h \(\d+\.\d s\)$/.test(line)));
    // Redrawn in place: the cursor goes back up over the six lines, each line is cleared first.
    assert.ok(screen.includes(`${ESC}6F${ESC}2Kmcpeval: discovering h`));
    // The report follows on the same terminal: the live lines were erased before it.
    const report = screen.indexOf("mcpeval guidance  server h");
    assert.ok(report > 0);
    assert.ok(screen.slice(0, report).endsWith(`${ESC}6F${ESC}0J`));
    assert.ok(!screen.slice(report).includes("discovering"), "no progress after the report");
  },
});

Deno.test({
  name: "progress on a terminal: an incomplete profile shows its reason",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal([
      "guidance",
      ...profileNone(),
      "--",
      ...hostile("list-error"),
    ]);
    assert.equal(code, 3);
    assert.ok(shownLines(screen).includes("  none  incomplete, list-error"), screen);
  },
});

Deno.test({
  name: "--quiet: no progress even on a terminal",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal(["guidance", "--quiet", ...DEMO]);
    assert.equal(code, 0);
    assert.ok(!screen.includes("discovering"), screen);
    assert.equal(shownLines(screen)[0], "mcpeval guidance  server demo");
  },
});

Deno.test({
  name: "stdout redirected, stderr a terminal: progress stays in its final state",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using dir = await tempDir();
    const out = join(dir.path, "report.json");
    const { screen, code } = await onTerminal(
      ["guidance", "--format", "json", "--profile", "none", ...DEMO],
      { redirect: `>${out}` },
    );
    assert.equal(code, 0);
    assert.deepEqual(shownLines(screen).slice(-3), [
      shownLines(screen).findLast((line) => line.startsWith("mcpeval: discovering demo"))!,
      "  none  done, 2 tools",
      "",
    ]);
    assert.equal(JSON.parse(await Deno.readTextFile(out)).profiles[0].tool_count, 2);
  },
});

Deno.test({
  name: "stderr redirected, stdout a terminal: nothing on stderr",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using dir = await tempDir();
    const err = join(dir.path, "stderr");
    const { screen, code } = await onTerminal(["guidance", ...DEMO], { redirect: `2>${err}` });
    assert.equal(code, 0);
    assert.equal(await Deno.readTextFile(err), "");
    assert.ok(!screen.includes("discovering"));
    assert.match(screen, /Result: passed/);
  },
});

Deno.test({
  name: "TERM=dumb: one plain line per change, no cursor movement",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal(["guidance", "--profile", "none", ...DEMO], {
      env: { ...baseEnv(), TERM: "dumb" },
      permissions: [`--allow-run=${DENO}`, "--allow-env=TERM,FORCE_COLOR"],
    });
    assert.equal(code, 0);
    assert.ok(!screen.includes(ESC), "no escape sequences on a dumb terminal");
    const lines = shownLines(screen);
    assert.deepEqual(lines.slice(0, 5), [
      "mcpeval: discovering demo, 1 profile(s)",
      "mcpeval: none: starting the server, initializing",
      "mcpeval: none: settling, 100 ms window",
      "mcpeval: none: listing tools, 0 pages so far",
      "mcpeval: none: done, 2 tools",
    ]);
  },
});

Deno.test("piped: nothing on stderr but a long run's plain lines, for a complete and an incomplete run", async () => {
  for (
    const args of [DEMO, ["--server", "h", "--settle-ms", "0", "--", ...hostile("list-error")]]
  ) {
    const result = await mcpeval(["guidance", ...args]);
    assert.ok([0, 3].includes(result.code));
    assert.equal(withoutPlainProgress(result.stderr), "");
    assert.match(result.stdout, /^mcpeval guidance {2}server /);
  }
});

Deno.test({
  name: "progress on a terminal for a fleet: every server's profiles under way, and done",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using config = await configFile({
      mcpServers: {
        pages: entry(hostile("slow-pages")),
        demo: entry(fixture("demo/server.ts")),
      },
    });
    const { screen, code } = await onTerminal(
      ["guidance", "--config", config.path, "--profile", "none", "--profile", "all"],
      {
        env: { ...baseEnv(), NO_COLOR: "1" },
        permissions: [`--allow-run=${DENO}`, `--allow-read=${config.path}`],
      },
    );
    assert.equal(code, 0, screen);
    const lines = shownLines(screen);
    assert.ok(
      lines.some((line) =>
        /^mcpeval: discovering 2 servers \(\d+\.\d s\): profiles \d finished, \d under way, \d waiting$/
          .test(line)
      ),
      screen,
    );
    // Each server's profiles were shown while under way, named by server and profile.
    for (const server of ["pages", "demo"]) {
      for (const profile of ["none", "all"]) {
        assert.ok(
          lines.some((line) =>
            new RegExp(`^  ${server} ${profile} +starting the server, initializing \\(`).test(line)
          ),
          `${server} ${profile}`,
        );
      }
    }
    assert.ok(lines.some((line) => /^ {2}pages none +listing tools, 2 pages so far/.test(line)));
    assert.ok(
      lines.some((line) => line.includes("profiles 4 finished, 0 under way, 0 waiting")),
    );
    // The live lines were erased before the report.
    const report = screen.indexOf("mcpeval guidance  config mcpServers, 2 servers");
    assert.ok(report > 0, screen);
    assert.ok(!screen.slice(report).includes("discovering"), "no progress after the report");
  },
});

Deno.test({
  name: "a fleet on a dumb terminal: one line per change, named by server and profile",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await using config = await configFile({
      mcpServers: { demo: entry(fixture("demo/server.ts")) },
    });
    const { screen, code } = await onTerminal(
      ["guidance", "--config", config.path, "--profile", "none", "--settle-ms", "100"],
      {
        env: { ...baseEnv(), TERM: "dumb" },
        permissions: [
          `--allow-run=${DENO}`,
          `--allow-read=${config.path}`,
          "--allow-env=TERM,FORCE_COLOR",
        ],
      },
    );
    assert.equal(code, 0, screen);
    assert.deepEqual(shownLines(screen).slice(0, 5), [
      "mcpeval: discovering 1 server(s)",
      "mcpeval: demo none: starting the server, initializing",
      "mcpeval: demo none: settling, 100 ms window",
      "mcpeval: demo none: listing tools, 0 pages so far",
      "mcpeval: demo none: done, 2 tools",
    ]);
  },
});
