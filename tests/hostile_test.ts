/**
 * Broken and hostile stdio servers: each is classified exactly. No case depends on the
 * machine's speed: only the cases that end `timeout` get a short `--timeout-ms` (a server that
 * never answers cannot answer sooner on a faster machine); every other case gets the default
 * 30 s, a deadline its server cannot reach; and the message bound is tested at a bound injected
 * small (in-process), not with 64 MiB lines.
 */
import assert from "node:assert/strict";
import { CANARY } from "../fixtures/hostile.ts";
import { ANSWERS_BY_PROFILE } from "./_answers.ts";
import {
  fixture,
  fixtureLog,
  guidanceJson,
  hostile,
  mcpeval,
  withoutPlainProgress,
} from "./_cli.ts";
import { guidanceInProcess } from "./_context.ts";

/** No settle window; the default `--timeout-ms` (30 s). */
const FAST = ["--settle-ms", "0"];
/** For the servers that never answer: the timeout itself is what is tested. */
const SHORT_DEADLINE = ["--timeout-ms", "1000"];

/** [scenario, expected reason or "complete", extra check]. */
const CASES: [
  string,
  string,
  ((report: Awaited<ReturnType<typeof guidanceJson>>["report"]) => void)?,
][] = [
  [
    "pages-20",
    "complete",
    (r) => assert.deepEqual([r.profiles[0].pages, r.profiles[0].tool_count], [20, 20]),
  ],
  ["pages-21", "incomplete-pagination", (r) => assert.equal(r.profiles[0].pages, 20)],
  ["tools-10000", "complete", (r) => assert.equal(r.profiles[0].tool_count, 10_000)],
  ["tools-10001", "incomplete-pagination"],
  ["cursor-repeat", "incomplete-pagination"],
  ["cursor-null", "malformed-cursor"],
  ["cursor-number", "malformed-cursor"],
  ["cursor-empty", "malformed-cursor"],
  ["duplicate-in-page", "duplicate-tool"],
  ["duplicate-across-pages", "duplicate-tool"],
  ["entry-no-name", "malformed-entry"],
  ["entry-name-number", "malformed-entry"],
  ["entry-name-space", "malformed-entry"],
  ["entry-name-control", "malformed-entry"],
  ["entry-name-ansi", "malformed-entry"],
  ["entry-name-128", "complete", (r) => assert.deepEqual(r.profiles[0].tools, ["n".repeat(128)])],
  ["entry-name-129", "malformed-entry"],
  ["entry-no-input-schema", "malformed-entry"],
  ["tools-not-array", "malformed-entry"],
  ["non-json-line", "malformed-message"],
  ["batch", "malformed-message"],
  ["both-result-and-error", "malformed-message"],
  ["silent-initialize", "timeout", (r) => assert.equal(r.profiles[0].instructions_present, null)],
  ["silent-list", "timeout", (r) => assert.equal(r.profiles[0].instructions_present, true)],
  [
    "exit-after-initialize",
    "transport-lost",
    (r) =>
      assert.deepEqual(r.profiles[0].incomplete?.detail, {
        cause: "exited-after-initialize",
        exit_code: 0,
      }),
  ],
  [
    "exit-at-start",
    "transport-lost",
    (r) =>
      assert.deepEqual(r.profiles[0].incomplete?.detail, {
        cause: "exited-before-initialize",
        exit_code: 1,
      }),
  ],
  [
    "exit-mid-pagination",
    "transport-lost",
    (r) => {
      assert.equal(r.profiles[0].pages, 1);
      assert.equal(r.profiles[0].incomplete?.detail?.cause, "exited-after-initialize");
    },
  ],
  ["initialize-error", "initialization-error"],
  ["initialize-invalid", "initialization-error"],
  ["instructions-not-string", "initialization-error"],
  ["no-instructions", "complete", (r) => assert.equal(r.profiles[0].instructions_present, false)],
  ["list-error", "list-error"],
  [
    "version-mismatch",
    "protocol-version-mismatch",
    (r) => assert.equal(r.profiles[0].instructions_present, null),
  ],
  [
    "no-tools-capability",
    "complete",
    (r) => assert.deepEqual([r.profiles[0].tools, r.profiles[0].pages], [[], 0]),
  ],
  ["flood", "complete"],
  ["late-trickle", "timeout"],
  ["unknown-response-id", "complete", (r) => assert.deepEqual(r.profiles[0].tools, ["alpha"])],
];

