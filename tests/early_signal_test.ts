/**
 * A signal before any server started ends mcpeval with its own status (130, 129 for SIGHUP) and
 * one line, never the runtime's default. Each run here waits on standard input (a
 * `--baseline -`, or a report to merge, that never ends), where nothing else would end it.
 *
 * The signal is sent once mcpeval is known to be reading standard input, never earlier: Deno
 * hooks SIGINT, SIGTERM and SIGHUP together when the first listener is added, and a signal in
 * the microseconds before mcpeval's listener for it is added gets the runtime's default (see
 * `src/cli/interrupts.ts`), so a test that signals at every moment fails now and then whatever
 * mcpeval does. That mcpeval listens from the first statement of `main.ts`, before any other
 * module loads, is checked from the source instead.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, ROOT } from "./_cli.ts";

/** More than a pipe holds: the write ends only once mcpeval has read from standard input. */
const PAST_THE_PIPE = new TextEncoder().encode(" ".repeat(1_048_576));

const CASES: [string, string[], Deno.Signal, number, string][] = [
  [
    "guidance reading --baseline -",
    ["guidance", "--server", "demo", "--baseline", "-", "--", DENO, "run", "server.ts"],
    "SIGINT",
    130,
    "mcpeval: interrupted before any server started\n",
  ],
  [
    "guidance reading --baseline -",
    ["guidance", "--server", "demo", "--baseline", "-", "--", DENO, "run", "server.ts"],
    "SIGTERM",
    130,
    "mcpeval: interrupted before any server started\n",
  ],
  [
    "merge reading -",
    ["merge", "-"],
    "SIGHUP",
    129,
    "mcpeval: hung up (SIGHUP) before any server started\n",
  ],
  [
    "merge reading -",
    ["merge", "-"],
    "SIGINT",
    130,
    "mcpeval: interrupted before any server started\n",
  ],
];

for (const [what, args, signal, expected, line] of CASES) {
  Deno.test(`a ${signal} before any server started (${what}) exits ${expected} with mcpeval's line`, async () => {
    const child = new Deno.Command(DENO, {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        `--allow-run=${DENO}`,
        join(ROOT, "main.ts"),
        ...args,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = child.output();
    // Bounded: 30 s, then the run is killed and the test fails.
    const bound = setTimeout(() => child.kill("SIGKILL"), 30_000);
    // Standard input stays open, its text unfinished, until the end.
    const stdin = child.stdin.getWriter();
    try {
      await stdin.write(PAST_THE_PIPE);
      child.kill(signal);
    } catch {
      // mcpeval ended before reading: the assertions below say how.
    }
    const { code, signal: killedBy, stdout, stderr } = await output;
    clearTimeout(bound);
    await stdin.close().catch(() => {});
    assert.equal(killedBy, null, "ended by mcpeval, not by the signal");
    assert.equal(code, expected);
    assert.equal(new TextDecoder().decode(stdout), "");
    assert.equal(new TextDecoder().decode(stderr), line);
  });
}

Deno.test("main.ts listens for signals in its first statement, before any other module loads", async () => {
  const main = await Deno.readTextFile(join(ROOT, "main.ts"));
  const body = main.slice(main.indexOf("if (import.meta.main) {"));
  const first = body.split("\n").slice(1).find((text) => !/^\s*(\/\/.*)?$/.test(text));
  assert.equal(first?.trim(), "listenForSignals();");
  // Before it, only the listener's module is loaded: every other import is of types.
  const values = [...main.matchAll(/^import (?!type )[^;]*? from "([^"]+)";$/gms)].map((m) => m[1]);
  assert.deepEqual(values, ["./src/cli/interrupts.ts"]);
  const interrupts = await Deno.readTextFile(join(ROOT, "src", "cli", "interrupts.ts"));
  const imports = [...interrupts.matchAll(/^import (?!type )[^;]*? from "([^"]+)";$/gms)].map((m) =>
    m[1]
  );
  assert.deepEqual(imports, ["../exit.ts"]);
});
