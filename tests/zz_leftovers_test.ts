/** Runs last: after the whole suite, no fixture server is still running. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { processes, ROOT } from "./_cli.ts";

Deno.test({
  name: "no fixture or reference server process is left after the suite",
  ignore: Deno.build.os === "windows",
  fn: () => {
    const leftovers = processes().filter(({ args }) =>
      args.includes(join(ROOT, "fixtures")) || args.includes("server-everything")
    );
    assert.deepEqual(leftovers, []);
  },
});
