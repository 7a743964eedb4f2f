/**
 * The one function that turns an observation into the preset that reproduces it
 * ({@linkcode derivePreset}), and the document a `--client-file` holds for it
 * ({@linkcode presetFileOf}). Pure.
 *
 * Each probe tool says what it decides (`Decision`, `probe_catalog.ts`): the derivation reads,
 * per probe server and tool by position, whether the client sent it, and adds the rule that
 * decision names, with its effect and value. It never reads a name: renaming a probe server or
 * tool changes no derived preset. What no rule kind can say (a plain tool not sent) is a
 * problem, not a guess; `check.ts` then holds the preset to the observation, tool by tool.
 *
 * @module
 */
import { isProtocolVersion, PROTOCOL_VERSIONS } from "../protocol/versions.ts";
import { type RuleKindId, SCHEME_KEEPS } from "../clients/rules/registry.ts";
import { type Observation, openingRevision } from "./observation.ts";
import { type ProbeServer, probeSetOf } from "./probe_catalog.ts";
import {
  deferralOf,
  deriveCut,
  measuredDescriptions,
  measuredInstructions,
  strictRules,
} from "./derive_model_view.ts";

type Json = Record<string, unknown>;

/** The schema id of an observation file. */
export const OBSERVATION_SCHEMA = "mcpeval.client-observation/v1";

/** The schema id of a presets document. */
export const PRESETS_SCHEMA = "mcpeval.client-presets/v1";

/** One derived rule, as a presets document holds it (its evidence added by the entry). */
interface DerivedRule {
  readonly id: RuleKindId;
  readonly value: string | number | true | readonly string[];
  readonly effect: string;
  readonly separator?: string;
  readonly prefix?: string;
  readonly builtin?: number;
  /** A strict scenario's rule: the API limit's document, and the scenario. */
  readonly strict?: {
    readonly document?: { readonly url: string; readonly date: string; readonly read: string };
    readonly probe: string;
  };
}

/** A derived preset (a presets document's entry, keyed `NAME@VERSION`), or why there is none. */
export type Derivation =
  | { readonly key: string; readonly entry: Record<string, unknown> }
  | { readonly problem: string };

/**
 * The length rules, the name's first: whether the value limits the tool's own name (which then
 * explains a long qualified name too), and the rule's fields beside its value.
 */
const LENGTH_RULES = [
  { rule: "max-name-length", limitsName: true, fields: {} },
  { rule: "max-qualified-name-length", limitsName: false, fields: { separator: "" } },
] as const;

/**
 * The preset of `observation`: the rules its probes decide, its `initialize` (client info,
 * capabilities, the revision it sends: 2026-07-28 when it probes with `server/discover` first),
 * the revisions it accepts (those whose probe tool reached the model) and whether the
 * instructions reached the model, each with the observation as evidence; with the probe set of
 * issue 41, also how much of them and of each description, deferral, the built-in names it
 * leaves out and what the strict stand-in's scenarios show. `catalog` is the probe set the
 * observation was made with, in its order (by default the known set of its shape).
 */
