/**
 * Presets per client version, through the CLI (SPEC 23): `--client NAME@VERSION` selects the
 * preset derived from that version's observation (label `client:NAME@VERSION`), and against the
 * lab's probe servers (real processes over stdio) it hides exactly what that version's client
 * did not send; `--client NAME` is the newest observed version; an unknown or malformed version
 * exits 2 with one line; a preset accepts the revisions its client accepted (Cline 3.0.65
 * connects to servers that answer newer revisions than it asks for); an observation file is a
 * `--client-file` itself. And `mcpeval lab`'s own mistakes: one line, exit 2.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ObservationSchema } from "../src/lab/observation.ts";
import { invalidNameKey } from "../src/tool_name.ts";
import { REVISION_SERVERS } from "../src/lab/probe_catalog.ts";
import { builtinPresets } from "../src/clients/presets.ts";
import { DENO, guidanceJson, mcpeval, ROOT, tempDir } from "./_cli.ts";

const OBSERVED = join(ROOT, "src", "clients", "observed");

/** The committed observation of `label` (`NAME@VERSION`). */
const observation = (label: string) =>
  ObservationSchema.parse(JSON.parse(Deno.readTextFileSync(join(OBSERVED, `${label}.json`))));

/** The lab's probe server for `catalog` over stdio, recording into `dir`. */
const probe = (catalog: string, dir: string) => [
  DENO,
  "run",
  "--quiet",
  `--allow-read=${dir}`,
  `--allow-write=${dir}`,
  join(ROOT, "src", "lab", "probe_server.ts"),
  catalog,
  dir,
];

/** `guidance` of probe server `catalog` with `selection`, its JSON report validated. */
async function run(catalog: string, selection: readonly string[], permissions: string[] = []) {
  await using dir = await tempDir();
  return await guidanceJson(
    ["--server", catalog, "--settle-ms", "0", ...selection, "--", ...probe(catalog, dir.path)],
    { permissions: [`--allow-run=${DENO}`, ...permissions] },
  );
}

for (const label of ["claude-code@2.1.246", "claude-code@2.1.332"]) {
  Deno.test(`--client ${label}: hides on the main probe server exactly what that version did not send`, async () => {
    const observed = observation(label).servers.find((s) => s.label === "main")!;
    const { report } = await run("main", ["--client", label]);
    const profile = `client:${label}`;
    assert.deepEqual(report.profiles.map((p) => [p.profile, p.complete]), [[profile, true]]);
    const hidden = report.candidates
      .filter((c) => c.kind === "tool-unreachable-in-client" && c.profile === profile)
      .map((c) => c.tool).sort();
    const unsent = observed.tools.flatMap((tool, index) =>
      tool.sent
        ? []
        : [/^[A-Za-z0-9_./-]+$/.test(tool.name) ? tool.name : invalidNameKey(index + 1)]
    ).sort();
    assert.deepEqual(hidden, unsent);
    const client = (report as unknown as { profiles: { client?: unknown }[] }).profiles[0].client;
    assert.deepEqual(
      client as { name: string; version: string },
      {
        name: "claude-code",
        version: label.split("@")[1],
        client_info: (client as { client_info: unknown }).client_info,
        instructions_shown: observation(label).instructions_shown,
      },
    );
  });
}

Deno.test("--client claude-code is the newest observed version, named in its client object", async () => {
  const { report } = await run("main", ["--client", "claude-code"]);
  assert.deepEqual(report.profiles.map((p) => p.profile), ["client:claude-code"]);
  const client = (report as unknown as { profiles: { client: { version: string } }[] })
    .profiles[0].client;
  assert.equal(client.version, builtinPresets().get("claude-code")!.version);
});

