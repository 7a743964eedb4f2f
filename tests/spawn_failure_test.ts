/**
 * A server command that cannot be started is a value from discovery up: the CLI says it as one
 * line with exit 2 (and writes no report file), the library throws its `SpawnError`.
 */
import assert from "node:assert/strict";
import { run } from "../src/cli/run.ts";
import { SpawnError } from "../src/transport/stdio.ts";
import { runGuidance } from "../mod.ts";
import { testContext } from "./_context.ts";

const LINES = {
  "not-found":
    "mcpeval: Cannot start the server command: it was not found (check the command after '--' and PATH)\n",
  "permission-denied":
    "mcpeval: Cannot start the server command: permission denied (is it executable, and allowed by --allow-run?)\n",
  "other": "mcpeval: Cannot start the server command\n",
} as const;

Deno.test("the CLI: a server that cannot start is one line, exit 2, no report", async () => {
  for (const [failure, line] of Object.entries(LINES)) {
    const ctx = testContext({
      openTransport: () => Promise.reject(new SpawnError(failure as keyof typeof LINES)),
    });
    const argv = ["guidance", "--server", "s", "--output", "json=r.json", "--", "x"];
    assert.equal(await run(argv, ctx), 2, failure);
    assert.equal(ctx.err(), line);
    assert.equal(ctx.out(), "");
    assert.equal(ctx.files.size, 0);
  }
});

Deno.test("the library: runGuidance throws the SpawnError of a command that cannot start", async () => {
  await assert.rejects(
    runGuidance({
      server: "missing",
      target: { kind: "stdio", command: "/nonexistent/mcpeval-no-such-server" },
      profiles: ["none"],
      settleMs: 0,
    }),
    (error: Error) => {
      assert.ok(error instanceof SpawnError, error.name);
      assert.equal(error.failure, "not-found");
      return true;
    },
  );
});
