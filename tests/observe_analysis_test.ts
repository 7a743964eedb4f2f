/**
 * Observed profiles in the analysis and the report (pure, in-process): what the model did not
 * receive is `tool-unreachable-in-client` with rule `observed` (a required tool a defect); a
 * preset and the observation of its client disagree tool by tool (`preset-disagrees-with-client`,
 * both ways, paired by client and version); the report validates, every format shows the new
 * kind and the observation in fixed phrases only, and a baseline reads both back. Also the
 * pieces: `--observe` values, what the model received from the stand-in's requests, the
 * verbatim prefix of instructions, and the recorded integrities against the observations.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { disagreements, observedHidden, presetPairs } from "../src/analysis/observed.ts";
import { analyze } from "../src/analysis/findings.ts";
import { selectBaseline } from "../src/baseline/read.ts";
import { builtinPresets } from "../src/clients/presets.ts";
import type { ObservedOutcome } from "../src/discovery/observed.ts";
import type { ProfileOutcome } from "../src/discovery/session.ts";
import { modelReceived, shownPrefix } from "../src/lab/observe_model.ts";
import { compareVersions, newestRecorded, RECORDED } from "../src/lab/recorded.ts";
import { buildReport } from "../src/report/build.ts";
import { FORMATS, loadFormats, STEP_SUMMARY } from "../src/report/formats/mod.ts";
import { GuidanceReportSchema } from "../src/report/schema.ts";
import { observeRequests } from "../src/request/observe.ts";
import { ROOT } from "./_cli.ts";
import { assertKnownIds } from "./_known_ids.ts";

const OBSERVED = "observed:claude-code@2.1.332" as const;

/** A render's text: a string, or its pieces joined. */
function joined(rendered: string | Iterable<string>): string {
  return typeof rendered === "string" ? rendered : [...rendered].join("");
}

/** A complete outcome of `profile` listing `tools`. */
function listed(profile: ProfileOutcome["profile"], tools: string[]): ProfileOutcome {
  return {
    profile,
    complete: true,
    instructionsPresent: true,
    codeSpans: new Set(["b"]),
    tools: [...tools].sort(),
    listed: tools,
    appOnly: new Set(),
    pages: 1,
  };
}

/** The observed profile: the catalog, and what its model received. */
function observed(tools: string[], received: string[]): ObservedOutcome {
  return {
    ...listed(OBSERVED, tools),
    observed: {
      client: "claude-code",
      version: "2.1.332",
      opening: {
        method: "initialize",
        protocolVersion: "2025-11-25",
        capabilities: ["elicitation", "roots"],
        clientInfo: { name: "claude-code", version: "2.1.332" },
      },
      modelRequests: 1,
      received: new Set(received),
      instructions: { chars: 100, shownChars: 40 },
    },
  };
}

Deno.test("observed: a listed tool the model did not receive is hidden by rule observed", () => {
  assert.deepEqual(
    [...observedHidden(["a", "b", "c"], new Set(["b"]))],
    [["a", { rule: "observed", effect: "drop-tool", reported: true }], [
      "c",
      { rule: "observed", effect: "drop-tool", reported: true },
    ]],
  );
});

Deno.test("observed: presets pair with the observations of their client (and version)", () => {
  assert.deepEqual(
    presetPairs([
      "none",
      "client:claude-code",
      "client:codex@0.171.0",
      "observed:claude-code@2.1.332",
      "observed:codex@0.170.0",
      "observed:codex@0.171.0",
    ]),
    [
      ["client:claude-code", "observed:claude-code@2.1.332"],
      ["client:codex@0.171.0", "observed:codex@0.171.0"],
    ],
  );
  assert.deepEqual(
    disagreements([
      {
        profile: "client:claude-code",
        listed: ["a", "b", "c", "d"],
        hidden: new Map([["a", { rule: "max-name-length" }], ["d", { rule: "hide-app-only" }]]),
        filtered: new Map([["d", "disabled-tools"]]),
      },
      {
        profile: OBSERVED,
        listed: ["a", "b", "c", "d"],
        hidden: new Map([["b", { rule: "observed" }], ["d", { rule: "observed" }]]),
      },
    ]),
    [
      { profile: "client:claude-code", observed: OBSERVED, tool: "a", rule: "max-name-length" },
      { profile: "client:claude-code", observed: OBSERVED, tool: "b" },
    ],
  );
});

