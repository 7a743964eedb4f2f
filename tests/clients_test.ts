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
    "client tiny needs sources, each with an https url or npm:NAME@VERSION and a verified_at date",
  );
  bad.clients.tiny.sources = [{ url: "https://x.example", verified_at: "2026-11-30" }];
  bad.clients.tiny.rules[0].source = "secret-value";
  assert.equal(
    parsePresets(bad),
    "client tiny has a max-tools rule without an https or npm:NAME@VERSION source and a verified_at date",
  );
  // A package cited by name and version is a source; by name alone (no version) it is not.
  bad.clients.tiny.sources = [{ url: "npm:@tiny/cli@1.2.3", verified_at: "2026-11-30" }];
  bad.clients.tiny.rules[0].source = "npm:tiny-cli@1.2.3-beta.1";
  assert.equal(typeof parsePresets(bad), "object");
  bad.clients.tiny.rules[0].source = "npm:tiny-cli";
  assert.equal(
    parsePresets(bad),
    "client tiny has a max-tools rule without an https or npm:NAME@VERSION source and a verified_at date",
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

Deno.test("a config run: a client's tool cap counts across servers in config order", async () => {
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
