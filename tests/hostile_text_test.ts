/**
 * Hostile text and huge messages (issue #15): reference detection completes on pathological
 * instructions, instructions past the bound end the profile, huge messages are refused, a busy
 * mcpeval never blames a fast server, and a signal in the middle of the worst analysis ends the
 * run. How fast, and at what peak memory, is measured by `deno task bench` (cases 3 and 7), not
 * asserted here: no test depends on the machine's speed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { run } from "../src/cli/run.ts";
import { MAX_INSTRUCTIONS_BYTES } from "../src/limits.ts";
import {
  assertNoneLeft,
  DENO,
  fixtureLog,
  guidanceJson,
  hostile,
  isRunning,
  ProcessMarker,
  profileNone,
  ROOT,
  spawnMcpeval,
  waitUntil,
} from "./_cli.ts";
import { testContext } from "./_context.ts";

const FAMILIES = [
  "instructions-brackets",
  "instructions-links",
  "instructions-images",
  "instructions-comments",
  "instructions-lists",
  "instructions-backticks",
  "instructions-at-limit",
];

for (const scenario of FAMILIES) {
  Deno.test(`hostile instructions (${scenario}, about 1 MiB): complete, alpha found`, async () => {
    const { code, report } = await guidanceJson([
      "--server",
      "h",
      "--profile",
      "none",
      "--profile",
      "all",
      "--settle-ms",
      "0",
      "--require-tool",
      "alpha",
      "--",
      ...hostile(scenario),
    ]);
    assert.equal(code, 0);
    assert.ok(report.complete);
  });
}

Deno.test(`instructions past ${MAX_INSTRUCTIONS_BYTES} bytes: instructions-too-large`, async () => {
  const { code, report } = await guidanceJson([
    ...profileNone(),
    "--",
    ...hostile("instructions-too-large"),
  ]);
  assert.equal(code, 3);
  assert.equal(report.profiles[0].incomplete!.reason, "instructions-too-large");
  assert.equal(report.profiles[0].instructions_present, true);
});

// The structure bound on stdio, at full size (the peak memory of five profiles of each, and of
// a 64 MiB line, is printed by `deno task bench`, case 3). The longest --timeout-ms: a deadline
// no machine's speed reaches, so only the bound can end the profile.
for (
  const scenario of [
    "huge-empty-objects", // 20 million {} in one 60 MB line
    "huge-nesting", // 30 million nested arrays
  ]
) {
  Deno.test(`${scenario}: message-too-large`, async () => {
    const { code, report } = await guidanceJson([
      ...profileNone(),
      "--timeout-ms",
      "300000",
      "--",
      ...hostile(scenario),
    ]);
    assert.equal(code, 3);
    assert.equal(report.profiles[0].incomplete?.reason, "message-too-large");
  });
}

Deno.test("a fast server is never reported timeout while another profile's page is parsed", async () => {
  // The none profile gets a 45 MB page that takes mcpeval a few hundred milliseconds to parse;
  // the others' answers arrive 200 ms after their request, while mcpeval is busy parsing. The
  // timeout leaves room for a loaded machine (at 300 ms a starved fixture was late for real
  // about one run in three under load); the late-read grace is what keeps it from firing early.
  const { report } = await guidanceJson(
    [
      "--server",
      "h",
      "--settle-ms",
      "0",
      "--timeout-ms",
      "1500",
      "--",
      ...hostile("slow-page-for-none"),
    ],
    { env: { MCPEVAL_FIXTURE_DELAY_MS: "200" } },
  );
  for (const profile of report.profiles.slice(1)) {
    assert.equal(profile.incomplete, null, `${profile.profile}: ${profile.incomplete?.reason}`);
    assert.deepEqual(profile.tools, ["alpha", "beta"]);
  }
});

Deno.test({
  name: "SIGTERM while 1 MB hostile instructions are analysed: exit 130, no server left",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    const running = spawnMcpeval(
      ["guidance", "--server", "h", "--settle-ms", "5000", "--", ...hostile("instructions-lists")],
      { env: { MCPEVAL_FIXTURE_LOG: log.path } },
    );
    const initialized = () => log.received("notifications/initialized");
    // Bounded wait until the servers sent their 1 MB instructions and mcpeval analysed them (the
    // first profile's server starts alone, the other four once it has answered).
    await waitUntil(() => initialized() >= 5, 20_000, 10);
    assert.ok(initialized() >= 5);
    const output = await running.stop("SIGTERM");
    assert.equal(output.code, 130);
    assert.equal(output.stdout, "");
    for (const pid of log.pids()) assert.ok(!isRunning(pid), `server ${pid} survived`);
    await running.assertNoneLeft("mcpeval interrupted");
  },
});

Deno.test("a server command with a line break is never echoed: one stderr line", async () => {
  const ctx = testContext({ permission: () => Promise.resolve("prompt") });
  const code = await run(["guidance", "--server", "s", "--", "node\n::error::INJECTED"], ctx);
  assert.equal(code, 2);
  assert.equal(
    ctx.err(),
    "mcpeval: Permission to run the server command is missing: add --allow-run (for a value that cannot be shown)\n",
  );
});

Deno.test("a --header value HTTP cannot carry: exit 2 before anything starts", async () => {
  for (const value of ["caf\u00e9", "a\u0007b", "a\u007fb", " padded"]) {
    const ctx = testContext({ env: (name) => (name === "TOKEN" ? value : undefined) });
    const code = await run([
      "guidance",
      "--server",
      "s",
      "--header",
      "Authorization=TOKEN",
      "--url",
      "http://127.0.0.1:1/mcp",
    ], ctx);
    assert.equal(code, 2);
    assert.match(
      ctx.err(),
      /^mcpeval: --header Authorization: environment variable TOKEN holds a value HTTP cannot carry/,
    );
    assert.ok(!ctx.err().includes(value));
    assert.deepEqual(ctx.opened, []);
  }
});

Deno.test("a step summary path with a line break is never echoed", async () => {
  const ctx = testContext({
    env: (name) => (name === "GITHUB_STEP_SUMMARY" ? "/tmp/a\n::error::INJECTED" : undefined),
    permission: (descriptor) => Promise.resolve(descriptor.name === "write" ? "prompt" : "granted"),
  });
  const code = await run(["guidance", "--server", "s", "--format", "github", "--", "srv"], ctx);
  assert.equal(code, 2);
  assert.equal(
    ctx.err(),
    "mcpeval: Permission to write the step summary is missing: add --allow-write (for a value that cannot be shown)\n",
  );
});

Deno.test({
  name: "stdout on a full device: exit 74, one stderr line",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const marker = new ProcessMarker();
    const output = await new Deno.Command("sh", {
      args: [
        "-c",
        'exec "$@" > /dev/full',
        "sh",
        DENO,
        "run",
        "--quiet",
        `--allow-run=${DENO}`,
        join(ROOT, "main.ts"),
        "guidance",
        "--server",
        "s",
        "--profile",
        "none",
        "--settle-ms",
        "0",
        "--",
        ...hostile("default"),
      ],
      env: { NO_COLOR: "1", ...marker.env },
      stdout: "null",
      stderr: "piped",
    }).output();
    assertNoneLeft(await marker.reap(), "mcpeval with stdout on /dev/full");
    assert.equal(output.code, 74);
    assert.equal(
      new TextDecoder().decode(output.stderr),
      "mcpeval: The report could not be written to standard output (no space left on the device)\n",
    );
  },
});
