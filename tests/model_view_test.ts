/**
 * What the model is shown (SPEC 25), through the real CLI: references read from the
 * instructions as each client shows them, per client preset.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, fleetJson, guidanceJson, hostile, mcpeval, tempDir } from "./_cli.ts";

const ARGS = [
  "--server",
  "fx",
  "--settle-ms",
  "0",
  "--client",
  "claude-code",
  "--client",
  "codex",
  "--client",
  "copilot-cli",
  "--client",
  "cursor",
];

Deno.test("instructions past a client's cut: reference-cut-in-client under claude-code only, and each client's reading said", async () => {
  const { code, report } = await guidanceJson([...ARGS, "--", ...hostile("instructions-cut")]);
  assert.equal(code, 0);
  // deno-lint-ignore no-explicit-any
  const candidates = (report as any).candidates as Record<string, unknown>[];
  const cut = candidates.filter((c) => c.kind === "reference-cut-in-client");
  assert.deepEqual(
    cut.map((c) => [c.profile, c.tool, c.cut]),
    [["client:claude-code", "beta", 4096], ["client:claude-code", "gamma", 4096]],
  );
  // No other reference candidate: every tool is listed in every profile.
  assert.deepEqual(candidates.filter((c) => c.kind === "referenced-tool-unavailable"), []);
  // deno-lint-ignore no-explicit-any
  const clients = Object.fromEntries((report as any).profiles.map((
    p: { profile: string; client: Record<string, unknown> },
  ) => [p.profile, p.client]));
  assert.equal(clients["client:claude-code"].instructions_cut, 4096);
  assert.equal(clients["client:claude-code"].references, undefined);
  assert.equal(clients["client:codex"].references, undefined);
  assert.equal(clients["client:copilot-cli"].references, "not-shown");
  assert.equal(clients["client:cursor"].references, "as-given");
  assert.equal(clients["client:cursor"].instructions_shown, null);
});

Deno.test("instructions past a client's cut: text, github, junit and sarif say it in fixed phrases", async () => {
  const run = async (format: string) => {
    const result = await mcpeval(
      ["guidance", "--format", format, ...ARGS, "--", ...hostile("instructions-cut")],
      { permissions: [`--allow-run=${DENO}`] },
    );
    assert.equal(result.code, 0, result.stderr);
    // Lines wrap where the terminal's width says: compared with single spaces.
    return format === "sarif" ? result.stdout : result.stdout.replace(/\s+/g, " ");
  };
  const text = await run("text");
  assert.match(
    text,
    /client:claude-code: `beta` is named in the instructions only past the first 4096 characters/,
  );
  assert.match(
    text,
    /client:copilot-cli: its client shows its model no server instructions, so they give no reference candidates/,
  );
  assert.match(
    text,
    /client:cursor: how its client shows server instructions is not known, so references are read from the instructions as given/,
  );
  assert.match(
    text,
    /client:claude-code: references are read from the first 4096 characters of each server's instructions/,
  );
  assert.ok(!text.includes("aaaa"), "no server text");
  const github = await run("github");
  assert.match(github, /`gamma` is named in the instructions only past the first 4096 characters/);
  const junit = await run("junit");
  assert.match(junit, /`beta` is named in the instructions only past the first 4096 characters/);
  assert.match(junit, /its client shows its model no server instructions/);
  const sarif = JSON.parse(await run("sarif"));
  const results = sarif.runs[0].results as { ruleId: string }[];
  assert.equal(results.filter((r) => r.ruleId === "reference-cut-in-client").length, 2);
});

/** A --client-file of two hand-written presets: a model API's name limit, an outputSchema check. */
const PRESETS = {
  schema: "mcpeval.client-presets/v1",
  verified_at: "2026-12-07",
  clients: {
    strict: {
      client_info: { name: "strict-client", version: "1.0.0" },
      capabilities: {},
      instructions_shown: true,
      rules: [{
        id: "api-name-length",
        value: 64,
        prefix: "mcp__",
        separator: "__",
        effect: "reject-request",
        source: "https://example.com/strict",
        verified_at: "2026-12-07",
      }],
      sources: [{ url: "https://example.com/strict", verified_at: "2026-12-07" }],
    },
    refusing: {
      client_info: { name: "refusing-client", version: "1.0.0" },
      capabilities: {},
      instructions_shown: true,
      rules: [{
        id: "output-schema-invalid",
        value: "draft-07",
        effect: "drop-server",
        source: "https://example.com/refusing",
        verified_at: "2026-12-07",
      }],
      sources: [{ url: "https://example.com/refusing", verified_at: "2026-12-07" }],
    },
  },
};