for (const [scenario, expected, check] of CASES) {
  Deno.test(`hostile stdio server: ${scenario} → ${expected}`, async () => {
    const { code, report } = await guidanceJson([
      "--server",
      "hostile",
      "--profile",
      "none",
      ...FAST,
      ...(expected === "timeout" ? SHORT_DEADLINE : []),
      "--",
      ...hostile(scenario),
    ]);
    const [profile] = report.profiles;
    if (expected === "complete") {
      assert.equal(code, 0);
      assert.equal(profile.complete, true, JSON.stringify(profile.incomplete));
      assert.equal(report.passed, true);
    } else {
      assert.equal(code, 3);
      assert.equal(profile.incomplete?.reason, expected);
      assert.deepEqual([profile.tools, profile.tool_count], [null, null]);
      assert.deepEqual([report.complete, report.passed, report.candidates, report.defects], [
        false,
        null,
        [],
        [],
      ]);
    }
    check?.(report);
  });
}

/** The message bound injected into the in-process CLI (and the fixture's lines sized for it). */
const SMALL_MESSAGE_BYTES = 4_096;

for (
  const [scenario, expected] of [
    ["line-at-limit", "complete"],
    ["line-over-limit", "message-too-large"],
  ] as const
) {
  // In-process transports: the op and resource sanitizers on (STYLE: transport tests).
  Deno.test(
    `hostile stdio server: ${scenario} (a bound of ${SMALL_MESSAGE_BYTES} bytes injected) → ${expected}`,
    {
      sanitizeOps: true,
      sanitizeResources: true,
    },
    async () => {
      const { code, report } = await guidanceInProcess([
        "--server",
        "hostile",
        "--profile",
        "none",
        ...FAST,
        "--",
        ...fixture("hostile.ts", scenario, String(SMALL_MESSAGE_BYTES)),
      ], { maxMessageBytes: SMALL_MESSAGE_BYTES });
      const [profile] = report.profiles;
      if (expected === "complete") {
        assert.equal(code, 0, JSON.stringify(profile.incomplete));
        assert.deepEqual(profile.tools, ["alpha"]);
      } else {
        assert.equal(code, 3);
        assert.equal(profile.incomplete?.reason, expected);
        assert.deepEqual([profile.tools, profile.tool_count], [null, null]);
      }
    },
  );
}

/** The methods a hostile fixture received, in order. */
async function methodsReceived(scenario: string): Promise<string[]> {
  await using log = await fixtureLog();
  await guidanceJson(["--server", "h", "--profile", "none", ...FAST, "--", ...hostile(scenario)], {
    env: { MCPEVAL_FIXTURE_LOG: log.path },
  });
  return log.entries().flatMap((e) =>
    (e as { received?: { method?: string } }).received?.method ?? []
  );
}

Deno.test("version mismatch: no notifications/initialized and no tools/list are sent", async () => {
  assert.deepEqual(await methodsReceived("version-mismatch"), ["initialize"]);
});

Deno.test("no tools capability: no tools/list is sent", async () => {
  assert.deepEqual(await methodsReceived("no-tools-capability"), [
    "initialize",
    "notifications/initialized",
  ]);
});

Deno.test("roots/list: 8 per client request complete, the 9th ends the profile", async () => {
  const eight = await guidanceJson(["--server", "h", ...FAST, "--", ...hostile("roots-8")]);
  assert.equal(eight.code, 0);
  const nine = await guidanceJson(["--server", "h", ...FAST, "--", ...hostile("roots-9")]);
  assert.equal(nine.code, 3);
  assert.deepEqual(
    nine.report.profiles.map((p) => [p.profile, p.incomplete?.reason ?? "complete"]),
    [
      ["none", "complete"],
      ["roots", "roots-request-limit"],
      ["sampling", "complete"],
      ["elicitation", "complete"],
      ["all", "roots-request-limit"],
    ],
  );
});

