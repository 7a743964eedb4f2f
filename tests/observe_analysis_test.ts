/**
 * Observed profiles in the analysis and the report (pure, in-process): what the model did not
 * receive is `tool-unreachable-in-client` with rule `observed` (a required tool a defect); a
 * preset and the observation of its client disagree tool by tool (`preset-disagrees-with-client`,
 * both ways, paired by client and version: `client:NAME` is the newest observed version); the report validates, every format shows the new
 * kind and the observation in fixed phrases only, and a baseline reads both back. Also the
 * pieces: `--observe` values, what the model received from the stand-in's requests, the
 * verbatim prefix of instructions, and the integrity each committed observation recorded, which
 * `--observe` installs against.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { disagreements, observedHidden, presetPairs } from "../src/analysis/observed.ts";
import { analyze } from "../src/analysis/findings.ts";
import { selectBaseline } from "../src/baseline/read.ts";
import { builtinPresets, knownPresets, newestObserved } from "../src/clients/presets.ts";
import { compareVersions } from "../src/clients/versions.ts";
import type { ObservedOutcome } from "../src/discovery/observed.ts";
import type { ProfileOutcome } from "../src/discovery/session.ts";
import { modelReceived, shownPrefix } from "../src/lab/observe_model.ts";
import { INTEGRITY } from "../src/lab/committed.ts";
import { resolveClient } from "../src/lab/observe_install.ts";
import { observationsIn } from "../src/lab/presets_file.ts";
import { buildReport } from "../src/report/build.ts";
import { FORMATS, loadFormats, STEP_SUMMARY } from "../src/report/formats/mod.ts";
import { GuidanceReportSchema } from "../src/report/schema.ts";
import { observeRequests } from "../src/request/observe.ts";
import { validateSettings } from "../src/request/request.ts";
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

/** The observed profile (of claude-code at `version`): the catalog, and what its model received. */
function observed(tools: string[], received: string[], version = "2.1.332"): ObservedOutcome {
  return {
    ...listed(`observed:claude-code@${version}`, tools),
    observed: {
      client: "claude-code",
      version,
      opening: {
        method: "initialize",
        protocolVersion: "2025-11-25",
        capabilities: ["elicitation", "roots"],
        clientInfo: { name: "claude-code", version },
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

Deno.test("observed: presets pair with the observations of their client and version", () => {
  assert.deepEqual(
    presetPairs([
      { profile: "none" },
      // `client:NAME` is a preset of the newest observed version: that version's observation.
      { profile: "client:claude-code", version: "2.1.337" },
      { profile: "client:codex@0.171.0", version: "0.171.0" },
      // A preset file's entry of no known version: every observation of its client.
      { profile: "client:cline" },
      { profile: "observed:claude-code@2.1.332" },
      { profile: "observed:claude-code@2.1.337" },
      { profile: "observed:codex@0.170.0" },
      { profile: "observed:codex@0.171.0" },
      { profile: "observed:cline@3.0.61" },
      { profile: "observed:cline@3.0.65" },
    ]),
    [
      ["client:claude-code", "observed:claude-code@2.1.337"],
      ["client:codex@0.171.0", "observed:codex@0.171.0"],
      ["client:cline", "observed:cline@3.0.61"],
      ["client:cline", "observed:cline@3.0.65"],
    ],
  );
  assert.deepEqual(
    disagreements([
      {
        profile: "client:claude-code",
        version: "2.1.332",
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
  // `--client claude-code@2.1.332`: the preset of the observed version.
  const PRESET = "client:claude-code@2.1.332" as const;
  const clients = new Map([["claude-code@2.1.332", knownPresets().get("claude-code@2.1.332")!]]);
  const settings = {
    server: "srv",
    requiredTools: ["c"],
    settleMs: 0,
    timeoutMs: 1000,
    protocolVersion: "2025-06-18" as const,
    profiles: [PRESET, OBSERVED] as const,
    clients,
    target: { kind: "stdio" as const },
  };
  const report = buildReport({ ...settings, profiles: [...settings.profiles] }, [
    listed(PRESET, ["a", "b", "c"]),
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
      ["preset-disagrees-with-client", PRESET, "b", undefined],
      ["preset-disagrees-with-client", PRESET, "c", undefined],
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
    /client:claude-code@2\.1\.332: its preset sends `b` to the model, but observed:claude-code@2\.1\.332's model did not receive it/,
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

Deno.test("every committed observation records its install's integrity; --observe NAME installs the newest observed version (the one --client NAME selects) against it", async () => {
  const dir = join(ROOT, "src", "clients", "observed");
  const files = [...Deno.readDirSync(dir)].filter((entry) => entry.name.endsWith(".json"));
  const observations = await observationsIn(dir);
  assert.equal(observations.length, files.length, "every file is an observation");
  for (const observation of observations) {
    assert.match(observation.integrity ?? "", INTEGRITY, observation.version);
  }
  // The registry is asked only for @latest and for versions the lab has not observed.
  const noRegistry = () => Promise.reject(new Error("the registry is not asked"));
  for (const client of new Set(observations.map((observation) => observation.client))) {
    const own = observations.filter((observation) => observation.client === client);
    const newest = own.map((observation) => observation.version).sort(compareVersions).at(-1)!;
    assert.equal(newestObserved(client), newest);
    assert.equal(builtinPresets().get(client)?.version, newest, `--client ${client}`);
    for (const [choice, version] of [[{ client }, newest], [own[0], own[0].version]] as const) {
      const resolved = await resolveClient({ client, version: choice.version }, noRegistry);
      assert.equal(resolved.version, version);
      assert.equal(resolved.label, `observed:${client}@${version}`);
      assert.equal(
        resolved.integrity,
        own.find((observation) => observation.version === version)!.integrity,
      );
    }
  }
  assert.equal(newestObserved("claude-code"), "2.1.337");
  assert.equal(newestObserved("nosuch"), undefined);
});

Deno.test("preset-disagrees-with-client pairs a preset with its own version's observation: --client NAME is the newest", () => {
  const newest = newestObserved("claude-code")!;
  const settings = validateSettings({ clients: ["claude-code", "claude-code@2.1.246"] });
  assert.equal(settings.clients.get("claude-code")?.version, newest);
  assert.deepEqual(settings.profiles, ["client:claude-code", "client:claude-code@2.1.246"]);
  /** The disagreements of both presets beside the observation of `version` (b not received). */
  const disagreeing = (version: string) =>
    buildReport({
      ...settings,
      server: "srv",
      requiredTools: [],
      target: { kind: "stdio" as const },
      profiles: [...settings.profiles, `observed:claude-code@${version}`],
    }, [
      listed("client:claude-code", ["a", "b"]),
      listed("client:claude-code@2.1.246", ["a", "b"]),
      observed(["a", "b"], ["a"], version),
    ]).candidates.flatMap((c) =>
      c.kind === "preset-disagrees-with-client" ? [[c.profile, c.observed_profile, c.tool]] : []
    );
  assert.deepEqual(disagreeing(newest), [
    ["client:claude-code", `observed:claude-code@${newest}`, "b"],
  ]);
  assert.deepEqual(disagreeing("2.1.246"), [
    ["client:claude-code@2.1.246", "observed:claude-code@2.1.246", "b"],
  ]);
  assert.deepEqual(disagreeing("2.1.332"), [], "no preset of 2.1.332 in the run");
});
