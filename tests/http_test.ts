/**
 * Streamable HTTP discovery through the real CLI, against SDK, raw and reference servers. No case
 * depends on the machine's speed: only the cases that end `timeout` get a short `--timeout-ms`,
 * and the message bound is tested at a bound injected small (in-process), not with 64 MiB bodies.
 */
import assert from "node:assert/strict";
import { CANARY } from "../fixtures/hostile.ts";
import { ANSWERS_BY_PROFILE } from "./_answers.ts";
import { join } from "node:path";
import {
  assertNoneLeft,
  assertValidReport,
  DENO,
  everythingHttp,
  fixtureLog,
  guidanceJson,
  httpFixture,
  mcpeval,
  ProcessMarker,
  ROOT,
  startHttp,
} from "./_cli.ts";
import { assertEverythingCatalogs } from "./_everything.ts";
import { guidanceInProcess } from "./_context.ts";

/** No settle window; the default `--timeout-ms` (30 s). */
const FAST = ["--settle-ms", "0"];
/** For the servers that never answer: the timeout itself is what is tested. */
const SHORT_DEADLINE = ["--timeout-ms", "1000"];
/** Per profile: the 9th roots/list ends the profiles that declare roots. */
const ROOTS_LIMITED = [
  "complete",
  "roots-request-limit",
  "complete",
  "complete",
  "roots-request-limit",
];
const net = (host: string) => [`--allow-net=${host}`];

type Recorded = {
  method: string;
  path: string;
  headers: Record<string, string>;
  message?: { method?: string };
};

for (const mode of ["sse", "json"]) {
  Deno.test(`SDK server transport (${mode} answers): the demo catalogs and candidates`, async () => {
    await using log = await fixtureLog();
    await using server = await startHttp(
      httpFixture("http_server.ts", ...(mode === "json" ? ["--json"] : [])),
      { MCPEVAL_FIXTURE_LOG: log.path },
    );
    const { code, report } = await guidanceJson(
      ["--server", "demo", ...FAST, "--url", server.url],
      {
        permissions: net(server.host),
      },
    );
    assert.equal(code, 0);
    assert.deepEqual(report.profiles.map((p) => [p.profile, p.tool_count]), [
      ["none", 2],
      ["roots", 3],
      ["sampling", 3],
      ["elicitation", 3],
      ["all", 5],
    ]);
    assert.equal(report.candidates.length, 9);
    const requests = log.entries() as Recorded[];
    assert.ok(!requests.some((r) => r.method === "GET"), "no GET is ever sent");
    const deletes = requests.filter((r) => r.method === "DELETE");
    assert.equal(deletes.length, 5, "each profile's session is deleted");
    assert.ok(deletes.every((r) => r.headers["mcp-session-id"]));
    for (const post of requests.filter((r) => r.method === "POST")) {
      assert.equal(post.headers["content-type"], "application/json");
      assert.equal(post.headers["accept"], "application/json, text/event-stream");
    }
  });
}

Deno.test("SDK server transport: 8 roots/list requests in one POST stream complete, 9 do not", async () => {
  {
    await using server = await startHttp(httpFixture("http_server.ts", "--roots", "8"));
    const { code } = await guidanceJson(["--server", "r", ...FAST, "--url", server.url], {
      permissions: net(server.host),
    });
    assert.equal(code, 0);
  }
  await using server = await startHttp(httpFixture("http_server.ts", "--roots", "9"));
  const { code, report } = await guidanceJson(["--server", "r", ...FAST, "--url", server.url], {
    permissions: net(server.host),
  });
  assert.equal(code, 3);
  assert.deepEqual(report.profiles.map((p) => p.incomplete?.reason ?? "complete"), ROOTS_LIMITED);
});

Deno.test("server-everything over Streamable HTTP: the same catalogs and candidates as stdio", async () => {
  await using server = await startHttp(everythingHttp());
  const { code, report } = await guidanceJson(
    ["--server", "everything", "--settle-ms", "500", "--url", server.url],
    { permissions: net(server.host) },
  );
  assert.equal(code, 0);
  assertEverythingCatalogs(report);
});

