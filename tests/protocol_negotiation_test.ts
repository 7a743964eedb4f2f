/**
 * `--protocol-version auto` and presets negotiating like their client: `server/discover` first,
 * the 2026-07-28 fallback to `initialize` (newest initialize-era revision) on any answer that is
 * not a recognized modern error, any known older revision accepted, and each profile recording
 * the revision it used; 2026-07-28 results that break the revision's result schema are
 * `malformed-message`. All through the real CLI against real servers.
 */
import assert from "node:assert/strict";
import { parsePresets } from "../src/clients/presets.ts";
import {
  configFile,
  DENO,
  EVERYTHING,
  everythingHttp,
  fixture,
  fixtureLog,
  GITHUB,
  GITHUB_ENV,
  guidanceJson,
  hostile,
  httpFixture,
  profileNone,
  startHttp,
} from "./_cli.ts";
import { PROTOCOL_VERSIONS } from "../src/protocol/versions.ts";

const V2 = fixture("v2_server.ts");
/** What `auto` asks for first: the newest revision mcpeval knows. */
const NEWEST = PROTOCOL_VERSIONS.at(-1)!;

type Profile = { profile: string; complete: boolean; protocol_version?: string };
const profilesOf = (report: unknown) => (report as { profiles: Profile[] }).profiles;
const topVersion = (report: unknown) => (report as { protocol_version: string }).protocol_version;
/** `--server NAME`, a `--profile` for each of `profiles`, settle 0, `--protocol-version auto`. */
const autoArgs = (server: string, ...profiles: string[]) => [
  "--server",
  server,
  ...profiles.flatMap((profile) => ["--profile", profile]),
  "--settle-ms",
  "0",
  "--protocol-version",
  "auto",
];

Deno.test("auto: the archived server-github (2024-11-05) completes, each profile records 2024-11-05", async () => {
  const { code, report } = await guidanceJson(
    [...autoArgs("github", "none", "all"), "--", ...GITHUB],
    { env: GITHUB_ENV },
  );
  assert.equal(code, 0);
  assert.equal(topVersion(report), "auto");
  for (const profile of profilesOf(report)) {
    assert.equal(profile.complete, true, profile.profile);
    assert.equal(profile.protocol_version, "2024-11-05", profile.profile);
  }
  assert.equal(report.profiles[0].tool_count, 26);
});

Deno.test("presets complete against server-github without the option, negotiating like their client", async () => {
  const { code, report } = await guidanceJson([
    "--server",
    "github",
    "--client",
    "claude-code",
    "--client",
    "goose",
    "--settle-ms",
    "0",
    "--",
    ...GITHUB,
  ], { env: GITHUB_ENV });
  assert.equal(code, 0);
  assert.equal(topVersion(report), "2025-06-18", "the report's revision is unchanged");
  assert.deepEqual(
    profilesOf(report).map((p) => [p.profile, p.complete, p.protocol_version]),
    [["client:claude-code", true, "2024-11-05"], ["client:goose", true, "2024-11-05"]],
  );
});

Deno.test("auto: server-everything (SDK 1.32.2) falls back and completes in 2025-11-25, stdio and HTTP", async () => {
  const stdio = await guidanceJson([...autoArgs("e", "none", "all"), "--", ...EVERYTHING]);
  assert.equal(stdio.code, 0);
  for (const profile of profilesOf(stdio.report)) {
    assert.equal(profile.protocol_version, "2025-11-25", profile.profile);
  }
  await using server = await startHttp(everythingHttp());
  const http = await guidanceJson(
    [...autoArgs("e", "none"), "--url", server.url],
    { permissions: [`--allow-net=${server.host}`] },
  );
  assert.equal(http.code, 0);
  assert.equal(profilesOf(http.report)[0].protocol_version, "2025-11-25");
  assert.deepEqual(http.report.profiles[0].tools, stdio.report.profiles[0].tools);
});

