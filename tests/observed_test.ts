/**
 * The presets against what the real clients did (offline: reads the committed observations of
 * `deno task lab`): each preset's rules run over the lab's probe catalog, and the predictions
 * must equal the newest observation of that client, tool by tool; the preset's `initialize`
 * (revision, capabilities, client name) and `instructions_shown` follow the observation too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Observation } from "../lab/observation.ts";
import { PROBE_SERVERS, probeDescription } from "../lab/probe_catalog.ts";
import { builtinPresets, type ClientPreset } from "../src/clients/presets.ts";
import { extractorsFor, prepareRules } from "../src/clients/rules/registry.ts";
import { CatalogBuilder } from "../src/discovery/catalog.ts";
import { reachability } from "../src/analysis/reachability.ts";
import { ROOT } from "./_cli.ts";

const OBSERVED = join(ROOT, "src", "clients", "observed");

/** Compares dotted versions numerically (`1.0.102` after `1.0.99`). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return 0;
}

/** Every committed observation, validated; the newest per client. */
function newestObservations(): Map<string, Observation> {
  const newest = new Map<string, Observation>();
  for (const entry of Deno.readDirSync(OBSERVED)) {
    if (!entry.name.endsWith(".json")) continue;
    const observation = Observation.parse(
      JSON.parse(Deno.readTextFileSync(join(OBSERVED, entry.name))),
    );
    assert.equal(entry.name, `${observation.client}@${observation.version}.json`);
    const had = newest.get(observation.client);
    if (!had || compareVersions(observation.version, had.version) > 0) {
      newest.set(observation.client, observation);
    }
  }
  return newest;
}

/** The probe server's tools as a client would list them (`tools/list` entries). */
const listed = (id: string) =>
  PROBE_SERVERS[id].tools.map((tool, index) => ({
    name: tool.name,
    description: probeDescription(id, index),
    inputSchema: tool.inputSchema,
    ...(tool._meta ? { _meta: tool._meta } : {}),
  }));

/**
 * What the preset predicts of each probe tool: `sent` or `not sent`, per server. The server's
 * listing goes through the catalog as a client profile builds it, which keeps the tools that
 * are invalid for MCP's Tool shape but readable (a name that is not a tool identifier, a root
 * that is not an object) with their facts (SPEC 22).
 */
async function predict(preset: ClientPreset, server: string): Promise<Map<string, boolean>> {
  const catalog = new CatalogBuilder(extractorsFor(preset.rules));
  const outcome = await catalog.addPage({ tools: listed(server) });
  assert.ok(!("incomplete" in outcome), `${server}: ${JSON.stringify(outcome)}`);
  const tools = catalog.facts!;
  const { hidden } = reachability(preset.rules, server, {
    listed: catalog.listed(),
    appOnly: catalog.appOnly,
    facts: tools,
  });
  return new Map(tools.map((t) => [t.name, !hidden.has(t.key ?? t.name)]));
}

const observations = newestObservations();
const presets = builtinPresets();

Deno.test("observations: at least four clients, each with a preset", () => {
  assert.ok(observations.size >= 4);
  for (const client of observations.keys()) assert.ok(presets.has(client), client);
});

for (const [client, observation] of observations) {
  Deno.test(`${client}@${observation.version}: the preset predicts every probe tool as observed`, async () => {
    const preset = presets.get(client)!;
    await prepareRules(preset.rules);
    const disagreements: string[] = [];
    for (const server of observation.servers) {
      const predicted = await predict(preset, server.label);
      for (const tool of server.tools) {
        if (predicted.get(tool.name) !== tool.sent) {
          disagreements.push(
            `${server.label}/${tool.name}: predicted ${
              predicted.get(tool.name) ? "sent" : "hidden"
            }, observed ${tool.sent ? "sent" : "hidden"}`,
          );
        }
      }
    }
    assert.deepEqual(disagreements, []);
  });

  Deno.test(`${client}@${observation.version}: initialize and instructions_shown as observed`, () => {
    const preset = presets.get(client)!;
    assert.equal(preset.instructionsShown, observation.instructions_shown);
    const init = observation.initialize!;
    assert.ok(init, "the observation recorded the client's initialize");
    assert.equal(preset.clientInfo.name, init.client_info.name);
    assert.deepEqual(preset.capabilities, init.capabilities);
    // A client that probes with server/discover first is a 2026-07-28 preset (which falls back
    // to initialize with the newest initialize-era revision); otherwise the revision it sent.
    assert.equal(
      preset.protocolVersion,
      init.discover_first ? "2026-07-28" : init.protocol_version,
    );
  });
}
