/** The exit-code mapping of run(), in-process: a bug is exit 70 with one line, never a trace. */
import assert from "node:assert/strict";
import { run } from "../src/cli/run.ts";
import { testContext } from "./_context.ts";

Deno.test("an unexpected error is an internal error: exit 70, one line on stderr", async () => {
  const ctx = testContext({ stdout: () => Promise.reject(new TypeError("unexpected detail")) });
  assert.equal(await run(["--version"], ctx), 70);
  assert.equal(ctx.err(), "mcpeval: internal error (TypeError); this is a bug in mcpeval\n");
});

Deno.test("schema guidance prints a draft 2020-12 JSON Schema", async () => {
  const ctx = testContext();
  assert.equal(await run(["schema", "guidance"], ctx), 0);
  const schema = JSON.parse(ctx.out());
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(schema.title, "mcpeval.guidance-report/v1");
  assert.equal(ctx.err(), "");
});
