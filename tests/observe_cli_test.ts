/**
 * `--observe` mistakes through the CLI, none of which needs a client or the npm registry: a value
 * that is not NAME[@VERSION], a client the lab cannot run, the permissions of its own (one line
 * naming the exact flags), and a client that cannot be installed (exit 2, one line, before any
 * discovery: the server never hears from mcpeval).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, mcpeval, ROOT, tempDir } from "./_cli.ts";
import { newestObserved } from "../src/clients/presets.ts";

const OBSERVE_FLAGS = [
  "--allow-run",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net=127.0.0.1",
];
const DEMO = ["--", DENO, "run", "--quiet", join(ROOT, "fixtures", "demo", "server.ts")];

/** Exit 2 with exactly one line on stderr, which `pattern` matches. */
function assertOneLine(result: { code: number; stdout: string; stderr: string }, pattern: RegExp) {
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(result.stderr.split("\n").filter((line) => line !== "").length, 1, result.stderr);
  assert.match(result.stderr, pattern);
}

Deno.test("--observe takes NAME, NAME@VERSION or NAME@latest, and nothing else", async () => {
  for (const value of ["Claude", "claude-code@2.1", "claude-code@newest", "@2.1.332"]) {
    assertOneLine(
      await mcpeval(["guidance", "--observe", value, ...DEMO], { permissions: OBSERVE_FLAGS }),
      /^mcpeval: --observe must be a client name \(a-z, 0-9, '-'\), optionally with @VERSION \(MAJOR\.MINOR\.PATCH\) or @latest\n$/,
    );
  }
});

Deno.test("--observe names a client the lab runs headless, or says why it cannot", async () => {
  assertOneLine(
    await mcpeval(["guidance", "--observe", "claude-cod", ...DEMO], { permissions: OBSERVE_FLAGS }),
    /^mcpeval: --observe must name a client the lab runs headless: claude-code, cline, .*; did you mean claude-code\?\n$/,
  );
  assertOneLine(
    await mcpeval(["guidance", "--observe", "vscode", ...DEMO], { permissions: OBSERVE_FLAGS }),
    /^mcpeval: --observe cannot run vscode: an editor, not on the npm registry\n$/,
  );
});

Deno.test("--observe has permissions of its own: one line with the exact flags", async () => {
  assertOneLine(
    await mcpeval(["guidance", "--observe", "claude-code", ...DEMO]),
    /^mcpeval: Permission to run a real client \(--observe\) is missing: add --allow-run --allow-env --allow-read --allow-write --allow-net=127\.0\.0\.1/,
  );
});

Deno.test("--observe of a client that cannot be installed: exit 2, one line, before any discovery", async () => {
  await using dir = await tempDir();
  // A registry that has nothing (ours, on a port it holds): npm fails at once.
  await using registry = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("{}", { status: 404, headers: { "content-type": "application/json" } }),
  );
  const log = join(dir.path, "server.jsonl");
  await Deno.writeTextFile(log, "");
  const result = await mcpeval(
    [
      "guidance",
      "--profile",
      "none",
      "--observe",
      "claude-code",
      "--",
      DENO,
      "run",
      "--quiet",
      `--allow-write=${log}`,
      join(ROOT, "fixtures", "observe_server.ts"),
      "stdio",
      log,
    ],
    {
      permissions: OBSERVE_FLAGS,
      env: {
        MCPEVAL_LAB_CACHE: join(dir.path, "cache"),
        npm_config_registry: `http://127.0.0.1:${(registry.addr as Deno.NetAddr).port}/`,
        npm_config_fetch_retries: "0",
        npm_config_cache: join(dir.path, "npm-cache"),
        npm_config_offline: "false",
      },
      boundMs: 120_000,
    },
  );
  assertOneLine(
    result,
    // Without a version: the newest observed one, the version `--client claude-code` selects.
    new RegExp(
      `^mcpeval: --observe: claude-code ${
        newestObserved("claude-code")!.replaceAll(".", "\\.")
      } could not be installed from the npm registry \\(within 600 s\\)\n$`,
    ),
  );
  assert.equal(await Deno.readTextFile(log), "", "the server never heard from mcpeval");
});