Deno.test("answers to server requests follow each profile's capabilities", async () => {
  await using log = await fixtureLog();
  const { code } = await guidanceJson([
    "--server",
    "h",
    "--concurrency",
    "1",
    ...FAST,
    "--",
    ...hostile("client-requests"),
  ], {
    env: { MCPEVAL_FIXTURE_LOG: log.path },
  });
  assert.equal(code, 0);
  // With --concurrency 1 the profiles run in canonical order, one process each.
  const answers: Record<string, unknown>[] = [];
  for (
    const entry of log.entries() as { scenario?: string; received?: Record<string, unknown> }[]
  ) {
    if (entry.scenario) answers.push({});
    const message = entry.received;
    if (message && "id" in message && !("method" in message)) {
      const { id, jsonrpc: _, ...answer } = message;
      answers[answers.length - 1][String(id)] = answer;
    }
  }
  assert.deepEqual(answers, ANSWERS_BY_PROFILE);
});

Deno.test("--server-stderr inherit passes the server's stderr through; discard drops it", async () => {
  const args = ["--server", "h", "--profile", "none", ...FAST];
  const inherit = await mcpeval([
    "guidance",
    ...args,
    "--server-stderr",
    "inherit",
    "--",
    ...hostile("stderr-canary"),
  ]);
  assert.equal(inherit.code, 0);
  assert.ok(inherit.stderr.includes(CANARY), "the user asked for the server's stderr");
  assert.ok(!inherit.stdout.includes(CANARY));
  const discard = await mcpeval(["guidance", ...args, "--", ...hostile("stderr-canary")]);
  assert.equal(discard.code, 0);
  assert.equal(discard.stderr, "");
});

Deno.test("a server ended by a signal after initialize: its signal in detail and in text", async () => {
  // The fixture may signal itself only with --allow-run.
  const killer = [...hostile("kill-after-initialize")];
  killer.splice(3, 0, "--allow-run");
  const args = ["--server", "h", "--profile", "none", ...FAST, "--", ...killer];
  const { code, report } = await guidanceJson(args);
  assert.equal(code, 3);
  assert.deepEqual(report.profiles[0].incomplete?.detail, {
    cause: "signal-after-initialize",
    signal: "SIGKILL",
  });
  const text = await mcpeval(["guidance", ...args]);
  assert.ok(
    text.stdout.replaceAll(/\n +/g, " ").includes(
      "none: The server process was ended by SIGKILL after answering initialize.",
    ),
    text.stdout,
  );
});

Deno.test("a server that exits with status 1 at start: every profile says so, in text too", async () => {
  const result = await mcpeval([
    "guidance",
    "--server",
    "h",
    ...FAST,
    "--",
    ...hostile("exit-at-start"),
  ]);
  assert.equal(result.code, 3);
  // Its stderr was discarded (off a terminal): one line says how to see it.
  assert.equal(
    withoutPlainProgress(result.stderr),
    "mcpeval: server h (profile none) ended incomplete (transport-lost); --server-stderr tail shows the last lines it wrote to stderr (never in a report)\n",
  );
  // One explanation for the five profiles it applies to.
  assert.match(
    result.stdout,
    /\n {2}none, roots, sampling, elicitation, all: The server process exited with status 1 before answering\n {4}initialize\.\n\nResult: incomplete/,
  );
});

Deno.test({
  name: "a server that closes its stdout and keeps running: stdout-closed-before-initialize",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { code, report } = await guidanceJson(
      ["--server", "h", "--profile", "none", ...FAST, "--", "sh", "-c", "exec >&-; exec sleep 9"],
      { permissions: ["--allow-run=sh"] },
    );
    assert.equal(code, 3);
    assert.deepEqual(report.profiles[0].incomplete?.detail, {
      cause: "stdout-closed-before-initialize",
    });
  },
});