Deno.test("auto: a 2026-07-28-only SDK v2 server completes in 2026-07-28, over stdio and HTTP", async () => {
  const stdio = await guidanceJson([
    ...profileNone("m"),
    "--protocol-version",
    "auto",
    "--",
    ...V2,
    "--modern-only",
  ]);
  assert.equal(stdio.code, 0);
  assert.deepEqual(stdio.report.profiles[0].tools, ["echo"]);
  assert.equal(profilesOf(stdio.report)[0].protocol_version, "2026-07-28");

  await using log = await fixtureLog();
  await using server = await startHttp(httpFixture("v2_server.ts", "http", "--modern-only"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const http = await guidanceJson(
    [...autoArgs("m"), "--url", server.url],
    { permissions: [`--allow-net=${server.host}`] },
  );
  assert.equal(http.code, 0);
  for (const profile of profilesOf(http.report)) {
    assert.equal(profile.protocol_version, "2026-07-28", profile.profile);
  }
  const requests = log.entries() as { method: string; headers: Record<string, string> }[];
  assert.ok(requests.every((r) => r.method === "POST"), "no GET, no DELETE");
  assert.ok(requests.every((r) => r.headers["mcp-session-id"] === undefined));
});

Deno.test("auto over HTTP: a legacy-only server's 400 to server/discover falls back to initialize", async () => {
  await using log = await fixtureLog();
  await using server = await startHttp(httpFixture("v2_server.ts", "http", "--legacy-only"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const { code, report } = await guidanceJson(
    [...autoArgs("l"), "--url", server.url],
    { permissions: [`--allow-net=${server.host}`] },
  );
  assert.equal(code, 0);
  assert.deepEqual(report.profiles.map((p) => p.tools), [
    ["echo"],
    ["echo", "pick-root"],
    ["echo", "summarize"],
    ["ask-user", "echo"],
    ["ask-user", "echo", "pick-root", "summarize"],
  ]);
  for (const profile of profilesOf(report)) {
    assert.equal(profile.protocol_version, "2025-11-25", profile.profile);
  }
  const requests = log.entries() as { method: string; headers: Record<string, string> }[];
  assert.equal(requests.filter((r) => r.method === "DELETE").length, 5, "each session deleted");
});

Deno.test("auto: a server that answers 2025-06-18 when asked 2025-11-25 continues in 2025-06-18", async () => {
  await using log = await fixtureLog();
  const { code, report } = await guidanceJson(
    [...profileNone(), "--protocol-version", "auto", "--", ...hostile("legacy")],
    { env: { MCPEVAL_FIXTURE_LOG: log.path } },
  );
  assert.equal(code, 0);
  assert.deepEqual(report.profiles[0].tools, ["alpha", "beta"]);
  assert.equal(profilesOf(report)[0].protocol_version, "2025-06-18");
  type Params = { protocolVersion?: string; _meta?: Record<string, unknown> };
  const received = (log.entries() as { received?: { method?: string; params?: Params } }[])
    .flatMap((e) => e.received ? [e.received] : []);
  assert.deepEqual(received.map((m) => m.method), [
    "server/discover",
    "initialize",
    "notifications/initialized",
    "tools/list",
  ]);
  assert.equal(
    received[0].params?._meta?.["io.modelcontextprotocol/protocolVersion"],
    NEWEST,
  );
  assert.equal(received[1].params?.protocolVersion, "2025-11-25");
  assert.equal(received[3].params?._meta, undefined, "no _meta in the initialize era");
});

Deno.test("auto over HTTP: after the fallback, each POST carries the revision the server answered", async () => {
  await using log = await fixtureLog();
  await using server = await startHttp(httpFixture("http_hostile.ts", "legacy"), {
    MCPEVAL_FIXTURE_LOG: log.path,
  });
  const { code, report, stdout } = await guidanceJson(
    [...profileNone(), "--protocol-version", "auto", "--url", server.url],
    { permissions: [`--allow-net=${server.host}`] },
  );
  assert.equal(code, 0);
  assert.equal(profilesOf(report)[0].protocol_version, "2025-06-18");
  assert.ok(!stdout.includes("CANARY"), "no server text");
  const posts = (log.entries() as {
    method: string;
    headers: Record<string, string>;
    message?: { method?: string; params?: { protocolVersion?: string } };
  }[]).filter((r) => r.method === "POST");
  const headers = (name: string) => posts.map((r) => r.headers[name] ?? null);
  assert.deepEqual(posts.map((r) => r.message?.method ?? "answer"), [
    "server/discover",
    "initialize",
    "notifications/initialized",
    "tools/list",
  ]);
  assert.equal(posts[1].message?.params?.protocolVersion, "2025-11-25");
  assert.deepEqual(headers("mcp-protocol-version"), [
    NEWEST,
    null,
    "2025-06-18",
    "2025-06-18",
  ]);
  assert.deepEqual(headers("mcp-method"), ["server/discover", null, null, null]);
  assert.equal(headers("mcp-session-id")[0], null);
  assert.equal(headers("mcp-session-id")[1], null);
  assert.ok(headers("mcp-session-id").slice(2).every((v) => v !== null), "the session is kept");
  const deletes = (log.entries() as { method: string }[]).filter((r) => r.method === "DELETE");
  assert.equal(deletes.length, 1, "the session is deleted");
});

Deno.test("auto: the fallback on no answer, any non-modern error, and an older revision", async () => {
  const cases: [string, string | null, string | undefined][] = [
    // No answer to server/discover within --timeout-ms: a legacy server.
    ["legacy-silent", null, "2025-06-18"],
    // -32602 is not a recognized modern error; 2024-11-05 is a known older revision.
    ["legacy-2024", null, "2024-11-05"],
    // An answer newer than asked is not accepted.
    ["legacy-newer", "protocol-version-mismatch", undefined],
    // A recognized modern error: the server is modern, no fallback.
    ["discover-unsupported", "protocol-version-mismatch", undefined],
  ];
  for (const [scenario, reason, version] of cases) {
    await using log = await fixtureLog();
    // Only the silent server gets a short deadline: its probe's timeout is what is tested (2 s:
    // the fixture starts while the probe waits, so it is reading by the time the fallback
    // initialize is sent). The others keep the default, which no fixture's start-up reaches (a
    // probe answered after a short deadline would be taken for a legacy server on a slow machine).
    const deadline = scenario === "legacy-silent" ? ["--timeout-ms", "2000"] : [];
    const { code, report, stdout } = await guidanceJson([
      ...profileNone(),
      ...deadline,
      "--protocol-version",
      "auto",
      "--",
      ...hostile(scenario),
    ], { env: { MCPEVAL_FIXTURE_LOG: log.path } });
    const profile = profilesOf(report)[0];
    assert.equal(report.profiles[0].incomplete?.reason ?? null, reason, scenario);
    assert.equal(profile.protocol_version, version, scenario);
    assert.equal(code, reason === null ? 0 : 3, scenario);
    assert.ok(!stdout.includes("CANARY"), "no server text");
    if (scenario === "discover-unsupported") {
      assert.equal(log.received("initialize"), 0, "no fallback after a modern error");
    }
  }
});

Deno.test("2026-07-28 results that break the revision's result schema are malformed-message", async () => {
  const scenarios = [
    "discover-meta-null",
    "discover-meta-array",
    "discover-meta-string",
    "discover-ttl-negative",
    "discover-ttl-fraction",
    "discover-cache-scope",
    "list-cache-scope",
  ];
  for (const scenario of scenarios) {
    for (const version of ["2026-07-28", "auto"]) {
      const { code, report, stdout } = await guidanceJson([
        ...profileNone(),
        "--protocol-version",
        version,
        "--",
        ...hostile(scenario),
      ]);
      assert.equal(code, 3, `${scenario} ${version}`);
      assert.equal(
        report.profiles[0].incomplete?.reason,
        "malformed-message",
        `${scenario} ${version}`,
      );
      assert.ok(!stdout.includes("CANARY"), "no server text");
    }
  }
  // The same fixture's valid result completes.
  const valid = await guidanceJson([
    ...profileNone(),
    "--protocol-version",
    "2026-07-28",
    "--",
    ...hostile("default"),
  ]);
  assert.equal(valid.code, 0);
});

Deno.test("without the option: the five profiles speak 2025-06-18 strictly and record nothing new", async () => {
  const { code, report } = await guidanceJson([...profileNone(), "--", ...hostile("legacy-2024")]);
  assert.equal(code, 3);
  assert.equal(report.profiles[0].incomplete?.reason, "protocol-version-mismatch");
  assert.equal("protocol_version" in report.profiles[0], false);
  assert.equal(topVersion(report), "2025-06-18");
});

Deno.test("a protocol revision is one row: no other source file names one or compares dates", async () => {
  const { PROTOCOL_VERSIONS } = await import("../src/protocol/versions.ts");
  const literal = new RegExp(`["'\`](${PROTOCOL_VERSIONS.join("|")})["'\`]`);
  const comparison = /[<>]=?\s*["'`]\d{4}-\d{2}-\d{2}["'`]|["'`]\d{4}-\d{2}-\d{2}["'`]\s*[<>]/;
  const naming: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, import.meta.url))) {
      const path = `${dir}/${entry.name}`;
      // The lab's observations record what a real client sent (data, not a rule of mcpeval).
      if (path === "../src/clients/observed") continue;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        const code = (await Deno.readTextFile(new URL(path, import.meta.url))).split("\n")
          .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
        if (code.some((line) => literal.test(line) || comparison.test(line))) naming.push(path);
      } else if (
        entry.name.endsWith(".json") && entry.name !== "clients.json" &&
        // The presets derived from those observations: what the clients sent, again.
        entry.name !== "derived.json"
      ) {
        const text = await Deno.readTextFile(new URL(path, import.meta.url));
        if (PROTOCOL_VERSIONS.some((v) => text.includes(`"${v}"`))) naming.push(path);
      }
    }
  };
  await walk("../src");
  // A new revision with the same wire rules is its row: the report schemas take any revision's
  // date, so none of them lists it.
  assert.deepEqual(naming.sort(), ["../src/protocol/versions.ts"]);
});

