/**
 * The presets against what the real clients did (offline: reads the committed observations of
 * `deno task lab`): each preset's rules run over the lab's probe catalog, and the predictions
 * must equal the newest observation of that client, tool by tool; the preset's `initialize`
 * (revision, capabilities, client name) and `instructions_shown` follow the observation too.
 * The revisions a preset accepts (its opening, negotiated as `src/discovery/opening.ts` does,
 * against a server that answers only one revision, as the lab's revision probe servers do) equal
 * the revisions whose tool reached the model, wherever a preset's `protocol_version` can say so;
 * otherwise docs/client-presets.md says where it differs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Observation } from "../src/lab/observation.ts";
import { PROBE_SERVERS, probeDescription } from "../src/lab/probe_catalog.ts";
import { revisionAnswer } from "../src/lab/revision_answers.ts";
import { ServerRequests } from "../src/discovery/answers.ts";
import { Connection } from "../src/discovery/connection.ts";
import { openProfile } from "../src/discovery/opening.ts";
import type { JsonRpcMessage } from "../src/protocol/messages.ts";
import {
  acceptedFrom,
  planOf,
  PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  revisionOf,
} from "../src/protocol/versions.ts";
import type { Incoming, Transport } from "../src/transport/transport.ts";
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
  // The probe servers (SDK 1.x) speak initialize-era revisions only, all of the seed's Tool shape.
  const catalog = new CatalogBuilder(
    revisionOf(PROTOCOL_VERSION).toolShape,
    extractorsFor(preset.rules),
  );
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

/** A transport to a server that answers only `revision`, as `lab/probe_server.ts` does. */
function onlyRevision(revision: ProtocolVersion): Transport {
  let controller!: ReadableStreamDefaultController<Incoming>;
  return {
    incoming: new ReadableStream<Incoming>({ start: (c) => void (controller = c) }),
    send(message) {
      if ("method" in message && "id" in message) {
        const reply = revisionAnswer(revision, message.method, message.id, message.params);
        if (reply) controller.enqueue({ kind: "message", message: reply as JsonRpcMessage });
      }
      return Promise.resolve();
    },
    close() {
      controller.close();
      return Promise.resolve({});
    },
  };
}

/** Whether `preset` (with no `--protocol-version`) opens a server that answers only `revision`. */
async function presetAccepts(preset: ClientPreset, revision: ProtocolVersion): Promise<boolean> {
  const plan = planOf(PROTOCOL_VERSION, preset.protocolVersion);
  const transport = onlyRevision(revision);
  const connection = new Connection(transport, plan.start, new ServerRequests({}), 5_000);
  try {
    const opened = await openProfile(connection, plan, {
      capabilities: () => structuredClone(preset.capabilities) as Record<string, unknown>,
      clientInfo: preset.clientInfo,
    });
    return !("incomplete" in opened);
  } finally {
    connection.release();
    await transport.close();
  }
}

/**
 * A list of revisions (oldest first) as docs/client-presets.md writes it: `all 5`, `none`,
 * `up to R` (R and every older one), or the dates.
 */
function spelled(revisions: readonly string[]): string {
  if (revisions.length === 0) return "none";
  if (revisions.length === PROTOCOL_VERSIONS.length) return `all ${PROTOCOL_VERSIONS.length}`;
  const prefix = PROTOCOL_VERSIONS.slice(0, revisions.length).join() === revisions.join();
  return prefix ? `up to ${revisions.at(-1)}` : revisions.join(", ");
}

/** The agreement table's `revisions sent` cell of each client (docs/client-presets.md). */
function revisionCells(): Map<string, string> {
  const lines = Deno.readTextFileSync(join(ROOT, "docs", "client-presets.md")).split("\n");
  const header = lines.findIndex((line) =>
    line.startsWith("| client ") && line.includes("revisions sent")
  );
  assert.ok(header !== -1, "the agreement table has a `revisions sent` column");
  const columns = lines[header].split("|").map((c) => c.trim());
  const at = columns.indexOf("revisions sent");
  const cells = new Map<string, string>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const row = line.split("|").map((c) => c.trim());
    cells.set(row[1], row[at]);
  }
  return cells;
}

for (const [client, observation] of observations) {
  if (!observation.revisions) continue;
  Deno.test(`${client}@${observation.version}: the preset accepts the revisions observed, or the docs say where not`, async () => {
    const preset = presets.get(client)!;
    const observed = observation.revisions!.filter((r) => r.sent).map((r) => r.revision);
    const accepted: string[] = [];
    for (const revision of PROTOCOL_VERSIONS) {
      if (await presetAccepts(preset, revision)) accepted.push(revision);
    }
    const cell = revisionCells().get(client);
    // The preset's protocol_version is the observed one (above); with it, a preset accepts that
    // revision and every older one.
    const init = observation.initialize!;
    const pinned = (init.discover_first ? "2026-07-28" : init.protocol_version) as ProtocolVersion;
    if (acceptedFrom(pinned).toReversed().join() === observed.join()) {
      assert.deepEqual(accepted, observed);
      assert.equal(cell, spelled(observed));
    } else {
      // No protocol_version says it (the client accepts a revision newer than it asks for, or
      // refuses an older one): the docs give both.
      assert.equal(cell, `${spelled(observed)} (preset: ${spelled(accepted)})`);
    }
  });
}
