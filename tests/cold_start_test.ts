/**
 * Cold starts (issue 33): a stdio server's first profile warms the package cache before the
 * others start, and the README's npx command and its install line and demo run from empty
 * caches (these need the npm registry: .ci/run runs them with it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertNoneLeft,
  DENO,
  guidanceJson,
  hostile,
  mcpeval,
  ProcessMarker,
  profileNone,
  ROOT,
  tempDir,
} from "./_cli.ts";
import { commands, installReadmeLine } from "./_readme.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import { mayDownload } from "../src/target.ts";

/** The fixed phrase of the timeout's hint about a first run's download. */
const STILL_DOWNLOADING = "a first npx or uvx run may still be downloading the package";

/** The cold-start fixture's command line, with its cache folder and mode. */
const coldStart = (cache: string, ...mode: string[]) => [
  "run",
  "--quiet",
  `--allow-read=${cache}`,
  `--allow-write=${cache}`,
  join(ROOT, "fixtures", "cold_start.ts"),
  cache,
  ...mode,
];

Deno.test("a server started by npx whose first start downloads: the other profiles start warm, all complete", async () => {
  await using cache = await tempDir();
  await using bin = await tempDir();
  // A program named npx, as a package runner is: it runs the fixture.
  const npx = join(bin.path, "npx");
  const line = [DENO, ...coldStart(cache.path, "2000")].map((word) => `'${word}'`).join(" ");
  await Deno.writeTextFile(npx, `#!/bin/sh\nexec ${line}\n`, { mode: 0o755 });
  const { code, report, stderr } = await guidanceJson(
    ["--server", "cold", "--settle-ms", "100", "--", npx],
    { boundMs: 120_000, permissions: [`--allow-run=${npx},${DENO}`] },
  );
  assert.equal(code, 0, stderr);
  assert.deepEqual(report.profiles.map((p) => p.complete), [true, true, true, true, true]);
});

Deno.test("a server that downloads nothing: its five profiles start at once", async () => {
  // Each start answers only once all five have begun: profiles started one after another
  // would never get there. The program is named `server`, not `deno` (every deno start may
  // download: `mayDownload`).
  await using cache = await tempDir();
  await using bin = await tempDir();
  const server = join(bin.path, "server");
  const line = [DENO, ...coldStart(cache.path, "together", "5")].map((word) => `'${word}'`)
    .join(" ");
  await Deno.writeTextFile(server, `#!/bin/sh\nexec ${line}\n`, { mode: 0o755 });
  const { code, report, stderr } = await guidanceJson(
    ["--server", "local", "--settle-ms", "0", "--", server],
    { boundMs: 120_000, permissions: [`--allow-run=${server},${DENO}`] },
  );
  assert.equal(code, 0, stderr);
  assert.deepEqual(report.profiles.map((p) => p.complete), [true, true, true, true, true]);
});

Deno.test("a local deno script whose first start downloads: the other profiles start warm, all complete", async () => {
  // `deno run` of a local file, as the README's demo is: its imports (or its project's
  // lockfile) may need a download the command line does not show.
  await using cache = await tempDir();
  const { code, report, stderr } = await guidanceJson(
    ["--server", "cold", "--settle-ms", "100", "--", DENO, ...coldStart(cache.path, "2000")],
    { boundMs: 120_000 },
  );
  assert.equal(code, 0, stderr);
  assert.deepEqual(report.profiles.map((p) => p.complete), [true, true, true, true, true]);
});

/** The npm registry npm is configured with (`npm config get registry`), or why there is none. */
async function npmRegistry(): Promise<URL | string> {
  try {
    const output = await new Deno.Command("npm", {
      args: ["config", "get", "registry"],
      stdin: "null",
      stderr: "null",
    }).output();
    const url = URL.parse(new TextDecoder().decode(output.stdout).trim());
    return output.success && url !== null ? url : "npm config get registry gave no URL";
  } catch {
    return "npm is not installed";
  }
}

/** Why the npm registry cannot be used from here (the cold tests need it), or undefined. */
async function registryProblem(): Promise<string | undefined> {
  const registry = await npmRegistry();
  if (typeof registry === "string") return registry;
  const net = await Deno.permissions.query({ name: "net", host: registry.host });
  if (net.state !== "granted") return `not allowed: run it with --allow-net=${registry.host}`;
  try {
    const response = await fetch(registry, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return response.ok ? undefined : `it answered HTTP ${response.status}`;
  } catch {
    return "it cannot be reached from here";
  }
}

const README_SERVER = "npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio";
const registry = await registryProblem();
if (registry !== undefined) {
  await Deno.stderr.write(
    new TextEncoder().encode(
      `SKIPPED the README's npx command from an empty npm cache: the npm registry: ${registry}\n`,
    ),
  );
}

Deno.test({
  name: "the README's npx command runs cold, from an empty npm cache",
  ignore: registry !== undefined,
  fn: async () => {
    const readme = await Deno.readTextFile(join(ROOT, "README.md"));
    assert.ok(readme.includes(`-- ${README_SERVER}\n`), "the README still shows this command");
    await using cache = await tempDir();
    const result = await mcpeval(
      ["guidance", "--server", "everything", "--format", "json", "--", ...README_SERVER.split(" ")],
      {
        permissions: ["--allow-run", "--allow-env"],
        env: { NPM_CONFIG_CACHE: cache.path, PATH: Deno.env.get("PATH") ?? "" },
        // Generous: a download on a slow network, five profiles, the default timeout.
        boundMs: 280_000,
      },
    );
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.complete, true);
  },
});