/** A client file with one preset `p` whose client sends `revision`. */
function presetFile(revision: unknown) {
  return {
    schema: "mcpeval.client-presets/v1",
    clients: {
      p: {
        client_info: { name: "p-client", version: "1.0.0" },
        protocol_version: {
          value: revision,
          source: "https://example.com/p",
          verified_at: "2026-12-01",
        },
        capabilities: {},
        instructions_shown: null,
        sources: [{ url: "https://example.com/p", verified_at: "2026-12-01" }],
        rules: [],
      },
    },
  };
}

Deno.test("a preset's protocol_version: a known revision with a source and a date", () => {
  const parsed = parsePresets(presetFile("2026-07-28"));
  assert.ok(typeof parsed !== "string");
  assert.equal(parsed.get("p")?.protocolVersion, "2026-07-28");
  for (const bad of ["2099-01-01", "auto", 20250618]) {
    assert.equal(
      parsePresets(presetFile(bad)),
      "field clients.p.protocol_version.value must be a protocol revision mcpeval knows",
    );
  }
  const { protocol_version: _, ...without } = presetFile("2025-06-18").clients.p;
  const old = parsePresets({ schema: "mcpeval.client-presets/v1", clients: { p: without } });
  assert.ok(typeof old !== "string" && old.get("p")?.protocolVersion === undefined);
});

Deno.test("a preset whose client sends 2026-07-28 probes first; --protocol-version V makes it strict", async () => {
  await using file = await configFile(presetFile("2026-07-28"));
  const permissions = [`--allow-run=${DENO}`, `--allow-read=${file.path}`];
  const args = ["--server", "h", "--settle-ms", "0", "--client", "p", "--client-file", file.path];
  await using log = await fixtureLog();
  const env = { MCPEVAL_FIXTURE_LOG: log.path };
  const negotiated = await guidanceJson([...args, "--", ...hostile("legacy")], {
    permissions,
    env,
  });
  assert.equal(negotiated.code, 0);
  assert.equal(profilesOf(negotiated.report)[0].protocol_version, "2025-06-18");
  assert.equal(log.received("server/discover"), 1);
  assert.equal(log.received("initialize"), 1);
  const strict = await guidanceJson(
    [...args, "--protocol-version", "2025-06-18", "--", ...hostile("legacy")],
    { permissions, env },
  );
  assert.equal(strict.code, 0);
  assert.equal("protocol_version" in strict.report.profiles[0], false, "strict: nothing new");
  assert.equal(log.received("server/discover"), 1, "no probe when strict");
});
