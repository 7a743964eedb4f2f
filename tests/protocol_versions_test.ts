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
