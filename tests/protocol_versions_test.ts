/**
 * `--protocol-version`: the same SDK v2 server gives the same catalogs and candidates in every
 * era it serves, over stdio and Streamable HTTP; a modern-only server and an archived
 * 2024-11-05 server complete with the right option and name their revision without it; the
 * 2026-07-28 flow's errors map onto the fixed reasons.
 */
import assert from "node:assert/strict";
import {
  DENO,
  fixture,
  fixtureLog,
  guidanceJson,
  hostile,
  httpFixture,
  profileNone,
  startHttp,
} from "./_cli.ts";

const V2 = fixture("v2_server.ts");
const ERAS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;
const CATALOGS = {
  none: ["echo"],
  roots: ["echo", "pick-root"],
  sampling: ["echo", "summarize"],
  elicitation: ["ask-user", "echo"],
  all: ["ask-user", "echo", "pick-root", "summarize"],
};

/** Profile → catalog and the sorted `profile:tool` candidates of a report. */
function observed(report: Awaited<ReturnType<typeof guidanceJson>>["report"]) {
  return {
    catalogs: Object.fromEntries(report.profiles.map((p) => [p.profile, p.tools])),
    candidates: report.candidates.map((c) => `${c.profile}:${c.tool}`).sort(),
  };
}

Deno.test("SDK v2 server over stdio: the same catalogs and candidates in every era", async () => {
  const seen = [];
  for (const version of ERAS) {
    const { code, report } = await guidanceJson([
      "--server",
      "v2",
      "--settle-ms",
      "0",
      "--protocol-version",
      version,
      "--",
      ...V2,
    ]);
    assert.equal(code, 0, version);
    assert.equal((report as unknown as { protocol_version: string }).protocol_version, version);
    seen.push(observed(report));
  }
  assert.deepEqual(seen[0].catalogs, CATALOGS);
  assert.equal(seen[0].candidates.length, 9);
  assert.deepEqual(seen[1], seen[0]);
  assert.deepEqual(seen[2], seen[0]);
});

