/**
 * Client presets (`--client`, `--client-file`) and their reachability rules, and
 * `--unknown-references`, through the real CLI.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinPresets, parsePresets } from "../src/clients/presets.ts";
import { run } from "../src/cli/run.ts";
import {
  DENO,
  EVERYTHING,
  fixture,
  fixtureLog,
  guidanceJson,
  hostile,
  mcpeval,
  ROOT,
  tempDir,
} from "./_cli.ts";
import { testContext } from "./_context.ts";

const TEST_PRESETS = join(ROOT, "fixtures", "clients", "test-clients.json");
const READ = [`--allow-run=${DENO}`, `--allow-read=${TEST_PRESETS}`];

Deno.test("the built-in preset data validates, and every fact has a source and a date", () => {
  const presets = builtinPresets();
  const data = JSON.parse(
    Deno.readTextFileSync(join(ROOT, "src", "clients", "clients.json")),
  );
  assert.match(data.verified_at, /^\d{4}-\d{2}-\d{2}$/);
  for (const [name, entry] of Object.entries(data.clients) as [string, Record<string, unknown>][]) {
    assert.ok(presets.has(name));
    for (const source of entry.sources as { url: string; verified_at: string }[]) {
      // A web page, or a published package by name and version (never a registry's address).
      assert.match(source.url, /^(https:\/\/|npm:(@[^/@]+\/)?[^/@]+@\d+\.\d+\.\d+)/, name);
      assert.match(source.verified_at, /^\d{4}-\d{2}-\d{2}$/, name);
    }
  }
  assert.equal(typeof parsePresets(JSON.parse(Deno.readTextFileSync(TEST_PRESETS))), "object");
});

Deno.test("a preset file without sources is refused with a fixed phrase", () => {
  const bad = JSON.parse(Deno.readTextFileSync(TEST_PRESETS));
  delete bad.clients.tiny.sources;
  assert.equal(
    parsePresets(bad),
    "field clients.tiny.sources must be a non-empty list of {url, verified_at}",
  );
  bad.clients.tiny.sources = [{ url: "https://x.example", verified_at: "2026-11-30" }];
  bad.clients.tiny.rules[0].source = "secret-value";
  assert.equal(
    parsePresets(bad),
    "field clients.tiny.rules[0].source must be an https URL or npm:NAME@VERSION",
  );
});

Deno.test("every --client-file field is type-checked: exit 2 with one line naming it, never its value", async () => {
  await using dir = await tempDir();
  const secret = "SECRET-7f3a9";
  const disguised = { toString: `2026-01-01 ${secret}` };
  // deno-lint-ignore no-explicit-any
  type Edit = (tiny: any) => void;
  const evidence = { client: "tiny", version: "1.2.3", date: "2026-12-02", probe: "main" };
  const cases: [Edit, string][] = [
    [(t) => t.sources[0].verified_at = disguised, "sources[0].verified_at must be a date"],
    [(t) => t.rules[0].verified_at = disguised, "rules[0].verified_at must be a date"],
    [
      (t) => t.rules[0].observed = { ...evidence, date: disguised },
      "rules[0].observed.date must be a date",
    ],
    [(t) => {
      t.protocol_version = {
        value: "2025-06-18",
        source: "https://example.com/tiny",
        verified_at: ["2026-01-01", secret],
      };
    }, "protocol_version.verified_at must be a date"],
    [(t) => t.sources[0].verified_at = "2026-13-45", "sources[0].verified_at must be a date"],
    [(t) => t.rules[1].verified_at = "2026-02-30", "rules[1].verified_at must be a date"],
    [(t) => t.client_info.name = { toString: secret }, "client_info.name must be 1-64 printable"],
    [(t) => t.client_info.version = [secret], "client_info.version must be 1-64 printable"],
    [
      (t) => t.sources[0].url = `http://${secret}@example.com`,
      "sources[0].url must be an https URL or npm:NAME@VERSION",
    ],
    [(t) => t.sources[0].what = { secret }, "sources[0].what must be a string"],
    [(t) => t.rules[2].separator = [secret], "rules[2].separator must be at most 64 printable"],
    [(t) => t.rules[0].note = 7, "rules[0].note must be a string"],
    [(t) => t.instructions_shown = "yes", "instructions_shown must be true, false or null"],
  ];
  for (const [index, [edit, expected]] of cases.entries()) {
    const file = JSON.parse(await Deno.readTextFile(TEST_PRESETS));
    edit(file.clients.tiny);
    const path = join(dir.path, `case-${index}.json`);
    await Deno.writeTextFile(path, JSON.stringify(file));
    const result = await mcpeval(
      ["guidance", "--server", "s", "--client", "tiny", "--client-file", path, "--", "srv"],
      { permissions: [`--allow-run=${DENO}`, `--allow-read=${path}`] },
    );
    assert.equal(result.code, 2, `${expected}: ${result.stderr}`);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^mcpeval: --client-file field clients\.tiny\.[^\n]*\n$/);
    assert.ok(result.stderr.includes(`clients.tiny.${expected}`), result.stderr);
    assert.ok(!result.stderr.includes(secret), `the value was shown: ${result.stderr}`);
  }
  // The file's own date, too.
  const file = JSON.parse(await Deno.readTextFile(TEST_PRESETS));
  file.verified_at = ["2026-11-30"];
  assert.equal(parsePresets(file), "field verified_at must be a date (YYYY-MM-DD)");
});

Deno.test("the library's clientPresets: values that are not JSON are refused, never thrown", () => {
  const file = JSON.parse(Deno.readTextFileSync(TEST_PRESETS));
  file.clients.tiny.capabilities.experimental = { tiny: () => {} };
  assert.equal(
    parsePresets(file),
    "field clients.tiny.capabilities must hold only JSON values",
  );
  file.clients.tiny.capabilities.experimental = { when: new Date(0) };
  assert.equal(
    parsePresets(file),
    "field clients.tiny.capabilities must hold only JSON values",
  );
});

/** A run of the client-catalog fixture under `client:tiny` (and `none` to compare). */
async function tinyRun(...extra: string[]) {
  await using log = await fixtureLog();
  const result = await guidanceJson([
    "--server",
    "fx",
    "--settle-ms",
    "0",
    "--profile",
    "none",
    "--client",
    "tiny",
    "--client-file",
    TEST_PRESETS,
    ...extra,
    "--",
    ...hostile("client-catalog"),
  ], { permissions: READ, env: { MCPEVAL_FIXTURE_LOG: log.path } });
  return { ...result, entries: log.entries() };
}

