/**
 * The presets against what the real clients did, offline (the committed observations of
 * `deno task lab`): every observation yields a preset by the one derivation
 * (`src/lab/derive.ts`), and that preset reproduces its observation tool by tool, on its
 * `initialize` (revision, capabilities, client name), on `instructions_shown` and on the revision
 * probe servers (the revisions it accepts). `src/clients/derived.json` is exactly those presets.
 * On the held-out catalogs (`fixtures/held_out.ts`: shapes and real servers the derivation never
 * sees), each derived preset agrees with its own version's client on at least 98 % of the tools
 * it judges. Renaming every probe server and tool changes no derived preset.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Observation, ObservationSchema } from "../src/lab/observation.ts";
import {
  BASE_PROBE_CATALOG,
  PROBE_CATALOG,
  type ProbeServer,
  probeSetOf,
  REVISION_SERVER_IDS,
} from "../src/lab/probe_catalog.ts";
import { API_LIMITS, STRICT_SCENARIOS } from "../src/lab/strict.ts";
import { derivePreset, presetFileOf, PRESETS_SCHEMA } from "../src/lab/derive.ts";
import { agreement, checkPreset } from "../src/lab/check.ts";
import { observationsIn } from "../src/lab/presets_file.ts";
import { DRIVERS, UNAVAILABLE } from "../src/lab/clients/mod.ts";
import {
  builtinPresets,
  type ClientPreset,
  knownPresets,
  parsePresets,
} from "../src/clients/presets.ts";
import { compareVersions } from "../src/clients/versions.ts";
import { RULE_KIND_IDS, RULE_KINDS } from "../src/clients/rules/registry.ts";
import { heldOutServers } from "../fixtures/held_out.ts";
import { TABLE_END, TABLE_START, versionsTable } from "../scripts/presets_table.ts";
import { ROOT } from "./_cli.ts";

const OBSERVED = join(ROOT, "src", "clients", "observed");
const observations = await observationsIn(OBSERVED);

/** The preset `observation` derives, parsed as a presets document holds it. */
function derived(observation: Observation, catalog?: readonly ProbeServer[]): ClientPreset {
  const result = derivePreset(observation, catalog);
  assert.ok(!("problem" in result), "problem" in result ? result.problem : "");
  const parsed = parsePresets({ schema: PRESETS_SCHEMA, clients: { [result.key]: result.entry } });
  assert.ok(typeof parsed !== "string", String(parsed));
  return parsed.get(result.key)!;
}

Deno.test("observations: every file is NAME@VERSION.json of a valid observation", async () => {
  for await (const entry of Deno.readDir(OBSERVED)) {
    const observation = ObservationSchema.parse(
      JSON.parse(await Deno.readTextFile(join(OBSERVED, entry.name))),
    );
    assert.equal(entry.name, `${observation.client}@${observation.version}.json`);
  }
});

Deno.test("observations: at least 4 versions of at least 6 clients, each a lab client's", () => {
  const per = new Map<string, number>();
  for (const o of observations) per.set(o.client, (per.get(o.client) ?? 0) + 1);
  assert.ok([...per.values()].filter((count) => count >= 4).length >= 6, JSON.stringify([...per]));
  for (const client of per.keys()) assert.ok(DRIVERS.some((d) => d.id === client), client);
});

Deno.test("src/clients/derived.json is the derived preset of every committed observation", async () => {
  const file = presetFileOf(observations);
  assert.ok(!("problem" in file), "problem" in file ? `${file.key}: ${file.problem}` : "");
  const committed = JSON.parse(
    await Deno.readTextFile(join(ROOT, "src", "clients", "derived.json")),
  );
  assert.deepEqual(committed.clients, file.document.clients);
});

Deno.test("hand-written presets: only the clients the lab cannot run, each marked so", () => {
  for (const [key, preset] of knownPresets()) {
    if (key.includes("@")) {
      assert.equal(preset.handWritten, undefined, key);
      continue;
    }
    assert.ok(preset.handWritten, `${key} is hand-written and says why`);
    assert.ok(UNAVAILABLE.some((u) => u.id === key), `${key} is a client the lab cannot run`);
  }
});

Deno.test("--client NAME is the newest observed version of NAME", () => {
  const named = builtinPresets();
  for (const driver of DRIVERS) {
    const versions = observations.filter((o) => o.client === driver.id).map((o) => o.version);
    if (versions.length === 0) continue;
    const newest = versions.sort(compareVersions).at(-1);
    assert.equal(named.get(driver.id)?.version, newest, driver.id);
  }
});

for (const observation of observations) {
  const label = `${observation.client}@${observation.version}`;
  Deno.test(`${label}: its derived preset reproduces it: every probe tool, initialize, revisions`, async () => {
    assert.deepEqual(await checkPreset(derived(observation), observation), []);
  });
}