Deno.test("SDK v2 server over Streamable HTTP: the same in every era, with each era's headers", async () => {
  await using log = await fixtureLog();
  await using server = await startHttp(httpFixture("v2_server.ts", "http"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const seen = [];
  for (const version of ERAS) {
    const before = log.entries().length;
    const { code, report } = await guidanceJson(
      ["--server", "v2", "--settle-ms", "0", "--protocol-version", version, "--url", server.url],
      { permissions: [`--allow-net=${server.host}`] },
    );
    assert.equal(code, 0, version);
    seen.push(observed(report));
    const requests = log.entries().slice(before) as {
      method: string;
      headers: Record<string, string>;
    }[];
    assert.ok(requests.every((r) => r.method !== "GET"), "GET is never sent");
    const deletes = requests.filter((r) => r.method === "DELETE").length;
    if (version === "2026-07-28") {
      assert.equal(deletes, 0, "no session, no DELETE");
      for (const r of requests) {
        assert.equal(r.headers["mcp-protocol-version"], version);
        assert.ok(["server/discover", "tools/list"].includes(r.headers["mcp-method"]));
        assert.equal(r.headers["mcp-session-id"], undefined);
      }
    } else {
      assert.equal(deletes, 5, "one session per profile, deleted at the end");
      assert.ok(requests.every((r) => r.headers["mcp-method"] === undefined));
    }
  }
  assert.deepEqual(seen[0].catalogs, CATALOGS);
  assert.deepEqual(seen[1], seen[0]);
  assert.deepEqual(seen[2], seen[0]);
});

Deno.test("a 2026-07-28-only server: mismatch naming its revision, complete with the option", async () => {
  const modernOnly = [...V2, "--modern-only"];
  const without = await guidanceJson(["--server", "m", "--profile", "none", "--", ...modernOnly]);
  assert.equal(without.code, 3);
  assert.deepEqual(without.report.profiles[0].incomplete, {
    reason: "protocol-version-mismatch",
    hint: without.report.profiles[0].incomplete!.hint,
    server_protocol_version: "2026-07-28",
  });
  assert.match(without.report.profiles[0].incomplete!.hint, /--protocol-version/);
  const text = await guidanceJson([
    "--server",
    "m",
    "--profile",
    "none",
    "--protocol-version",
    "2026-07-28",
    "--settle-ms",
    "0",
    "--",
    ...modernOnly,
  ]);
  assert.equal(text.code, 0);
  assert.deepEqual(text.report.profiles[0].tools, ["echo"]);
  // The other way round: a server of the 2025 era does not know server/discover.
  const legacy = await guidanceJson([
    "--server",
    "l",
    "--profile",
    "none",
    "--protocol-version",
    "2026-07-28",
    "--",
    ...V2,
    "--legacy-only",
  ]);
  assert.equal(legacy.code, 3);
  assert.equal(legacy.report.profiles[0].incomplete!.reason, "protocol-version-mismatch");
});

Deno.test("the archived server-github (2024-11-05) completes with --protocol-version 2024-11-05", async () => {
  const github = [DENO, "run", "--quiet", "-A", "npm:@modelcontextprotocol/server-github@2025.4.8"];
  const env = { GITHUB_PERSONAL_ACCESS_TOKEN: "dummy-token-for-listing" };
  const old = await guidanceJson(
    ["--server", "github", "--profile", "none", "--settle-ms", "0", "--", ...github],
    { env },
  );
  assert.equal(old.code, 3);
  assert.equal(old.report.profiles[0].incomplete!.reason, "protocol-version-mismatch");
  assert.equal(
    (old.report.profiles[0].incomplete as { server_protocol_version?: string })
      .server_protocol_version,
    "2024-11-05",
  );
  const ok = await guidanceJson([
    "--server",
    "github",
    "--profile",
    "none",
    "--profile",
    "all",
    "--settle-ms",
    "0",
    "--protocol-version",
    "2024-11-05",
    "--",
    ...github,
  ], { env });
  assert.equal(ok.code, 0);
  assert.equal(ok.report.profiles[0].tool_count, 26);
  assert.ok(ok.report.profiles[0].tools!.includes("create_issue"));
});

Deno.test("2026-07-28 errors map onto the fixed reasons", async () => {
  const cases: [string, string | null, string | undefined][] = [
    ["discover-error", "initialization-error", undefined],
    ["discover-unsupported", "protocol-version-mismatch", "2025-06-18"],
    ["discover-old-versions", "protocol-version-mismatch", "2025-11-25"],
    ["discover-invalid", "initialization-error", undefined],
    ["discover-needs-meta", null, undefined],
    ["list-missing-capability", "list-error", undefined],
    ["list-input-required", "list-error", undefined],
  ];
  for (const [scenario, reason, version] of cases) {
    const { code, report, stdout } = await guidanceJson([
      ...profileNone(),
      "--protocol-version",
      "2026-07-28",
      "--",
      ...hostile(scenario),
    ]);
    const incomplete = report.profiles[0].incomplete as
      | { reason: string; server_protocol_version?: string }
      | null;
    assert.equal(incomplete?.reason ?? null, reason, scenario);
    assert.equal(incomplete?.server_protocol_version, version, scenario);
    assert.equal(code, reason === null ? 0 : 3, scenario);
    assert.ok(!stdout.includes("CANARY"), "no server text");
  }
});

Deno.test("2025-11-25 over HTTP: SSE priming events and retry fields are tolerated", async () => {
  await using server = await startHttp(httpFixture("v2_server.ts", "http", "--priming"));
  const { code, report } = await guidanceJson(
    ["--server", "v2", "--settle-ms", "0", "--protocol-version", "2025-11-25", "--url", server.url],
    { permissions: [`--allow-net=${server.host}`] },
  );
  assert.equal(code, 0);
  assert.deepEqual(observed(report).catalogs, CATALOGS);
});

/** The profiles of a report: tools when complete, else the malformed entry's cause and tool. */
function shapes(report: Awaited<ReturnType<typeof guidanceJson>>["report"]) {
  return Object.fromEntries(report.profiles.map((p) => [
    p.profile,
    p.complete ? p.tools : [p.incomplete!.reason, p.incomplete!.detail],
  ]));
}

Deno.test("the Tool shape per revision: an array outputSchema and boolean sub-schemas are complete under 2026-07-28, malformed-entry under 2025-06-18", async () => {
  const v2 = [...V2, "--array-output", "--boolean-schemas"];
  const args = (version: string, server: readonly string[]) => [
    "--server",
    "v2",
    "--settle-ms",
    "0",
    "--protocol-version",
    version,
    "--",
    ...server,
  ];
  const modern = await guidanceJson(args("2026-07-28", v2));
  assert.equal(modern.code, 0, modern.stderr);
  assert.equal(modern.report.complete, true);
  const added = (tools: string[]) => [...tools, "list-users", "set-flags"].sort();
  assert.deepEqual(
    shapes(modern.report),
    Object.fromEntries(Object.entries(CATALOGS).map(([profile, tools]) => [profile, added(tools)])),
  );

  // The default revision: the boolean property schemas break its Tool shape in every profile.
  const seed = await guidanceJson(args("2025-06-18", v2));
  assert.equal(seed.code, 3, seed.stderr);
  const malformed = ["malformed-entry", {
    cause: "input-schema-not-object-schema",
    tool: "set-flags",
  }];
  assert.deepEqual(
    shapes(seed.report),
    Object.fromEntries(Object.keys(CATALOGS).map((profile) => [profile, malformed])),
  );
  // An SDK v2 server sends a 2025-era client an array root wrapped in an object schema
  // (`{type: "object", properties: {result: ...}}`, SEP-2106): a valid 2025-06-18 Tool.
  const wrapped = await guidanceJson(args("2025-06-18", [...V2, "--array-output"]));
  assert.equal(wrapped.code, 0, wrapped.stderr);
  assert.ok(wrapped.report.profiles.every((p) => p.tools!.includes("list-users")));

  // A raw server sends the array root as it is, in every era.
  const raw = hostile("open-schemas");
  const rawModern = await guidanceJson(args("2026-07-28", raw));
  assert.equal(rawModern.code, 0, rawModern.stderr);
  assert.deepEqual(rawModern.report.profiles[0].tools, ["alpha", "flags", "rows"]);
  const rawSeed = await guidanceJson(args("2025-06-18", raw));
  assert.equal(rawSeed.code, 3, rawSeed.stderr);
  assert.deepEqual(rawSeed.report.profiles[0].incomplete?.detail, {
    cause: "output-schema-not-object-schema",
    tool: "rows",
  });
  for (const run of [modern, seed, rawModern, rawSeed]) {
    assert.ok(!run.stdout.includes("CANARY"), "no server text");
  }
});

Deno.test("the Tool shape is the negotiated revision's: a 2026-07-28 preset completes where the default profile is malformed-entry", async () => {
  const { code, stderr, report } = await guidanceJson([
    "--server",
    "v2",
    "--settle-ms",
    "0",
    "--profile",
    "none",
    "--client",
    "claude-code",
    "--",
    ...V2,
    "--array-output",
    "--boolean-schemas",
  ]);
  assert.equal(code, 3, stderr);
  const [none, claude] = report.profiles as (typeof report.profiles[number] & {
    protocol_version?: string;
  })[];
  assert.equal(none.incomplete?.reason, "malformed-entry");
  assert.equal(claude.profile, "client:claude-code");
  assert.equal(claude.protocol_version, "2026-07-28");
  assert.equal(claude.complete, true);
  assert.ok(claude.tools!.includes("list-users") && claude.tools!.includes("set-flags"));
});