Deno.test("a preset's rules hide tools: count cap, name length, server+name, characters, app-only", async () => {
  const { code, report } = await tinyRun("--require-tool", "t-149", "--require-tool", "alpha");
  assert.equal(code, 1, "a required tool hidden by a rule is a defect");
  const candidates = report.candidates as {
    kind: string;
    profile: string;
    tool: string;
    rule?: string;
    available_in: string[];
  }[];
  const hidden = candidates.filter((c) => c.kind === "tool-unreachable-in-client");
  const byRule = (rule: string) => hidden.filter((c) => c.rule === rule).map((c) => c.tool);
  assert.deepEqual(byRule("max-name-length"), ["a".repeat(70)]);
  assert.deepEqual(byRule("max-qualified-name-length"), ["q".repeat(57)]);
  assert.deepEqual(byRule("name-characters"), ["dotted.name"]);
  assert.deepEqual(byRule("hide-app-only"), ["app-only-view"]);
  // 155 listed, 4 hidden by name rules, so the cap of 100 hides the last 51 in listing order.
  const capped = byRule("max-tools");
  assert.equal(capped.length, 51);
  assert.ok(capped.includes("t-99") && capped.includes("t-149") && !capped.includes("t-98"));
  assert.ok(hidden.every((c) => c.profile === "client:tiny" && c.available_in.join() === "none"));
  // The instructions name t-149, which the client hides: a reference candidate like any other.
  assert.deepEqual(
    candidates.filter((c) => c.kind === "referenced-tool-unavailable").map((
      c,
    ) => [c.profile, c.tool]),
    [["client:tiny", "t-149"]],
  );
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool]), [["client:tiny", "t-149"]]);
  const profile = report.profiles[1] as unknown as { client: unknown; tool_count: number };
  assert.deepEqual(profile.client, {
    name: "tiny",
    client_info: { name: "tiny-client", version: "1.2.3" },
    instructions_shown: true,
  });
  assert.equal(profile.tool_count, 155, "the catalog is what the server listed");
});

Deno.test("a preset's clientInfo and capabilities reach the server", async () => {
  const { entries } = await tinyRun();
  const initializes =
    (entries as { received?: { method?: string; params?: Record<string, unknown> } }[])
      .flatMap((e) => e.received?.method === "initialize" ? [e.received.params!] : []);
  assert.equal(initializes.length, 2);
  const tiny = initializes.find((p) => (p.clientInfo as { name: string }).name === "tiny-client");
  assert.deepEqual(tiny, {
    protocolVersion: "2025-06-18",
    capabilities: { roots: {}, experimental: { tiny: {} } },
    clientInfo: { name: "tiny-client", version: "1.2.3" },
  });
});

Deno.test("--unknown-references flags a typo with a suggestion from the catalogs", async () => {
  const { report } = await tinyRun("--unknown-references");
  assert.equal(
    (report as unknown as { reference_detection: string }).reference_detection,
    "inline-code-identifiers",
  );
  const unknown = report.candidates
    .filter((c) => c.kind === "referenced-tool-unknown");
  assert.deepEqual(unknown.map((c) => [c.profile, c.tool, c.suggestion]), [
    ["none", "alpah", "alpha"],
    ["client:tiny", "alpah", "alpha"],
  ]);
});