Deno.test("observed: the report, every format, and a baseline with preset-disagrees-with-client", async () => {
  const clients = new Map([["claude-code", builtinPresets().get("claude-code")!]]);
  const settings = {
    server: "srv",
    requiredTools: ["c"],
    settleMs: 0,
    timeoutMs: 1000,
    protocolVersion: "2025-06-18" as const,
    profiles: ["client:claude-code", OBSERVED] as const,
    clients,
    target: { kind: "stdio" as const },
  };
  const report = buildReport({ ...settings, profiles: [...settings.profiles] }, [
    listed("client:claude-code", ["a", "b", "c"]),
    observed(["a", "b", "c"], ["a"]),
  ]);
  const parsed = GuidanceReportSchema.parse(JSON.parse(JSON.stringify(report)));
  assertKnownIds(parsed);
  assert.deepEqual(
    report.candidates.map((c) => [c.kind, c.profile, c.tool, "rule" in c ? c.rule : undefined]),
    [
      // The instructions name `b`, which the observed client's model did not receive.
      ["referenced-tool-unavailable", OBSERVED, "b", undefined],
      ["tool-unreachable-in-client", OBSERVED, "b", "observed"],
      ["tool-unreachable-in-client", OBSERVED, "c", "observed"],
      ["preset-disagrees-with-client", "client:claude-code", "b", undefined],
      ["preset-disagrees-with-client", "client:claude-code", "c", undefined],
    ],
  );
  assert.deepEqual(
    report.defects.map((d) => [d.kind, d.profile, d.tool]),
    [["required-tool-unavailable", OBSERVED, "c"]],
  );
  const profile = report.profiles[1];
  assert.deepEqual(profile.observed, {
    client: "claude-code",
    version: "2.1.332",
    opening: "initialize",
    protocol_version: "2025-11-25",
    capabilities: ["elicitation", "roots"],
    client_info: { name: "claude-code", version: "2.1.332" },
    model_requests: 1,
    tools_received: 1,
    instructions_chars: 100,
    instructions_shown_chars: 40,
  });
  const formats = await loadFormats([...FORMATS, STEP_SUMMARY]);
  for (const [format, module] of formats) {
    const rendered = joined(module.render({ kind: "server", report }, { color: false }));
    if (format === "json") continue;
    assert.match(
      rendered,
      /preset-disagrees-with-client|PresetDisagreesWithClient|disagree/i,
      format,
    );
  }
  // The text report's lines, unwrapped.
  const text = joined(formats.get("text")!.render({ kind: "server", report }, { color: false }))
    .replaceAll(/\n +/g, " ");
  assert.match(
    text,
    /client:claude-code: its preset sends `b` to the model, but observed:claude-code@2\.1\.332's model did not receive it/,
  );
  assert.match(
    text,
    /observed:claude-code@2\.1\.332: `b` is listed but the real client's model did not receive it \(observed\)/,
  );
  assert.match(
    text,
    /observed:claude-code@2\.1\.332: claude-code 2\.1\.332 opened with initialize \(2025-11-25\), 1 model request; its model received 1 of 3 listed tools and 40 of 100 characters of the instructions/,
  );
  const baseline = selectBaseline(JSON.parse(JSON.stringify(report)), "srv");
  assert.ok(baseline.ok);
  assert.deepEqual(
    baseline.baseline.findings.map((f) => [f.kind, f.tool, f.rule, f.observed]),
    [
      ["referenced-tool-unavailable", "b", undefined, undefined],
      ["tool-unreachable-in-client", "b", "observed", undefined],
      ["tool-unreachable-in-client", "c", "observed", undefined],
      ["preset-disagrees-with-client", "b", undefined, OBSERVED],
      ["preset-disagrees-with-client", "c", undefined, OBSERVED],
      ["required-tool-unavailable", "c", undefined, undefined],
    ],
  );
});