Deno.test("reject-request: one tool of 74 characters qualified makes every server of that client unreachable in a fleet; an invalid outputSchema drops its server where the preset says so", async () => {
  await using dir = await tempDir();
  const presets = join(dir.path, "presets.json");
  await Deno.writeTextFile(presets, JSON.stringify(PRESETS));
  const entry = (scenario: string) => {
    const [command, ...args] = hostile(scenario);
    return { command, args };
  };
  const config = join(dir.path, "fleet.mcp.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: {
        "long-name": entry("long-name"),
        "other": entry("default"),
        "typed": entry("output-invalid"),
      },
    }),
  );
  const args = [
    "--config",
    config,
    "--client",
    "strict",
    "--client",
    "refusing",
    "--client-file",
    presets,
    "--settle-ms",
    "0",
    "--require-tool",
    "other:alpha",
    "--require-tool",
    "typed:plain",
  ];
  const permissions = [`--allow-run=${DENO}`, `--allow-read=${config},${presets}`];
  const { code, fleet } = await fleetJson(args, { permissions });
  // The required tools are unavailable where their client's rules hide them: a failing gate.
  assert.equal(code, 1);
  // deno-lint-ignore no-explicit-any
  const servers = Object.fromEntries(fleet.servers.map((s: any) => [s.name, s.report]));
  // deno-lint-ignore no-explicit-any
  const unreachable = (report: any) =>
    report.candidates.filter((c: { kind: string }) => c.kind === "tool-unreachable-in-client")
      .map((c: { profile: string; tool: string; rule: string; effect: string }) =>
        [c.profile, c.tool, c.rule, c.effect].join(" ")
      );
  assert.deepEqual(unreachable(servers["long-name"]), [
    `client:strict t${"x".repeat(57)} api-name-length reject-request`,
  ]);
  // Reported once, on the server that causes it; every other server's tools are unreachable in
  // that client too (no request of it succeeds), as a required tool there shows.
  // deno-lint-ignore no-explicit-any
  const defects = (report: any) =>
    report.defects.map((d: { profile: string; tool: string }) => `${d.profile} ${d.tool}`);
  assert.deepEqual(defects(servers.other), ["client:strict alpha"]);
  assert.deepEqual(unreachable(servers.typed), [
    "client:refusing typed output-schema-invalid drop-server",
  ]);
  // The server refused whole: its valid tool too, in that client only.
  assert.deepEqual(defects(servers.typed), ["client:strict plain", "client:refusing plain"]);
  assert.deepEqual(unreachable(servers.other), []);
  // The text says what a refused request does: every server of that client, not only this one.
  const text = await mcpeval(["guidance", "--format", "text", ...args], { permissions });
  const words = text.stdout.replaceAll(/\s+/g, " ");
  assert.ok(
    words.includes(
      "makes its client's api-name-length rule fail every request to its model (reject-request)",
    ),
    text.stdout,
  );
  assert.ok(words.includes("so no tool of any of its servers reaches it"), text.stdout);
  assert.ok(
    words.includes("output-schema-invalid rule hide every tool of this server (drop-server)"),
  );
});

Deno.test("one outputSchema of unknown type: drop-server under the observed clients that refuse the server, nothing under the others", async () => {
  const { code, report } = await guidanceJson([
    "--server",
    "fx",
    "--settle-ms",
    "0",
    "--client",
    "continue-cli@1.5.47",
    "--client",
    "claude-code@2.1.337",
    "--require-tool",
    "plain",
    "--",
    ...hostile("output-invalid"),
  ]);
  // Continue CLI 1.5.47 was observed to refuse the whole server (out-unknown-type): the
  // required tool beside it is unavailable there, and only there.
  assert.equal(code, 1);
  // deno-lint-ignore no-explicit-any
  const { candidates, defects } = report as any;
  assert.deepEqual(
    candidates.filter((c: { kind: string }) => c.kind === "tool-unreachable-in-client")
      .map((c: Record<string, string>) => [c.profile, c.tool, c.rule, c.effect]),
    [["client:continue-cli@1.5.47", "typed", "output-schema-unknown-type", "drop-server"]],
  );
  assert.deepEqual(
    defects.map((d: Record<string, string>) => [d.kind, d.profile, d.tool]),
    [["required-tool-unavailable", "client:continue-cli@1.5.47", "plain"]],
  );
});