Deno.test("--unknown-references flags the capability tools a proxy hides from every catalog", async () => {
  const proxied = [
    DENO,
    "run",
    "--quiet",
    "--allow-run",
    join(ROOT, "fixtures", "proxy.ts"),
    "--",
    ...EVERYTHING,
  ];
  const { code, report } = await guidanceJson(
    ["--server", "proxied", "--settle-ms", "500", "--unknown-references", "--", ...proxied],
    { permissions: [`--allow-run=${DENO}`] },
  );
  assert.equal(code, 0, "candidates never fail the gate");
  assert.deepEqual(report.profiles.map((p) => p.tool_count), [13, 13, 13, 13, 13]);
  const unknown = new Set(
    report.candidates.filter((c) => c.kind === "referenced-tool-unknown").map((c) => c.tool),
  );
  for (
    const tool of ["get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"]
  ) {
    assert.ok(unknown.has(tool), tool);
  }
  // Without the option the seed's scope holds: nothing is flagged.
  const plain = await guidanceJson(
    ["--server", "proxied", "--settle-ms", "500", "--", ...proxied],
    { permissions: [`--allow-run=${DENO}`] },
  );
  assert.deepEqual(plain.report.candidates, []);
});

Deno.test("--client alone runs only the client profiles; an unknown name gets a suggestion", async () => {
  const ctx = testContext({ readTextFile: () => Deno.readTextFile(TEST_PRESETS) });
  assert.equal(
    await run([
      "guidance",
      "--server",
      "s",
      "--client",
      "tinny",
      "--client-file",
      TEST_PRESETS,
      "--",
      "srv",
    ], ctx),
    2,
  );
  assert.match(
    ctx.err(),
    /^mcpeval: --client must name a client preset: .*tiny.*; did you mean tiny\?\n$/,
  );
  const { report } = await guidanceJson(
    [
      "--server",
      "d",
      "--settle-ms",
      "0",
      "--client",
      "tiny",
      "--client-file",
      TEST_PRESETS,
      "--",
      ...fixture("demo/server.ts"),
    ],
    { permissions: READ },
  );
  assert.deepEqual(report.profiles.map((p) => p.profile), ["client:tiny"]);
});

Deno.test("server-everything under --client vscode lists what a client with roots, sampling and elicitation sees, and more", async () => {
  const { code, report } = await guidanceJson([
    "--server",
    "everything",
    "--profile",
    "all",
    "--client",
    "vscode",
    "--settle-ms",
    "500",
    "--",
    ...EVERYTHING,
  ], { permissions: [`--allow-run=${DENO}`] });
  assert.equal(code, 0);
  const [all, vscode] = report.profiles;
  assert.equal(vscode.profile, "client:vscode");
  assert.ok(all.tools!.every((tool) => vscode.tools!.includes(tool)), "everything `all` lists");
  // VS Code also declares elicitation.url and tasks, for which server-everything adds tools.
  assert.deepEqual(vscode.tools!.filter((tool) => !all.tools!.includes(tool)), [
    "trigger-elicitation-request-async",
    "trigger-sampling-request-async",
    "trigger-url-elicitation",
  ]);
});

Deno.test("a fleet: a client's tool cap counts across servers in config order", async () => {
  await using dir = await tempDir();
  const entry = (scenario: string) => {
    const [command, ...args] = hostile(scenario);
    return { command, args };
  };
  const run = async (order: string[]) => {
    const config = join(dir.path, `${order.join("-")}.json`);
    const servers = Object.fromEntries(
      order.map((name) => [name, entry(name === "big" ? "client-catalog" : "default")]),
    );
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: servers }));
    const result = await mcpeval(
      [
        "guidance",
        "--config",
        config,
        "--client",
        "tiny",
        "--client-file",
        TEST_PRESETS,
        "--settle-ms",
        "0",
        "--format",
        "json",
      ],
      { permissions: [...READ, `--allow-read=${config},${TEST_PRESETS}`] },
    );
    const fleet = JSON.parse(result.stdout);
    return Object.fromEntries(
      fleet.servers.map((
        server: { name: string; report: { candidates: { kind: string; rule?: string }[] } },
      ) => [
        server.name,
        server.report.candidates.filter((c) => c.rule === "max-tools").length,
      ]),
    );
  };
  // big lists 151 tools the name rules let through; the cap of 100 is shared.
  assert.deepEqual(await run(["big", "small"]), { big: 51, small: 2 });
  assert.deepEqual(await run(["small", "big"]), { small: 0, big: 53 });
});
