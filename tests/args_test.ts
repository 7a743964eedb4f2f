/** Every numeric and length limit of the command line is accepted at the limit itself. */
import assert from "node:assert/strict";
import { parseGuidanceArgs } from "../src/cli/args.ts";
import type { RunRequest } from "../src/request/run.ts";
import { UserError } from "../src/errors.ts";
import { CONCURRENCY, SETTLE_MS, TIMEOUT_MS } from "../src/limits.ts";
import { testContext } from "./_context.ts";

const effects = testContext();
const parse = async (...argv: string[]) => {
  const request = await parseGuidanceArgs(["--server", "s", ...argv, "--", "server"], effects);
  assert.ok("request" in request);
  return serverOf(request.request);
};

/** A run of one server's request, as discovery gets it. */
function serverOf({ servers, settings }: RunRequest) {
  assert.ok(servers.kind === "server");
  return { ...settings, ...servers };
}

Deno.test("numeric options at both ends of their range", async () => {
  for (
    const [option, range, key] of [
      ["--settle-ms", SETTLE_MS, "settleMs"],
      ["--timeout-ms", TIMEOUT_MS, "timeoutMs"],
      ["--concurrency", CONCURRENCY, "concurrency"],
    ] as const
  ) {
    assert.equal((await parse())[key], range.default);
    assert.equal((await parse(option, String(range.min)))[key], range.min);
    assert.equal((await parse(`${option}=${range.max}`))[key], range.max);
    await assert.rejects(() => parse(option, String(range.max + 1)), UserError);
    if (range.min > 0) {
      await assert.rejects(() => parse(option, String(range.min - 1)), UserError);
    }
  }
});

Deno.test("a 64-character server label and a 128-character required tool are accepted", async () => {
  const label = "s".repeat(64);
  const request = await parseGuidanceArgs(["--server", label, "--", "x"], effects);
  assert.ok("request" in request && serverOf(request.request).server === label);
  assert.deepEqual((await parse("--require-tool", "t".repeat(128))).requiredTools, [
    "t".repeat(128),
  ]);
});

Deno.test("profiles and required tools: duplicates collapse, canonical and sorted order", async () => {
  const options = await parse(
    "--profile=all",
    "--profile",
    "none",
    "--profile",
    "all",
    "--require-tool",
    "b",
    "--require-tool",
    "a",
    "--require-tool",
    "b",
  );
  assert.deepEqual(options.profiles, ["none", "all"]);
  assert.deepEqual(options.requiredTools, ["a", "b"]);
});

Deno.test("loopback URLs may use http:, remote ones need https: and --allow-remote-http", async () => {
  const url = async (...argv: string[]) => {
    const request = await parseGuidanceArgs(["--server", "s", ...argv], effects);
    assert.ok("request" in request);
    const { target } = serverOf(request.request);
    assert.ok(target.kind === "streamable-http");
    return target.url.host;
  };
  assert.equal(await url("--url", "http://localhost:1/mcp"), "localhost:1");
  assert.equal(await url("--url", "http://127.9.8.7/mcp"), "127.9.8.7");
  assert.equal(await url("--url", "http://[::1]:9/mcp"), "[::1]:9");
  assert.equal(
    await url("--allow-remote-http", "--url", "https://mcp.example.com/mcp"),
    "mcp.example.com",
  );
  await assert.rejects(() => url("--url", "http://127.0.0.1.example.com/mcp"), UserError);
  await assert.rejects(() => url("--url", "http://[::2]/mcp"), UserError);
});

Deno.test("--header reads the value from the environment", async () => {
  const request = await parseGuidanceArgs(
    ["--server", "s", "--header", "Authorization=TOKEN", "--url", "http://127.0.0.1:1/mcp"],
    testContext({ env: (name) => (name === "TOKEN" ? "Bearer x" : undefined) }),
  );
  assert.ok("request" in request);
  const { target } = serverOf(request.request);
  assert.ok(target.kind === "streamable-http");
  assert.deepEqual(target.headers, [["Authorization", "Bearer x"]]);
});
