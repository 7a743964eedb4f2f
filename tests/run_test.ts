/** The exit-code mapping of run(), in-process: a bug is exit 70 with one line, never a trace. */
import assert from "node:assert/strict";
import { type CliContext, run } from "../src/cli/run.ts";

function context(stdout: CliContext["stdout"]): CliContext & { errors: string[] } {
  const errors: string[] = [];
  return {
    stdout,
    stderr: (text) => Promise.resolve(void errors.push(text)),
    env: () => undefined,
    writeFile: () => Promise.reject(new Error("no files here")),
    color: false,
    errors,
  };
}

Deno.test("an unexpected error is an internal error: exit 70, one line on stderr", async () => {
  const ctx = context(() => Promise.reject(new TypeError("unexpected detail")));
  assert.equal(await run(["--version"], ctx), 70);
  assert.deepEqual(ctx.errors, ["mcpeval: internal error (TypeError); this is a bug in mcpeval\n"]);
});

Deno.test("schema guidance prints a draft 2020-12 JSON Schema", async () => {
  let printed = "";
  const ctx = context((text) => Promise.resolve(void (printed += text)));
  assert.equal(await run(["schema", "guidance"], ctx), 0);
  const schema = JSON.parse(printed);
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(schema.title, "mcpeval.guidance-report/v1");
  assert.deepEqual(ctx.errors, []);
});