/** [scenario, expected reason or "complete", HTTP status, the cause in `detail`]. */
const CASES: [string, string, number?, string?][] = [
  ["default", "complete"],
  ["json", "complete"],
  ["sse-other-events", "complete"],
  ["get-only", "no-response-in-post-stream"],
  ["sse-ends-early", "no-response-in-post-stream"],
  ["sse-never-ends", "timeout"],
  ["session-404", "http-status", 404, "http-session-not-found"],
  ["session-400", "http-status", 400, "http-client-error"],
  ["status-500", "http-status", 500, "http-server-error"],
  ["status-401", "http-status", 401, "http-credentials"],
  ["status-403", "http-status", 403, "http-credentials"],
  ["status-404", "http-status", 404, "http-endpoint-not-found"],
  ["status-405", "http-status", 405, "http-method-not-allowed"],
  ["redirect", "http-status", 307, "http-redirect"],
  ["body-aborted", "transport-lost", undefined, "connection-reset"],
  ["closes-connections", "transport-lost", undefined, "connection-reset"],
  ["wrong-content-type", "malformed-message"],
  ["invalid-json", "malformed-message"],
  ["json-empty-objects", "message-too-large"],
  ["roots-8", "complete"],
];

for (const [scenario, expected, status, cause] of CASES) {
  Deno.test(`hostile HTTP server: ${scenario} → ${expected}`, async () => {
    await using log = await fixtureLog();
    await using server = await startHttp(httpFixture("http_hostile.ts", scenario), {
      MCPEVAL_FIXTURE_LOG: log.path,
    });
    const deadline = expected === "timeout" ? SHORT_DEADLINE : [];
    const { code, report } = await guidanceJson(
      ["--server", "h", "--profile", "none", ...FAST, ...deadline, "--url", server.url],
      { permissions: net(server.host) },
    );
    const [profile] = report.profiles;
    if (expected === "complete") {
      assert.equal(code, 0, JSON.stringify(profile.incomplete));
      assert.deepEqual(profile.tools, ["alpha"]);
    } else {
      assert.equal(code, 3);
      assert.equal(profile.incomplete?.reason, expected);
      assert.equal(profile.incomplete?.http_status, status);
      assert.equal(profile.incomplete?.detail?.cause, cause);
      assert.equal(report.passed, null);
    }
    const requests = log.entries() as Recorded[];
    assert.ok(!requests.some((r) => r.method === "GET"), "no GET is ever sent");
    assert.ok(!requests.some((r) => r.path !== "/mcp"), "redirects are not followed");
  });
}

/** The message bound injected into the in-process CLI (and the fixture's answers sized for it). */
const SMALL_MESSAGE_BYTES = 4_096;

for (
  const [scenario, expected] of [
    ["body-at-limit", "complete"],
    ["oversize-body", "message-too-large"],
    ["event-at-limit", "complete"],
    ["oversize-event", "message-too-large"],
  ] as const
) {
  // In-process transports: the op and resource sanitizers on (STYLE: transport tests).
  Deno.test(
    `hostile HTTP server: ${scenario} (a bound of ${SMALL_MESSAGE_BYTES} bytes injected) → ${expected}`,
    {
      sanitizeOps: true,
      sanitizeResources: true,
    },
    async () => {
      await using server = await startHttp(
        httpFixture("http_hostile.ts", scenario, String(SMALL_MESSAGE_BYTES)),
      );
      const { code, report } = await guidanceInProcess(
        ["--server", "h", "--profile", "none", ...FAST, "--url", server.url],
        { maxMessageBytes: SMALL_MESSAGE_BYTES },
      );
      const [profile] = report.profiles;
      if (expected === "complete") {
        assert.equal(code, 0, JSON.stringify(profile.incomplete));
        assert.deepEqual(profile.tools, ["alpha"]);
      } else {
        assert.equal(code, 3);
        assert.equal(profile.incomplete?.reason, expected);
      }
    },
  );
}

