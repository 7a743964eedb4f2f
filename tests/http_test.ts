/** Streamable HTTP discovery through the real CLI, against SDK, raw and reference servers. */
import assert from "node:assert/strict";
import { CANARY } from "../fixtures/hostile.ts";
import { ANSWERS_BY_PROFILE } from "./_answers.ts";
import {
  everythingHttp,
  fixtureLog,
  guidanceJson,
  httpFixture,
  mcpeval,
  startHttp,
} from "./_cli.ts";
import { assertEverythingCatalogs } from "./_everything.ts";

const FAST = ["--settle-ms", "0", "--timeout-ms", "1000"];
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

/** [scenario, expected reason or "complete", HTTP status]. */
const CASES: [string, string, number?][] = [
  ["default", "complete"],
  ["json", "complete"],
  ["sse-other-events", "complete"],
  ["get-only", "no-response-in-post-stream"],
  ["sse-ends-early", "no-response-in-post-stream"],
  ["sse-never-ends", "timeout"],
  ["session-404", "http-status", 404],
  ["session-400", "http-status", 400],
  ["status-500", "http-status", 500],
  ["redirect", "http-status", 307],
  ["wrong-content-type", "malformed-message"],
  ["invalid-json", "malformed-message"],
  ["body-at-limit", "complete"],
  ["oversize-body", "message-too-large"],
  ["json-empty-objects", "message-too-large"],
  ["event-at-limit", "complete"],
  ["oversize-event", "message-too-large"],
  ["roots-8", "complete"],
];

for (const [scenario, expected, status] of CASES) {
  Deno.test(`hostile HTTP server: ${scenario} → ${expected}`, async () => {
    await using log = await fixtureLog();
    await using server = await startHttp(httpFixture("http_hostile.ts", scenario), {
      MCPEVAL_FIXTURE_LOG: log.path,
    });
    const { code, report, ms } = await guidanceJson(
      ["--server", "h", "--profile", "none", ...FAST, "--url", server.url],
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
      assert.equal(report.passed, null);
    }
    assert.ok(ms < 1000 + 2_000 + 3_000, `took ${ms} ms`);
    const requests = log.entries() as Recorded[];
    assert.ok(!requests.some((r) => r.method === "GET"), "no GET is ever sent");
    assert.ok(!requests.some((r) => r.path !== "/mcp"), "redirects are not followed");
  });
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

Deno.test("an endpoint that refuses connections: transport-lost, exit 3", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  const { code, report } = await guidanceJson(
    ["--server", "h", "--profile", "none", ...FAST, "--url", `http://127.0.0.1:${port}/mcp`],
    { permissions: net(`127.0.0.1:${port}`) },
  );
  assert.equal(code, 3);
  assert.equal(report.profiles[0].incomplete?.reason, "transport-lost");
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
