/**
 * The reliability floor through the real CLI: SIGHUP, file inputs that would block, a server
 * that exits while a grandchild holds its stdout, and the server's stderr where a user sees it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, fixtureLog, hostile, isRunning, spawnMcpeval, tempDir, waitUntil } from "./_cli.ts";

Deno.test({
  name: "SIGHUP stops every server (they ignore stdin EOF), removes reserved files, exit 129",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    await using dir = await tempDir();
    const reserved = join(dir.path, "report.json");
    // silent-list never answers tools/list and never reads its stdin's end: only a signal stops it.
    const running = spawnMcpeval(
      [
        "guidance",
        "--server",
        "s",
        "--settle-ms",
        "0",
        "--output",
        `json=${reserved}`,
        "--",
        ...hostile("silent-list"),
      ],
      {
        permissions: [`--allow-run=${DENO}`, `--allow-write=${dir.path}`],
        env: { MCPEVAL_FIXTURE_LOG: log.path },
      },
    );
    await waitUntil(() => log.received("tools/list") >= 5, 20_000, 50);
    assert.equal(log.received("tools/list"), 5);
    const output = await running.stop("SIGHUP");
    assert.equal(output.code, 129);
    assert.equal(output.stdout, "");
    assert.equal(output.stderr, "mcpeval: hung up (SIGHUP); every server process was stopped\n");
    await assert.rejects(Deno.stat(reserved), Deno.errors.NotFound);
    const pids = log.pids();
    assert.equal(pids.length, 5);
    for (const pid of pids) assert.ok(!isRunning(pid), `server ${pid} survived`);
    await running.assertNoneLeft("mcpeval hung up");
  },
});