Deno.test("hostile HTTP server: the 9th roots/list in one POST stream ends the profile", async () => {
  await using server = await startHttp(httpFixture("http_hostile.ts", "roots-9"));
  const { code, report } = await guidanceJson(["--server", "h", ...FAST, "--url", server.url], {
    permissions: net(server.host),
  });
  assert.equal(code, 3);
  assert.deepEqual(report.profiles.map((p) => p.incomplete?.reason ?? "complete"), ROOTS_LIMITED);
});

Deno.test("HTTP headers: session id and protocol version after initialize, --header values sent", async () => {
  await using log = await fixtureLog();
  await using server = await startHttp(httpFixture("http_hostile.ts", "default"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const token = `Bearer ${CANARY}`;
  const result = await mcpeval(
    [
      "guidance",
      "--server",
      "h",
      "--profile",
      "none",
      ...FAST,
      "--header",
      "Authorization=MCP_TOKEN",
      "--url",
      server.url,
    ],
    { permissions: [...net(server.host), "--allow-env=MCP_TOKEN"], env: { MCP_TOKEN: token } },
  );
  assert.equal(result.code, 0, result.stderr);
  const requests = log.entries() as Recorded[];
  assert.deepEqual(requests.map((r) => [r.method, r.message?.method ?? null]), [
    ["POST", "initialize"],
    ["POST", "notifications/initialized"],
    ["POST", "tools/list"],
    ["DELETE", null],
  ]);
  const [initialize, ...later] = requests;
  assert.equal(initialize.headers["mcp-session-id"], undefined);
  assert.equal(initialize.headers["mcp-protocol-version"], undefined);
  for (const request of later) {
    assert.equal(request.headers["mcp-session-id"], `session-${CANARY}`);
    assert.equal(request.headers["mcp-protocol-version"], "2025-06-18");
  }
  assert.ok(requests.every((r) => r.headers["authorization"] === token));
  assert.ok(!result.stdout.includes(CANARY) && !result.stderr.includes(CANARY));
});

Deno.test("HTTP canary: no URL, path, query, header value, session id or server text in any output", async () => {
  for (
    const scenario of [
      "default",
      "session-404",
      "status-500",
      "redirect",
      "wrong-content-type",
      "sse-ends-early",
    ]
  ) {
    await using server = await startHttp(httpFixture("http_hostile.ts", scenario));
    const url = `${server.url}?token=${CANARY}-query`;
    for (const format of ["text", "json"]) {
      const result = await mcpeval(
        [
          "guidance",
          "--server",
          "h",
          "--format",
          format,
          ...FAST,
          "--header",
          "X-Api-Key=MCP_KEY",
          "--url",
          url,
        ],
        {
          permissions: [...net(server.host), "--allow-env=MCP_KEY"],
          env: { MCP_KEY: `${CANARY}-header` },
        },
      );
      assert.ok([0, 3].includes(result.code), `${scenario}: ${result.code} ${result.stderr}`);
      for (const text of [result.stdout, result.stderr]) {
        for (const secret of [CANARY, "7f3a9", server.host, "/mcp", "token=", "elsewhere"]) {
          assert.ok(!text.includes(secret), `${scenario} ${format}: output contains ${secret}`);
        }
      }
    }
  }
});

Deno.test("a missing net permission names the flag to add", async () => {
  const result = await mcpeval(["guidance", "--server", "h", "--url", "http://127.0.0.1:9/mcp"], {
    permissions: [],
  });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    "mcpeval: Permission to reach the server is missing: add --allow-net=127.0.0.1:9\n",
  );
});

Deno.test("an endpoint that refuses connections: transport-lost, connection-refused, exit 3", async () => {
  // No race with parallel fixtures for a port that was free a moment ago: this test holds
  // 127.0.0.1:PORT while it runs (so nobody can bind PORT there, nor on every address), and the
  // runs connect to 127.0.0.2:PORT, another loopback address (Linux routes 127.0.0.0/8 to the
  // loopback device) that no test binds. Nothing listens there: the connection is refused.
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = held.addr as Deno.NetAddr;
  const url = `http://127.0.0.2:${port}/mcp`;
  const { code, report } = await guidanceJson(
    ["--server", "h", "--profile", "none", ...FAST, "--url", url],
    { permissions: net(`127.0.0.2:${port}`) },
  );
  assert.equal(code, 3);
  assert.deepEqual(report.profiles[0].incomplete, {
    reason: "transport-lost",
    hint:
      "The connection ended before discovery finished; check that the server stays up for the whole session (for a stdio server, --server-stderr tail shows the last lines it wrote to stderr, on stderr only).",
    detail: { cause: "connection-refused" },
  });
  const text = await mcpeval(
    [
      "guidance",
      "--server",
      "h",
      "--profile",
      "none",
      ...FAST,
      "--url",
      url,
    ],
    { permissions: net(`127.0.0.2:${port}`) },
  );
  assert.ok(
    text.stdout.replaceAll(/\n +/g, " ").includes(
      "none: The connection was refused: check that the server is running and listens on the host and port of --url.",
    ),
    text.stdout,
  );
});

/** Whether this machine lets a test start a process in a new network namespace (no network). */
const hasUnshare = Deno.build.os === "linux" && (() => {
  try {
    return new Deno.Command("unshare", { args: ["-n", "true"], stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "a host name that does not resolve: name-not-resolved (in a namespace without network)",
  ignore: !hasUnshare,
  fn: async () => {
    // Nothing leaves the machine: the namespace has no network, so the lookup fails at once.
    const host = "mcpeval-test.invalid";
    const marker = new ProcessMarker();
    const output = await new Deno.Command("unshare", {
      args: [
        "-n",
        DENO,
        "run",
        "--quiet",
        `--allow-net=${host}`,
        join(ROOT, "main.ts"),
        "guidance",
        "--server",
        "h",
        "--profile",
        "none",
        "--format",
        "json",
        "--allow-remote-http",
        "--url",
        `https://${host}/mcp`,
      ],
      env: { NO_COLOR: "1", ...marker.env },
      stdin: "null",
    }).output();
    assertNoneLeft(await marker.reap(), "mcpeval in a network namespace");
    assert.equal(output.code, 3, new TextDecoder().decode(output.stderr));
    const report = JSON.parse(new TextDecoder().decode(output.stdout));
    await assertValidReport(report);
    assert.deepEqual(report.profiles[0].incomplete.detail, { cause: "name-not-resolved" });
  },
});

Deno.test("server requests inside a POST stream are answered per profile, each with a new POST", async () => {
  await using log = await fixtureLog();
  await using server = await startHttp(httpFixture("http_hostile.ts", "client-requests"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const { code } = await guidanceJson(
    ["--server", "h", "--concurrency", "1", ...FAST, "--url", server.url],
    { permissions: net(server.host) },
  );
  assert.equal(code, 0);
  // With --concurrency 1 the profiles run in canonical order; each starts with initialize.
  const answers: Record<string, unknown>[] = [];
  for (const { message } of log.entries() as { message?: Record<string, unknown> }[]) {
    if (message?.method === "initialize") answers.push({});
    if (message && "id" in message && !("method" in message)) {
      const { id, jsonrpc: _, ...answer } = message;
      answers[answers.length - 1][String(id)] = answer;
    }
  }
  assert.deepEqual(answers, ANSWERS_BY_PROFILE);
});

Deno.test("a gzip bomb is never inflated: every profile ends message-too-large", async () => {
  await using log = await fixtureLog();
  // The fixture compresses when asked (200 MiB in about 200 KB), as a real server would. Its
  // peak memory for five profiles is printed by `deno task bench` (case 3), not asserted here.
  await using server = await startHttp(httpFixture("http_hostile.ts", "gzip-bomb"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const { code, report } = await guidanceJson(
    // The longest --timeout-ms: a deadline no machine's speed reaches.
    ["--server", "h", "--settle-ms", "0", "--timeout-ms", "300000", "--url", server.url],
    { permissions: net(server.host) },
  );
  assert.equal(code, 3);
  assert.deepEqual(
    report.profiles.map((p) => p.incomplete?.reason),
    Array(5).fill("message-too-large"),
  );
  const requests = log.entries() as Recorded[];
  assert.ok(requests.length > 0);
  for (const { headers } of requests) assert.equal(headers["accept-encoding"], "identity");
});
