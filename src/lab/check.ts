/**
 * A preset held to an observation: what the preset predicts of each probe tool (its rules run
 * over the probe catalog as a client profile's catalog keeps it), of each revision probe server
 * (its opening, negotiated as `src/discovery/opening.ts` does, against a server that answers only
 * that revision), and of its `initialize`, compared with what the client did. The lab checks a
 * derived preset this way before it writes a `--client-file`; the suite checks every committed
 * observation, and measures the held-out catalogs the same way.
 *
 * @module
 */
import { ServerRequests } from "../discovery/answers.ts";
import { CatalogBuilder } from "../discovery/catalog.ts";
import { Connection } from "../discovery/connection.ts";
import { openProfile } from "../discovery/opening.ts";
import { reachability } from "../analysis/reachability.ts";
import type { ClientPreset } from "../clients/presets.ts";
import { extractorsFor, prepareRules } from "../clients/rules/registry.ts";
import type { JsonRpcMessage } from "../protocol/messages.ts";
import {
  planOf,
  PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  revisionOf,
} from "../protocol/versions.ts";
import type { Incoming, Transport } from "../transport/transport.ts";
import { type Observation, type ObservedServer, openingRevision } from "./observation.ts";
import { type ProbeServer, probeSetOf } from "./probe_catalog.ts";
import { probeDescription } from "./probe_marker.ts";
import {
  keptAgrees,
  keptUnits,
  measuredDescriptions,
  measuredInstructions,
} from "./derive_model_view.ts";
import { STRICT_SCENARIOS } from "./strict.ts";
import type { ClientRule } from "../clients/presets.ts";
import { revisionAnswer } from "./revision_answers.ts";

/**
 * What `preset` predicts of each tool of `probe` (served as catalog `id`): sent or not, in
 * listing order. The listing goes through the catalog as a client profile builds it, page by
 * page, keeping the tools that are invalid for MCP's Tool shape but readable with their facts
 * (SPEC 22). The rules must be prepared (`prepareRules`).
 */
export async function predict(
  preset: ClientPreset,
  probe: ProbeServer,
  id: string = probe.label,
  toolsBefore = 0,
  rejected: { value: boolean } = { value: false },
): Promise<boolean[] | undefined> {
  // The probe servers (SDK 1.x) speak initialize-era revisions only, all of the seed's Tool shape.
  const catalog = new CatalogBuilder(
    revisionOf(PROTOCOL_VERSION).toolShape,
    extractorsFor(preset.rules),
  );
  const entries = probe.tools.map((tool, index) => ({
    name: tool.name,
    description: probeDescription(id, index, tool.description),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  }));
  const size = probe.pageSize ?? Math.max(1, entries.length);
  for (let at = 0; at < entries.length || at === 0; at += size) {
    const last = at + size >= entries.length;
    const outcome = await catalog.addPage({
      tools: entries.slice(at, at + size),
      ...(last ? {} : { nextCursor: `page-${at / size + 2}` }),
    });
    if ("incomplete" in outcome) return undefined; // no client profile could read it
    if (last) break;
  }
  const tools = catalog.facts!;
  const { hidden } = reachability(preset.rules, probe.label, {
    listed: catalog.listed(),
    appOnly: catalog.appOnly,
    facts: tools,
  }, toolsBefore);
  if ([...hidden.values()].some((tool) => tool.effect === "reject-request")) rejected.value = true;
  return tools.map((t) => !hidden.has(t.key ?? t.name));
}

/**
 * Whether a rule rests on a strict scenario (the strict stand-in's, `strict.ts`): it is held to
 * those runs only, since the lenient stand-in refuses nothing.
 */
const fromStrict = (rule: ClientRule) => rule.observed?.probe?.startsWith("strict:") === true;

/** `preset` with only the rules a lenient stand-in shows (every rule but the strict ones). */
export function lenient(preset: ClientPreset): ClientPreset {
  return preset.rules.some(fromStrict)
    ? { ...preset, rules: preset.rules.filter((rule) => !fromStrict(rule)) }
    : preset;
}

