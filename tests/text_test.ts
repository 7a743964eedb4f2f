/**
 * The text report a person reads at a glance: it fits the terminal (at most 100 columns when
 * not a terminal), groups candidates per tool, says when candidates cannot occur, suggests a
 * likely tool for a misspelt --require-tool, and follows FORCE_COLOR, NO_COLOR and TERM=dumb.
 */
import assert from "node:assert/strict";
import { wrap } from "../src/report/formats/text.ts";
import { DENO, fixture, hostile, mcpeval } from "./_cli.ts";
import { baseEnv, HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const DEMO = ["--server", "demo", "--settle-ms", "100", "--", ...fixture("demo/server.ts")];
/** Long lines: candidates, a defect with a suggestion. */
const LONG = [
  "guidance",
  "--require-tool",
  "serach-notes",
  "--require-tool",
  "a-required-tool-with-a-rather-long-name-that-no-server-lists",
  ...DEMO,
];
const ESC = "\x1b[";

/** An ANSI escape sequence. */
const ANSI = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;]*[A-Za-z]`, "g");

function widest(text: string): number {
  return Math.max(...text.split(/\r?\n/).map((line) => line.replace(ANSI, "").length));
}

Deno.test("not a terminal: no line is wider than 100 columns", async () => {
  for (
    const args of [
      LONG,
      ["guidance", "--server", "h", "--settle-ms", "0", "--", ...hostile("exit-at-start")],
    ]
  ) {
    const result = await mcpeval(args);
    assert.ok(widest(result.stdout) <= 100, result.stdout);
  }
});

Deno.test({
  name: "on a terminal of 60 columns: no line is wider than 60",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const { screen, code } = await onTerminal([...LONG.slice(0, 1), "--quiet", ...LONG.slice(1)], {
      columns: 60,
      env: { ...baseEnv(), NO_COLOR: "1" },
    });
    assert.equal(code, 1);
    assert.ok(widest(screen) <= 60, screen);
    assert.ok(widest(screen) > 50, "the width is used");
    // A wrapped line continues under its text.
    assert.match(
      screen,
      /\r\n {2}serach-notes {2}missing from none, roots, sampling,\r\n {16}elicitation, all; listed in no selected\r\n {16}profile; did you mean search-notes\?\r\n/,
    );
  },
});

Deno.test("a misspelt --require-tool: did you mean the tool a profile lists", async () => {
  const result = await mcpeval(LONG);
  assert.equal(result.code, 1);
  assert.match(
    result.stdout,
    /\n {2}serach-notes {2}missing from none, roots, sampling, elicitation, all; listed in no selected profile;\n {16}did you mean search-notes\?\n/,
  );
  assert.ok(
    !/a-required-tool-with-a-rather-long-name-that-no-server-lists[^\n]*did you mean/.test(
      result.stdout,
    ),
  );
});

Deno.test("one profile selected: the report says candidates need two or more", async () => {
  const result = await mcpeval(["guidance", "--profile", "roots", ...DEMO]);
  assert.equal(result.code, 0);
  assert.match(
    result.stdout,
    /\nResult: passed: no required tools declared; no review candidates: they need two or more profiles\n$/,
  );
});

Deno.test("FORCE_COLOR colours a piped report; FORCE_COLOR=0 and NO_COLOR do not", async () => {
  const permissions = [`--allow-run=${DENO}`, "--allow-env=FORCE_COLOR,TERM"];
  const args = ["guidance", "--profile", "none", ...DEMO];
  const forced = await mcpeval(args, { permissions, env: { FORCE_COLOR: "1", NO_COLOR: "" } });
  assert.ok(forced.stdout.includes(`${ESC}1m`), "FORCE_COLOR=1");
  const both = await mcpeval(args, { permissions, env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
  assert.ok(both.stdout.includes(`${ESC}1m`), "FORCE_COLOR wins over NO_COLOR, as in Node.js");
  const off = await mcpeval(args, { permissions, env: { FORCE_COLOR: "0" } });
  assert.ok(!off.stdout.includes(ESC));
  const unread = await mcpeval(args, { env: { FORCE_COLOR: "1" } });
  assert.ok(!unread.stdout.includes(ESC), "without --allow-env the variable is not read");
});

Deno.test({
  name: "on a terminal: colour, none with TERM=dumb, NO_COLOR or FORCE_COLOR=0",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const permissions = [`--allow-run=${DENO}`, "--allow-env=FORCE_COLOR,TERM"];
    const args = ["guidance", "--quiet", "--profile", "none", ...DEMO];
    const shown = async (env: Record<string, string>) =>
      (await onTerminal(args, { permissions, env: { ...baseEnv(), ...env } })).screen;
    assert.ok((await shown({ TERM: "xterm" })).includes(`${ESC}32mResult: passed`));
    assert.ok(!(await shown({ TERM: "dumb" })).includes(ESC));
    assert.ok(!(await shown({ TERM: "xterm", NO_COLOR: "1" })).includes(ESC));
    assert.ok(!(await shown({ TERM: "xterm", FORCE_COLOR: "0" })).includes(ESC));
  },
});

Deno.test("wrap: every line fits, even with a 128-character word and a deep indent", () => {
  for (const width of [40, 60, 100]) {
    for (const [indent, hang] of [[2, 4], [66, 66], [0, 0]]) {
      const lines = wrap(`one ${"t".repeat(128)} two three`, width, indent, hang);
      assert.ok(lines.every((line) => line.length <= width), `${width} ${indent}: ${lines}`);
      assert.equal(lines.join("").replaceAll(" ", ""), `one${"t".repeat(128)}twothree`);
    }
  }
});
