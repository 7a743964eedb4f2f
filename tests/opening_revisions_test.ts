/**
 * Opening a profile (issue 32), through the real CLI: a `--client-file` preset without
 * `protocol_version` negotiates from 2025-06-18 like the built-in ones, and a `server/discover`
 * probe that got no answer is not followed by a fallback that waits the whole timeout again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, fixtureLog, guidanceJson, hostile, profileNone, ROOT } from "./_cli.ts";

const TEST_PRESETS = join(ROOT, "fixtures", "clients", "test-clients.json");

type Profile = {
  profile: string;
  complete: boolean;
  protocol_version?: string;
  incomplete: { reason: string } | null;
};
const profilesOf = (report: unknown) => (report as { profiles: Profile[] }).profiles;

Deno.test("a --client-file preset without protocol_version accepts a server that answers 2024-11-05", async () => {
  await using log = await fixtureLog();
  const { code, report } = await guidanceJson([
    "--server",
    "h",
    "--settle-ms",
    "0",
    "--client",
    "tiny",
    "--client-file",
    TEST_PRESETS,
    "--",
    ...hostile("legacy-2024"),
  ], {
    permissions: [`--allow-run=${DENO}`, `--allow-read=${TEST_PRESETS}`],
    env: { MCPEVAL_FIXTURE_LOG: log.path },
  });
  const [profile] = profilesOf(report);
  assert.equal(profile.incomplete?.reason ?? null, null);
  assert.equal(profile.protocol_version, "2024-11-05");
  assert.ok(code === 0 || code === 1, `exit ${code}`);
  // It started from 2025-06-18 with initialize, as its client would (no server/discover).
  const asked = (log.entries() as { received?: { method?: string; params?: unknown } }[])
    .flatMap((e) => e.received?.method === "initialize" ? [e.received.params] : []);
  assert.deepEqual(asked.map((p) => (p as { protocolVersion: string }).protocolVersion), [
    "2025-06-18",
  ]);
  assert.equal(log.received("server/discover"), 0);
});

Deno.test("auto against a server that never answers: one timeout, and one fallback initialize", async () => {
  await using log = await fixtureLog();
  const { code, report } = await guidanceJson([
    ...profileNone(),
    "--timeout-ms",
    "300",
    "--protocol-version",
    "auto",
    "--",
    ...hostile("silent"),
  ], { env: { MCPEVAL_FIXTURE_LOG: log.path } });
  assert.deepEqual(profilesOf(report).map((p) => p.incomplete?.reason), ["timeout"]);
  assert.equal(code, 3);
  assert.equal(log.received("server/discover"), 1);
  assert.equal(log.received("initialize"), 1, "the fallback is tried once");
});

Deno.test("auto: after no answer to server/discover, the fallback initialize waits less than the timeout again", async () => {
  // The server ignores server/discover and answers initialize 2.5 s after it arrives: within
  // --timeout-ms (4 s), but past the fallback's own wait (1 s, SILENT_FALLBACK_MS). A slower
  // machine only makes the answer later, so the outcome does not depend on its speed.
  await using log = await fixtureLog();
  const { code, report } = await guidanceJson([
    ...profileNone(),
    "--timeout-ms",
    "4000",
    "--protocol-version",
    "auto",
    "--",
    ...hostile("legacy-silent-slow"),
  ], { env: { MCPEVAL_FIXTURE_LOG: log.path, MCPEVAL_FIXTURE_DELAY_MS: "2500" } });
  assert.deepEqual(profilesOf(report).map((p) => p.incomplete?.reason), ["timeout"]);
  assert.equal(code, 3);
  assert.equal(log.received("initialize"), 1);
});
