/**
 * The lab's revision probe servers, as real processes over stdio: each answers only its one
 * revision (`lab/revision_answers.ts`), serves its one plain tool, and records what the client
 * opened with and whether it listed tools, across restarts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { probeDescription, REVISION_SERVERS, REVISION_TOOL } from "../src/lab/probe_catalog.ts";
import { revisionAnswer } from "../src/lab/revision_answers.ts";
import { PROTOCOL_VERSIONS, type ProtocolVersion } from "../src/protocol/versions.ts";
import { ROOT } from "./_cli.ts";

const OPENING = [
  { jsonrpc: "2.0", id: 0, method: "server/discover", params: {} },
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "mcpeval-test", version: "0" },
    },
  },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
];

/** Starts the probe server `id` recording into `dir` (bounded: ended after 60 s at most). */
function probeServer(id: string, dir: string) {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--cached-only",
      `--config=${join(ROOT, "deno.json")}`,
      `--allow-read=${dir}`,
      `--allow-write=${dir}`,
      join(ROOT, "src", "lab", "probe_server.ts"),
      id,
      dir,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(60_000),
  }).spawn();
}

Deno.test("one revision probe server per known revision", () => {
  assert.deepEqual(Object.values(REVISION_SERVERS), PROTOCOL_VERSIONS);
});

for (const [id, revision] of Object.entries(REVISION_SERVERS)) {
  Deno.test(`${id}: answers only ${revision}, lists its one tool, records the opening`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "mcpeval-lab-test-" });
    try {
      const child = probeServer(id, dir);
      const writer = child.stdin.getWriter();
      await writer.write(
        new TextEncoder().encode(OPENING.map((m) => JSON.stringify(m)).join("\n") + "\n"),
      );
      // Read until the three answers are in, then end the server by closing its stdin.
      const answers = new Map<number, Record<string, unknown>>();
      let buffer = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        for (const line of lines) {
          if (line.trim()) {
            const message = JSON.parse(line);
            answers.set(message.id, message);
          }
        }
        if (answers.size === 3) break;
      }
      await writer.close();
      await child.status;
      const expect = (n: number) =>
        revisionAnswer(revision as ProtocolVersion, OPENING[n].method, n, OPENING[n].params);
      assert.deepEqual(answers.get(0), expect(0));
      assert.deepEqual(answers.get(1), expect(1));
      const tools = (answers.get(2)!.result as { tools: { name: string; description: string }[] })
        .tools;
      assert.deepEqual(tools.map((t) => [t.name, t.description]), [
        [REVISION_TOOL.name, probeDescription(id, 0)],
      ]);
      const methods = async () =>
        JSON.parse(await Deno.readTextFile(join(dir, `${id}.json`))).opening.map((
          m: { method: string },
        ) => m.method);
      assert.deepEqual(await methods(), ["server/discover", "initialize", "tools/list"]);
      // Started again (a client that restarts a server) and sent nothing: the record is kept.
      const again = probeServer(id, dir);
      await again.stdin.close();
      await again.stdout.cancel();
      await again.status;
      assert.deepEqual(await methods(), ["server/discover", "initialize", "tools/list"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