for (
  const [what, value, pattern] of [
    [
      "a version with no observation",
      "claude-code@9.9.9",
      /^mcpeval: --client claude-code@VERSION: no observation of that version \(known: [0-9., ]*2\.1\.246[0-9., ]*\); observe it with mcpeval lab --client claude-code@VERSION --client-file-out FILE, then pass --client-file FILE\n$/,
    ],
    [
      "a malformed version",
      "claude-code@2.x",
      /^mcpeval: --client claude-code@VERSION: VERSION must be MAJOR\.MINOR\.PATCH \(semver\)\n$/,
    ],
    [
      "a version of a hand-written preset",
      "vscode@1.0.0",
      /^mcpeval: --client vscode@VERSION: vscode's preset is hand-written \(it cannot run headless\) and has no versions: give --client vscode\n$/,
    ],
  ] as const
) {
  Deno.test(`--client with ${what}: exit 2, one line, before any server starts`, async () => {
    const result = await mcpeval(["guidance", "--client", value, "--", "no-such-server"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, pattern);
  });
}

Deno.test("--client cline against a server of each one revision: connects where Cline 3.0.65 did", async () => {
  const revisions = observation("cline@3.0.65").revisions!;
  assert.ok(revisions.some((r) => r.sent && r.revision > "2024-11-05"), "it accepts newer ones");
  // Each revision it was observed with (a revision added since is not in its observation).
  for (const [catalog, revision] of Object.entries(REVISION_SERVERS)) {
    const observed = revisions.find((r) => r.revision === revision);
    if (observed === undefined) continue;
    const { report } = await run(catalog, ["--client", "cline@3.0.65"]);
    assert.equal(report.profiles[0].complete, observed.sent, revision);
  }
});

Deno.test("an observation file is a --client-file: its derived preset, checked", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "claude.json");
  await Deno.copyFile(join(OBSERVED, "claude-code@2.1.246.json"), file);
  const { report } = await run("main", ["--client-file", file, "--client", "claude-code@2.1.246"], [
    `--allow-read=${file}`,
  ]);
  assert.deepEqual(report.profiles.map((p) => [p.profile, p.complete]), [[
    "client:claude-code@2.1.246",
    true,
  ]]);
  const broken = structuredClone(observation("claude-code@2.1.246"));
  broken.servers[0].tools[0].sent = false; // the plain tool: no rule can say so
  await Deno.writeTextFile(file, JSON.stringify(broken));
  const refused = await mcpeval(
    ["guidance", "--client-file", file, "--client", "claude-code", "--", "no-such-server"],
    { permissions: [`--allow-read=${file}`] },
  );
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr, "mcpeval: --client-file is an observation no preset reproduces\n");
});

for (
  const [args, pattern] of [
    [[], /^mcpeval: lab needs --client NAME\[@VERSION\] or --all\n$/],
    [["--client", "claude-code@2"], /^mcpeval: --client claude-code@VERSION: VERSION must be/],
    [["--client", "vscode"], /^mcpeval: --client vscode: the lab cannot run it \(an editor/],
    [["--client", "nope"], /^mcpeval: --client must name a client the lab runs: claude-code, /],
    [["--all", "--client", "codex@0.171.0"], /^mcpeval: --all picks the versions/],
    [["--client", "codex", "--timeout-s", "0"], /^mcpeval: --timeout-s must be an integer from 1/],
    [["--bogus"], /^mcpeval: Unknown option '--bogus' for lab\n$/],
    [["--client", "codex"], /^mcpeval: mcpeval lab needs every permission .*: add --allow-all\n$/],
  ] as const
) {
  Deno.test(`mcpeval lab ${args.join(" ")}: exit 2, one line`, async () => {
    const result = await mcpeval(["lab", ...args]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, pattern);
    assert.equal(result.stderr.split("\n").length, 2, result.stderr);
    assert.equal(result.stdout, "");
  });
}

Deno.test("mcpeval lab --help and help lab: the lab's usage, exit 0", async () => {
  for (const args of [["lab", "--help"], ["help", "lab"]]) {
    const result = await mcpeval(args);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^mcpeval lab: run real clients/);
    assert.match(result.stdout, /--client-file-out FILE/);
  }
});

Deno.test("the lab's library (@mcpeval/guidance/lab): these names and no others", async () => {
  const lab = await import("../src/lab/mod.ts");
  assert.deepEqual(Object.keys(lab).sort(), [
    "DRIVERS",
    "LabError",
    "OBSERVATION_SCHEMA",
    "PRESETS_SCHEMA",
    "UNAVAILABLE",
    "WARNING_CLASSES",
    "commonEnv",
    "derivePreset",
    "differences",
    "endScopes",
    "install",
    "knownProbeSetIds",
    "observationsIn",
    "packageObservedDir",
    "parseObservation",
    "presetFileOf",
    "probeSetId",
    "publishedVersions",
    "readObservation",
    "reproduces",
    "runClient",
    "scopeKind",
    "writeDerivedPresets",
  ]);
  const exports = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).exports;
  assert.equal(exports["./lab"], "./src/lab/mod.ts");
});