/** A transport to a server that answers only `revision`, as the revision probe servers do. */
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
export async function presetAccepts(
  preset: ClientPreset,
  revision: ProtocolVersion,
): Promise<boolean> {
  const plan = planOf(PROTOCOL_VERSION, preset.protocolVersion, false, undefined, preset.accepts);
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

/** How a preset's predictions compare with what the client did on some catalogs. */
export interface Agreement {
  /** Tools the preset judged (those of catalogs a client profile reads). */
  readonly tools: number;
  /** Tools on which they agree. */
  readonly agreed: number;
  /** Tools of catalogs no client profile reads (mcpeval's catalog refuses them): not judged. */
  readonly unjudged: number;
  /** The others, one line each: `SERVER/TOOL: predicted X, observed Y`. */
  readonly disagreements: readonly string[];
}

/**
 * The preset's predictions against the observed `servers`, matched by position with `catalog`
 * (the probe catalog, or the held-out catalogs in the order they were served), as the lenient
 * stand-in shows them: the rules of the strict scenarios are left out.
 */
export async function agreement(
  given: ClientPreset,
  servers: readonly ObservedServer[],
  catalog: readonly ProbeServer[],
): Promise<Agreement> {
  const preset = lenient(given);
  await prepareRules(preset.rules);
  let tools = 0;
  let agreed = 0;
  let unjudged = 0;
  const disagreements: string[] = [];
  for (const [at, server] of servers.entries()) {
    const probe = catalog[at];
    const predicted = probe && await predict(preset, probe);
    if (predicted === undefined) {
      unjudged += server.tools.length;
      continue;
    }
    for (const [index, tool] of server.tools.entries()) {
      tools++;
      const sent = predicted[index] ?? false;
      if (sent === tool.sent) {
        agreed++;
        continue;
      }
      disagreements.push(
        `${server.label}/${JSON.stringify(tool.name)}: predicted ${
          sent ? "sent" : "not sent"
        }, observed ${tool.sent ? "sent" : "not sent"}`,
      );
    }
  }
  return { tools, agreed, unjudged, disagreements };
}

/**
 * Where `preset` does not reproduce `observation`: each probe tool, its `initialize` (client
 * name, capabilities, the revision it sends), whether instructions reach the model, and each
 * revision probe server; one line each, none when it reproduces it.
 */
export async function checkPreset(
  preset: ClientPreset,
  observation: Observation,
  given?: readonly ProbeServer[],
): Promise<string[]> {
  const catalog = given ?? probeSetOf(observation.servers);
  if (!catalog) return ["observed with a probe set this mcpeval does not know"];
  const probes = await agreement(preset, observation.servers, catalog);
  const lines = [...probes.disagreements];
  if (probes.unjudged > 0) lines.push(`${probes.unjudged} probe tools no client profile reads`);
  const init = observation.initialize;
  if (!init) lines.push("initialize: none recorded");
  else {
    if (preset.clientInfo.name !== init.client_info.name) lines.push("initialize: client name");
    if (JSON.stringify(preset.capabilities) !== JSON.stringify(init.capabilities)) {
      lines.push("initialize: capabilities");
    }
    const revision = openingRevision(observation);
    if (preset.protocolVersion !== revision) lines.push("initialize: protocol revision");
  }
  if (preset.instructionsShown !== observation.instructions_shown) {
    lines.push("instructions shown");
  }
  lines.push(...cutDisagreements(preset, observation, catalog));
  lines.push(...await strictDisagreements(preset, observation));
  for (const observed of observation.revisions ?? []) {
    const revision = observed.revision as ProtocolVersion;
    if (!PROTOCOL_VERSIONS.includes(revision)) continue;
    const accepts = await presetAccepts(preset, revision);
    if (accepts !== observed.sent) {
      lines.push(
        `revision ${revision}: predicted ${accepts ? "accepted" : "refused"}, observed ${
          observed.sent ? "accepted" : "refused"
        }`,
      );
    }
  }
  return lines;
}

/** Where the preset's instruction and description cuts do not reproduce what was kept. */
function cutDisagreements(
  preset: ClientPreset,
  observation: Observation,
  catalog: readonly ProbeServer[],
): string[] {
  const lines: string[] = [];
  const instructions = measuredInstructions(observation, catalog);
  const shown = observation.instructions ?? [];
  for (const [at, measured] of (instructions ?? []).entries()) {
    if (measured.kept === null) continue;
    const cut = preset.instructions;
    const predicted = cut
      ? keptUnits(measured.served, { max_chars: cut.maxChars, unit: cut.unit })
      : measured.served.length;
    if (!keptAgrees(measured.served, predicted, measured.kept)) {
      lines.push(
        `instructions ${shown[at].label}: predicted ${predicted} kept, observed ${measured.kept}`,
      );
    }
  }
  const descriptions = measuredDescriptions(observation.servers, catalog);
  for (const [at, measured] of descriptions.entries()) {
    if (measured.kept === null) continue;
    const cut = preset.descriptions;
    const predicted = cut
      ? keptUnits(measured.served, { max_chars: cut.maxChars, unit: cut.unit })
      : measured.served.length;
    if (!keptAgrees(measured.served, predicted, measured.kept)) {
      lines.push(`description ${at + 1}: predicted ${predicted} kept, observed ${measured.kept}`);
    }
  }
  return lines;
}

/**
 * Where the preset does not reproduce a strict scenario, tool by tool: its rules (the strict
 * ones included) over the scenario's servers in order, counting tools across them as a config
 * run does; a `reject-request` effect on any server makes every server unreachable.
 */
async function strictDisagreements(
  preset: ClientPreset,
  observation: Observation,
): Promise<string[]> {
  await prepareRules(preset.rules);
  const lines: string[] = [];
  for (const run of observation.strict ?? []) {
    const scenario = STRICT_SCENARIOS[run.scenario];
    if (!scenario) continue;
    const rejected = { value: false };
    const predictions: (boolean[] | undefined)[] = [];
    let before = 0;
    for (const probe of Object.values(scenario.servers)) {
      const predicted = await predict(preset, probe, probe.label, before, rejected);
      predictions.push(predicted);
      before += predicted?.filter(Boolean).length ?? 0;
    }
    for (const [at, probe] of Object.values(scenario.servers).entries()) {
      for (const [index, tool] of probe.tools.entries()) {
        const predicted = !rejected.value && (predictions[at]?.[index] ?? false);
        const observed = run.servers[at]?.tools[index]?.sent ?? false;
        if (predicted !== observed) {
          lines.push(
            `strict ${run.scenario} ${probe.label}/${JSON.stringify(tool.name)}: predicted ${
              predicted ? "sent" : "not sent"
            }, observed ${observed ? "sent" : "not sent"}`,
          );
        }
      }
    }
  }
  return lines;
}