Deno.test({
  name:
    "the README's install line and demo run cold, from empty Deno and npm caches, one core busy",
  ignore: registry !== undefined || Deno.build.os === "windows",
  fn: async () => {
    await using root = await tempDir();
    await using denoDir = await tempDir();
    await using npmCache = await tempDir();
    const demo = commands().find((line) => line.startsWith("mcpeval guidance --server demo"));
    assert.ok(demo, "the README shows the demo");
    const marker = new ProcessMarker();
    // A shared CI machine: one core taken by a process of this test's own.
    const busy = new Deno.Command(DENO, {
      args: ["eval", "for (;;) {}"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const run = await installReadmeLine(root.path, marker, {
        env: { DENO_DIR: denoDir.path, NPM_CONFIG_CACHE: npmCache.path },
        // Generous: the download on a slow network, five profiles, the default timeout.
        boundMs: 280_000,
      });
      const report = await run(demo);
      assert.equal(report.code, 0, report.stderr);
      assert.match(report.stdout, /^mcpeval guidance {2}server demo\n[\s\S]*\nResult: passed/);
      assert.ok(!report.stdout.includes("incomplete"), report.stdout);
    } finally {
      busy.kill("SIGKILL");
      await busy.status;
    }
    assertNoneLeft(await marker.reap(), "the installed mcpeval, from empty caches");
  },
});

Deno.test("a timeout's hint says a first npx or uvx run may still be downloading, in every format", async () => {
  const args = [
    "--timeout-ms",
    "300",
    ...profileNone("slow"),
    "--",
    ...hostile("silent-initialize"),
  ];
  const { code, report } = await guidanceJson(args, { boundMs: 60_000 });
  assert.equal(code, 3);
  assert.equal(report.profiles[0].incomplete?.reason, "timeout");
  assert.ok(report.profiles[0].incomplete?.hint.includes(STILL_DOWNLOADING));
  for (const format of FORMATS.filter((id) => id !== "json")) {
    const result = await mcpeval(["guidance", "--format", format, ...args], { boundMs: 60_000 });
    assert.equal(result.code, 3);
    // The text report wraps its lines.
    const words = result.stdout.replace(/\s+/g, " ");
    assert.ok(words.includes(STILL_DOWNLOADING), `${format}: ${result.stdout}`);
  }
});

Deno.test("mayDownload: package runners, container engines and every deno start", () => {
  const stdio = (command: string, ...args: string[]) =>
    mayDownload({ kind: "stdio", command, args, stderr: "discard" });
  assert.ok(stdio("npx", "-y", "@modelcontextprotocol/server-everything"));
  assert.ok(stdio("/usr/local/bin/uvx", "mcp-server-fetch"));
  assert.ok(stdio("C:\\Program Files\\nodejs\\npx.cmd", "-y", "x"));
  assert.ok(stdio("docker", "run", "-i", "--rm", "mcp/github"));
  assert.ok(stdio("deno", "run", "npm:@modelcontextprotocol/server-memory"));
  // A local script: its imports, its deno.json's import map or its project's lockfile may need
  // a download (the README's demo: 169 npm packages of this repository's lockfile).
  assert.ok(stdio("deno", "run", "fixtures/demo/server.ts"));
  assert.ok(stdio("/home/me/.deno/bin/deno", "run", "--quiet", "server.ts"));
  assert.ok(stdio("deno", "server.ts"));
  assert.ok(stdio("deno", "task", "start"));
  assert.ok(stdio("deno", "serve", "server.ts"));
  assert.ok(stdio("deno", "x", "npm:@modelcontextprotocol/server-memory"));
  assert.ok(stdio("dx", "npm:@modelcontextprotocol/server-memory"));
  assert.ok(stdio("C:\\Users\\me\\.deno\\bin\\deno.exe", "run", "server.ts"));
  assert.ok(!stdio("node", "dist/server.js"));
  assert.ok(!stdio("/opt/npx-tools/server"));
  assert.ok(!stdio("/opt/deno-tools/server"));
  assert.ok(!stdio("denote"));
});
