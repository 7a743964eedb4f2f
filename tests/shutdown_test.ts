/** The shutdown ladder's shortcut: a server request after stdin closed gets SIGTERM at once. */
import assert from "node:assert/strict";
import { SHUTDOWN_GRACE_MS } from "../src/limits.ts";
import { fixtureLog, guidanceJson, hostile, profileNone } from "./_cli.ts";

Deno.test({
  name: "a server that sends a request after its stdin closed gets SIGTERM without the grace",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    const { code } = await guidanceJson(
      [...profileNone("s"), "--", ...hostile("request-after-eof")],
      { env: { MCPEVAL_FIXTURE_LOG: log.path } },
    );
    assert.equal(code, 0);
    const entries = log.entries() as { signal?: string; ms_after_eof?: number }[];
    const term = entries.find((entry) => entry.signal === "SIGTERM");
    assert.ok(term, "the server was sent SIGTERM");
    // Without the shortcut SIGTERM would come after the whole grace: the bound is the grace
    // itself (not a fraction of it), so only a stall of a second or more could fail it.
    assert.ok(
      term.ms_after_eof! < SHUTDOWN_GRACE_MS,
      `SIGTERM ${term.ms_after_eof} ms after EOF`,
    );
  },
});