Deno.test("every rule kind has probes that decide it, or an API limit of the strict stand-in", () => {
  const probes = [
    ...PROBE_CATALOG,
    ...Object.values(STRICT_SCENARIOS).flatMap((scenario) => Object.values(scenario.servers)),
  ];
  const decided = new Set(probes.flatMap((probe) =>
    probe.tools.flatMap((tool) => {
      const d = tool.decides;
      if (d === undefined || d.kind === "none") return [];
      if (d.kind === "flag" || d.kind === "length") return [d.rule];
      return [
        {
          collision: "name-collision",
          cap: "max-tools",
          page: "max-pages",
          builtin: "builtin-name",
        }[
          d.kind
        ],
      ];
    })
  ));
  for (const limit of API_LIMITS) if (limit.rule && limit.scenario) decided.add(limit.rule);
  assert.deepEqual(RULE_KIND_IDS.filter((id) => !decided.has(id)), []);
});

Deno.test("each rule kind's own probe is served, as a server whose label no other probe takes", () => {
  const labels = Object.values(RULE_KINDS).flatMap((kind) =>
    (kind.probes ?? []).map((probe) => probe.label)
  );
  assert.equal(new Set(labels).size, labels.length, "each label once");
  const taken = new Set([...BASE_PROBE_CATALOG.map((p) => p.label), ...REVISION_SERVER_IDS]);
  assert.deepEqual(labels.filter((label) => taken.has(label)), []);
  const served = PROBE_CATALOG.map((probe) => probe.label);
  assert.equal(new Set(served).size, served.length);
  for (const label of labels) assert.ok(served.includes(label), label);
});

Deno.test("every API limit of the strict stand-in has its document, address and date", () => {
  for (const limit of API_LIMITS) {
    assert.match(limit.evidence.url, /^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull)\/\d+$/);
    assert.match(limit.evidence.date, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(limit.evidence.read, /^\d{4}-\d{2}-\d{2}$/);
  }
});

Deno.test("renaming every probe server and tool changes no derived preset", () => {
  for (const observation of observations) {
    const renamed: ProbeServer[] = probeSetOf(observation.servers)!.map((probe, s) => ({
      ...probe,
      label: `renamed${s}`,
      tools: probe.tools.map((tool, t) => ({ ...tool, name: `other_${s}_${t}` })),
    }));
    const moved = structuredClone(observation);
    for (const [s, server] of moved.servers.entries()) {
      server.label = renamed[s].label;
      for (const [t, tool] of server.tools.entries()) tool.name = renamed[s].tools[t].name;
    }
    assert.deepEqual(derivePreset(moved, renamed), derivePreset(observation));
  }
});

Deno.test("an observation made before a rule kind's probe was added is read without it", async () => {
  // As an observation of the newest set would be, had `out-array` (a rule kind's own probe,
  // `RuleKind.probes`) been added after it: the derivation and the check read the servers it has.
  const newest = observations.reduce((a, b) => a.servers.length >= b.servers.length ? a : b);
  assert.ok(newest.servers.some((server) => server.label === "out-array"), "a newest observation");
  const before = structuredClone(newest);
  before.servers = before.servers.filter((server) => server.label !== "out-array");
  const catalog = probeSetOf(before.servers)!;
  assert.deepEqual(catalog.map((p) => p.label), before.servers.map((s) => s.label));
  assert.deepEqual(await checkPreset(derived(before), before), []);
  // A server the newest set does not have, or in another order, is no probe set this one knows.
  const unknown = structuredClone(before);
  unknown.servers[0].label = "gone";
  assert.equal(probeSetOf(unknown.servers), undefined);
  assert.equal(probeSetOf([...before.servers].reverse()), undefined);
});

const heldOut = await heldOutServers();

/** The held-out agreement of every observation that recorded the held-out catalogs. */
const measured = await Promise.all(
  observations.filter((o) => o.held_out).map(async (observation) => {
    const catalogs = observation.held_out!.map((server) => heldOut[server.label]);
    return {
      label: `${observation.client}@${observation.version}`,
      ...(await agreement(derived(observation), observation.held_out!, catalogs)),
    };
  }),
);

Deno.test("held-out catalogs: every observation recorded them, as the lab serves them now", () => {
  assert.equal(measured.length, observations.length);
  for (const observation of observations) {
    assert.deepEqual(
      observation.held_out!.map((s) => [s.label, s.tools.map((t) => t.name)]),
      Object.values(heldOut).map((s) => [s.label, s.tools.map((t) => t.name)]),
    );
  }
});

for (const result of measured) {
  Deno.test(`${result.label}: on the held-out catalogs, its derived preset agrees with the client on at least 98 % of the tools it judges`, () => {
    assert.ok(result.tools > 0);
    const share = result.agreed / result.tools;
    assert.ok(
      share >= 0.98,
      `${result.agreed}/${result.tools}: ${result.disagreements.join("; ")}`,
    );
  });
}

Deno.test("docs/client-presets.md's table of versions is what the observations give", async () => {
  const docs = await Deno.readTextFile(join(ROOT, "docs", "client-presets.md"));
  const start = docs.indexOf(TABLE_START);
  const end = docs.indexOf(TABLE_END);
  assert.ok(start !== -1 && end > start, "the docs hold the table between its markers");
  // As deno fmt leaves it: cells padded, long lines wrapped.
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== "").join(" ");
  assert.equal(
    words(docs.slice(start, end + TABLE_END.length)),
    words(await versionsTable(observations, heldOut)),
    "run scripts/presets_table.ts and paste its output",
  );
});