export function derivePreset(
  observation: Observation,
  given?: readonly ProbeServer[],
): Derivation {
  const problem = (text: string) => ({ problem: text });
  const catalog = given ?? probeSetOf(observation.servers);
  if (
    catalog === undefined ||
    observation.servers.length !== catalog.length ||
    observation.servers.some((server, at) => server.tools.length !== catalog[at].tools.length)
  ) {
    return problem("was observed with another probe set: observe it again");
  }
  const rules: DerivedRule[] = [];
  const has = (id: RuleKindId, value?: DerivedRule["value"]) =>
    rules.some((rule) => rule.id === id && (value === undefined || rule.value === value));
  const add = (rule: DerivedRule) => {
    const same = rules.find((r) =>
      r.id === rule.id && JSON.stringify(r.value) === JSON.stringify(rule.value) &&
      r.effect === rule.effect && r.separator === rule.separator && r.prefix === rule.prefix
    );
    if (!same) rules.push(rule);
  };
  const servers = catalog.map((probe, at) => ({
    at,
    probe,
    sent: observation.servers[at].tools.map((tool) => tool.sent),
  }));
  const refused = (server: (typeof servers)[number]) => server.sent.every((sent) => !sent);
  const place = (server: number, tool?: number) =>
    `probe server ${server + 1}${tool === undefined ? "" : `, tool ${tool + 1}`}`;

  // Flags first (each names its rule), in listing order, so that `alsoBy` sees earlier ones.
  for (const server of servers) {
    const { probe, sent, at } = server;
    if (refused(server)) {
      const flags = probe.tools.filter((tool) => tool.decides?.kind === "flag");
      const cap = probe.tools.every((tool) => tool.decides?.kind === "cap");
      const decision = flags[0]?.decides;
      if (cap) {
        add({ id: "max-tools", value: probe.tools.length - 1, effect: "refuse-server" });
      } else if (flags.length === 1 && decision?.kind === "flag") {
        add({ id: decision.rule as RuleKindId, value: decision.value, effect: "drop-server" });
      } else {
        return problem(`${place(at)}: refused whole, and no single probe of it says why`);
      }
      continue;
    }
    for (const [index, tool] of probe.tools.entries()) {
      if (sent[index]) continue;
      const decision = tool.decides ?? { kind: "none" };
      if (decision.kind === "none") {
        return problem(`${place(at, index)}: not sent, and no rule kind can say so`);
      }
      if (decision.kind !== "flag") continue;
      if (decision.alsoBy?.some((id) => has(id as RuleKindId))) continue;
      add({ id: decision.rule as RuleKindId, value: decision.value, effect: "drop-tool" });
    }
  }
  const unsent = servers.filter((server) => !refused(server)).flatMap(({ probe, sent }) =>
    probe.tools.flatMap((tool, index) => sent[index] ? [] : [{ tool, index, probe, sent }])
  );

  // Lengths: one less than the shortest probe not sent (claims least), the name's first.
  let nameLimit: number | undefined;
  for (const { rule, limitsName, fields } of LENGTH_RULES) {
    const lengths = unsent.flatMap(({ tool }) => {
      const decision = tool.decides;
      if (decision?.kind !== "length" || decision.rule !== rule) return [];
      // A name longer than the client accepts explains a long qualified name too.
      if (nameLimit !== undefined && decision.name > nameLimit) return [];
      return [decision.length];
    });
    if (lengths.length === 0) continue;
    const value = Math.min(...lengths) - 1;
    if (limitsName) nameLimit = value;
    add({ id: rule, value, effect: "drop-tool", ...fields });
  }

  // Collisions: exactly one of the two kept, unless a name-characters rule hides it already.
  for (const { tool, index, sent } of unsent) {
    const decision = tool.decides;
    if (decision?.kind !== "collision") continue;
    if (decision.unless !== undefined && has("name-characters", decision.unless)) continue;
    if (!sent[decision.partner]) {
      return problem("both tools of a colliding pair were not sent: no rule kind can say so");
    }
    const keeps = index < decision.partner ? "last" : "first";
    const scheme = SCHEME_KEEPS[observation.client] === keeps
      ? observation.client
      : Object.keys(SCHEME_KEEPS).find((name) => SCHEME_KEEPS[name] === keeps);
    if (scheme === undefined) return problem(`no name-collision scheme keeps the ${keeps}`);
    add({ id: "name-collision", value: scheme, effect: "drop-tool" });
  }

  // Built-in names: the client's own tools' names it leaves out, in listing order.
  const builtins = unsent.flatMap(({ tool }) =>
    tool.decides?.kind === "builtin" ? [tool.decides.name] : []
  );
  if (builtins.length > 0) add({ id: "builtin-name", value: builtins, effect: "drop-tool" });

  // Pages: the client reads the pages before the first one with a tool it did not send.
  const pages = unsent.flatMap(({ tool }) =>
    tool.decides?.kind === "page" ? [tool.decides.page] : []
  );
  if (pages.length > 0) {
    const first = Math.min(...pages);
    if (first < 2) return problem("a first page's tool was not sent: no rule kind can say so");
    add({ id: "max-pages", value: first - 1, effect: "drop-tool" });
  }

  // A cap: the first N tools of the server of many sent, the rest not.
  for (const server of servers) {
    if (refused(server) || !server.probe.tools.every((t) => t.decides?.kind === "cap")) continue;
    const kept = server.sent.indexOf(false);
    if (kept !== -1) add({ id: "max-tools", value: kept, effect: "truncate" });
  }

  // The strict stand-in's scenarios (the model API's refusals, and the client's own limits).
  for (const run of observation.strict ?? []) {
    const shown = strictRules(run);
    if ("problem" in shown) return problem(shown.problem);
    for (const { document, probe, ...rule } of shown) {
      add({
        ...rule,
        id: rule.id as RuleKindId,
        strict: { ...(document ? { document } : {}), probe },
      });
    }
  }

  // What the model is shown of the instructions and descriptions (issue 41's probes).
  const instructions = measuredInstructions(observation, catalog);
  const instructionsCut = instructions && deriveCut(instructions);
  if (instructionsCut && "problem" in instructionsCut) {
    return problem(`instructions: ${instructionsCut.problem}`);
  }
  const descriptions = measuredDescriptions(observation.servers, catalog);
  const descriptionsCut = descriptions.length > 0 ? deriveCut(descriptions) : undefined;
  if (descriptionsCut && "problem" in descriptionsCut) {
    return problem(`descriptions: ${descriptionsCut.problem}`);
  }

  const init = observation.initialize;
  if (!init) return problem("recorded no initialize: the client never opened the main probe");
  const revision = openingRevision(observation);
  if (!isProtocolVersion(revision)) {
    return problem("sends a protocol revision mcpeval does not know");
  }
  const accepted = PROTOCOL_VERSIONS.filter((version) =>
    observation.revisions?.some((r) => r.revision === version && r.sent)
  );
  const source = `npm:${observation.package}@${observation.version}`;
  const evidence = {
    source,
    verified_at: observation.observed_at,
    observed: {
      client: observation.client,
      version: observation.version,
      date: observation.observed_at,
    },
  };
  const entry: Json = {
    version: observation.version,
    client_info: { name: init.client_info.name, version: init.client_info.version },
    protocol_version: {
      value: revision,
      ...evidence,
      what: init.discover_first
        ? "observed: probes with server/discover first"
        : "observed: the revision its initialize asks for",
    },
    ...(accepted.length > 0
      ? {
        accepts: {
          value: accepted,
          ...evidence,
          what: "observed: the revision probe servers whose tool reached the model",
        },
      }
      : {}),
    capabilities: structuredClone(init.capabilities),
    ...(instructionsCut
      ? {
        instructions: {
          shown: observation.instructions_shown,
          setting: null,
          ...(observation.instructions_shown ? instructionsCut : { max_chars: null }),
          ...evidence,
          what:
            "observed: how much of each probe server's instructions reached the model, with the client's defaults",
        },
      }
      : { instructions_shown: observation.instructions_shown }),
    ...(descriptionsCut
      ? {
        descriptions: {
          ...descriptionsCut,
          ...evidence,
          what: "observed: how much of each probe tool's description reached the model",
        },
      }
      : {}),
    ...(observation.deferral
      ? {
        deferral: {
          ...deferralOf(observation),
          ...evidence,
          what: "observed: probe tools declared to the model, or only named behind a search tool",
        },
      }
      : {}),
    rules: rules.map(({ strict, ...rule }) =>
      strict === undefined ? { ...rule, ...evidence } : {
        ...rule,
        ...(strict.document
          ? {
            source: strict.document.url,
            verified_at: strict.document.read,
            note:
              `the model API's limit, as its body of ${strict.document.date} says (read); the client's reaction observed`,
          }
          : { source, verified_at: observation.observed_at }),
        observed: { ...evidence.observed, probe: strict.probe },
      }
    ),
    sources: [{
      url: source,
      verified_at: observation.observed_at,
      what: `derived from the lab's observation (${observation.command})`,
    }],
  };
  return { key: `${observation.client}@${observation.version}`, entry };
}

/**
 * A `mcpeval.client-presets/v1` document with the derived preset of each observation, keyed
 * `NAME@VERSION`, or the first observation's problem.
 */
export function presetFileOf(
  observations: readonly Observation[],
  catalog?: readonly ProbeServer[],
): { document: Record<string, unknown> } | { problem: string; key: string } {
  const clients: Json = {};
  for (const observation of observations) {
    const derived = derivePreset(observation, catalog);
    if ("problem" in derived) {
      return { problem: derived.problem, key: `${observation.client}@${observation.version}` };
    }
    clients[derived.key] = derived.entry;
  }
  const keys = Object.keys(clients).sort();
  return {
    document: {
      schema: PRESETS_SCHEMA,
      clients: Object.fromEntries(keys.map((key) => [key, clients[key]])),
    },
  };
}