Deno.test("observed: the seed's analysis runs on an observed profile unchanged", () => {
  const { findings } = analyze([
    { profile: "none", codeSpans: new Set(["b"]), tools: ["a"] },
    {
      profile: OBSERVED,
      codeSpans: new Set(),
      tools: ["a", "b"],
      hidden: observedHidden(["a", "b"], new Set(["a", "b"])),
    },
  ], []);
  assert.deepEqual(findings.map((f) => [f.kind, f.profile, f.tool, f.availableIn]), [
    ["referenced-tool-unavailable", "none", "b", [OBSERVED]],
  ]);
});

Deno.test("--observe values: NAME, NAME@VERSION, NAME@latest; duplicates collapse", () => {
  assert.deepEqual(observeRequests(["codex", "codex@0.171.0", "cline@latest", "codex"]), [
    { client: "codex" },
    { client: "codex", version: "0.171.0" },
    { client: "cline", version: "latest" },
  ]);
  for (const bad of [["Codex"], ["codex@"], ["codex@1.2"], ["@1.2.3"], [1], "codex"]) {
    assert.equal(observeRequests(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("what the model received: markers anywhere, names for tools without one, the instructions' prefix", () => {
  const instructions = "Use `alpha` first; then anything else you like, in any order.";
  const requests = [{
    path: "/v1/messages",
    body: {
      system: `You are helpful. ${instructions.slice(0, 40)} [truncated]`,
      tools: [
        { name: "mcp__srv__alpha", description: "mk9s0t0z The first.", input_schema: {} },
        { name: "mcp__srv__g_mma", input_schema: {} },
        { name: "ToolSearch", description: 'Deferred: `"mcp__srv__delta": "mk9s0t3z ..."`' },
      ],
    },
  }];
  const handed = [
    { key: "alpha", name: "alpha", marker: "mk9s0t0z" },
    { key: "beta", name: "beta", marker: "mk9s0t1z" },
    { key: "g.mma", name: "g.mma", marker: null },
    { key: "delta", name: "delta", marker: "mk9s0t3z" },
  ];
  const [seen] = modelReceived("anthropic", requests, [{ handed, instructions }], /mk9s\d+t\d+z/);
  assert.deepEqual([...seen.received].sort(), ["alpha", "delta", "g.mma"]);
  assert.equal(seen.instructionsShown, 40);
  assert.equal(shownPrefix(instructions, [instructions]), instructions.length);
  assert.equal(shownPrefix(instructions, [instructions.slice(0, 31)]), 0, "under 32 is chance");
  assert.equal(shownPrefix("short", ["a short text"]), 5);
  assert.equal(shownPrefix("", ["x"]), 0);
});

Deno.test("recorded integrities: one per committed observation, both ways, and the newest by version", async () => {
  const observed = new Set<string>();
  for await (const entry of Deno.readDir(join(ROOT, "src", "clients", "observed"))) {
    if (entry.name.endsWith(".json")) observed.add(entry.name.slice(0, -".json".length));
  }
  const recorded = new Set(
    Object.entries(RECORDED).flatMap(([client, versions]) =>
      Object.keys(versions).map((version) => `${client}@${version}`)
    ),
  );
  assert.deepEqual([...recorded].sort(), [...observed].sort());
  for (const versions of Object.values(RECORDED)) {
    for (const integrity of Object.values(versions)) {
      assert.match(integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  }
  assert.equal(newestRecorded("claude-code"), "2.1.332");
  assert.equal(newestRecorded("nosuch"), undefined);
  assert.ok(compareVersions("1.0.102", "1.0.99") > 0);
  assert.ok(compareVersions("2.0.0-beta.1", "2.0.0") < 0);
});
