/**
 * A signal at any moment of mcpeval's life, even before the CLI is loaded, ends it with
 * mcpeval's status (130, 129 for SIGHUP) and one line, never the runtime's default. The runs
 * here start with the signals ignored (a disposition the process inherits until it listens), and
 * the test sends the signal again and again from right after the spawn: a signal before
 * mcpeval listens is lost rather than fatal, so no moment can give the runtime's status, and the
 * first one after it listens must end the run. Each waits on standard input (a `--baseline -` or
 * a report to merge that never comes), where nothing else would end it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, ROOT } from "./_cli.ts";

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
  Deno.test(`an early ${signal} (${what}) exits ${expected} with mcpeval's line`, async () => {
    const child = new Deno.Command("bash", {
      args: [
        "-c",
        // The signals ignored, one byte on stderr to say so, then mcpeval in this process.
        'trap "" INT TERM HUP; printf . >&2; exec "$0" "$@"',
        DENO,
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
    // Standard input stays open, and unwritten, until the end.
    const stdin = child.stdin.getWriter();
    const stdout = new Response(child.stdout).text();
    const reader = child.stderr.getReader();
    let exited = false;
    const status = child.status.finally(() => exited = true);
    // Bounded: 30 s, then the run is killed and the test fails.
    const bound = setTimeout(() => child.kill("SIGKILL"), 30_000);
    // Once the signals are ignored (the first byte on stderr), a signal every 10 ms until the
    // run ends.
    const first = await reader.read();
    const rest = (async () => {
      const chunks = [first.value ?? new Uint8Array()];
      for (let chunk; !(chunk = await reader.read()).done;) chunks.push(chunk.value);
      return new TextDecoder().decode(await new Blob(chunks).bytes());
    })();
    const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
    while (!exited) {
      try {
        child.kill(signal);
      } catch {
        break; // it has exited
      }
      await pause();
    }
    clearTimeout(bound);
    const { code, signal: killedBy } = await status;
    await stdin.close().catch(() => {});
    const text = { stdout: await stdout, stderr: await rest };
    assert.ok(text.stderr.startsWith("."), "the shell ignored the signals first");
    text.stderr = text.stderr.slice(1);
    assert.equal(killedBy, null, "ended by mcpeval, not by the signal");
    assert.equal(code, expected);
    assert.equal(text.stdout, "");
    assert.equal(text.stderr, line);
  });
}
