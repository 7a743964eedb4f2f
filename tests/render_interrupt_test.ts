/**
 * A signal during a long render is acted on promptly (issue 39): `merge` claims the signals
 * before it renders, every format renders in pieces of bounded work, and the writer gives the
 * event loop a turn between them. The render is long by its size (tens of MiB of SARIF from
 * servers of many distinct findings), never by a sleep.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildReport } from "../src/report/build.ts";
import { buildFleetReport } from "../src/report/fleet/build.ts";
import { DENO, ROOT, tempDir } from "./_cli.ts";
import { outcome } from "./_outcomes.ts";

/** How long the test waits for the exit after the signal: generous, a loaded machine included. */
const EXIT_BOUND_MS = 20_000;

/**
 * A fleet report of `servers` servers whose instructions of profile `none` each name `named`
 * tools that only `elicitation` lists: as many review candidates each (about 14 MiB of JSON for
 * 12 x 4,000, nearly 60 MiB as SARIF).
 */
function fleetText(servers: number, named: number): string {
  const tools = Array.from({ length: named }, (_, i) => `tool-${i}`);
  const reports = Array.from({ length: servers }, (_, i) => {
    const server = `s${i + 1}`;
    return {
      name: server,
      report: buildReport(
        {
          server,
          requiredTools: [],
          settleMs: 0,
          timeoutMs: 1_000,
          target: { kind: "stdio" },
          protocolVersion: "2025-06-18",
          profiles: ["none", "elicitation"],
        },
        [outcome("none", [], tools), outcome("elicitation", tools, [])],
      ),
    };
  });
  return JSON.stringify(buildFleetReport("mcpServers", reports));
}

Deno.test("merge: SIGINT during a long render exits 130 promptly, the report unfinished and its files removed", async () => {
  await using dir = await tempDir();
  const input = join(dir.path, "fleet.json");
  await Deno.writeTextFile(input, fleetText(12, 4_000));
  const junit = join(dir.path, "merged.xml");
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--allow-read=${dir.path}`,
      `--allow-write=${dir.path}`,
      join(ROOT, "main.ts"),
      "merge",
      input,
      "--format",
      "sarif",
      "--output",
      `junit=${junit}`,
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  // The first chunk of stdout: the file is written, and the SARIF log is being rendered.
  const reader = child.stdout.getReader();
  const first = await reader.read();
  assert.equal(first.done, false, "the render started");
  const signalled = performance.now();
  child.kill("SIGINT");
  const bound = setTimeout(() => child.kill("SIGKILL"), EXIT_BOUND_MS);
  const chunks = [first.value!];
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
  }
  const { code } = await child.status;
  clearTimeout(bound);
  const waited = performance.now() - signalled;
  assert.equal(code, 130, `exit ${code} ${waited.toFixed(0)} ms after the signal`);
  assert.equal(await stderr, "mcpeval: interrupted; the merged report was not finished\n");
  const stdout = new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
  assert.ok(stdout.startsWith("{\n"), "a SARIF log had begun");
  assert.ok(!stdout.endsWith("\n}\n"), "the log was not finished");
  await assert.rejects(Deno.stat(junit), Deno.errors.NotFound, "the reserved file is removed");
});
