/**
 * Reads an observation out of what the stand-in recorded: which probe tools reached the model
 * (found by the marker in their description, whatever the client named them), whether their
 * schema was rewritten, whether the instructions reached the model, and the class of what the
 * client printed about each tool. Client text is classified here and never kept.
 *
 * @module
 */
import type { ModelApi } from "./driver.ts";
import {
  INSTRUCTIONS_MARKER,
  instructionsHead,
  PROBE_MARKER,
  PROBE_SERVER_IDS,
  PROBE_SERVERS,
  probeDescription,
  probeMarker,
  type ProbeServer,
  REVISION_SERVER_IDS,
  REVISION_SERVERS,
} from "./probe_catalog.ts";
import type { Recorded } from "./stand_in.ts";
import {
  type Observation,
  type ObservedInstructions,
  type ObservedRevision,
  type ObservedServer,
  type ObservedTool,
  WARNING_CLASSES,
} from "./observation.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** One tool declaration as a model request carried it. */
export interface Declared {
  readonly name: string;
  readonly description: string;
  readonly schema: unknown;
  /** Named in the request's text (`"NAME": "DESCRIPTION"`), reachable through a search tool. */
  readonly deferred?: boolean;
}

/** Every string of a JSON value (bounded by the value, which the stand-in already holds). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const item of value) stringsOf(item, out); }
  else if (isObject(value)) { for (const item of Object.values(value)) stringsOf(item, out); }
  return out;
}

/** A tool the request lists in its text rather than declares (a client that defers tools). */
function deferredIn(bodies: readonly unknown[], marker: string): Declared | undefined {
  const pattern = new RegExp(`"([^"\\n]{1,200})":\\s*"[^"\\n]*${marker}`);
  for (const body of bodies) {
    for (const text of stringsOf(body)) {
      const found = pattern.exec(text);
      if (found) return { name: found[1], description: marker, schema: null, deferred: true };
    }
  }
  return undefined;
}

/** The tool declarations of one request body, per API. */
export function declaredTools(api: ModelApi, body: unknown): Declared[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  const out: Declared[] = [];
  const push = (name: unknown, description: unknown, schema: unknown) => {
    if (typeof name === "string") {
      out.push({ name, description: typeof description === "string" ? description : "", schema });
    }
  };
  for (const tool of body.tools) {
    if (!isObject(tool)) continue;
    if (api === "anthropic") push(tool.name, tool.description, tool.input_schema);
    else if (api === "chat" && isObject(tool.function)) {
      push(tool.function.name, tool.function.description, tool.function.parameters);
    } else if (api === "responses") {
      if (Array.isArray(tool.tools)) {
        // A namespace of tools (one per MCP server).
        for (const inner of tool.tools) {
          if (isObject(inner)) push(inner.name, inner.description, inner.parameters);
        }
      } else push(tool.name, tool.description, tool.parameters);
    } else if (api === "gemini" && Array.isArray(tool.functionDeclarations)) {
      for (const fn of tool.functionDeclarations) {
        if (isObject(fn)) {
          push(fn.name, fn.description, fn.parametersJsonSchema ?? fn.parameters);
        }
      }
    }
  }
  return out;
}

const canonical = (value: unknown): string =>
  JSON.stringify(
    value,
    (_key, v) =>
      isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1)) : v,
  );

/** The class of one line a client printed (null: not a warning). */
function classify(line: string): (typeof WARNING_CLASSES)[number] | null {
  if (
    /failed to fetch tools|tools\/list failed|connection failed|failed to connect|error discovering tools|error during discovery/i
      .test(line)
  ) {
    return "server-failed";
  }
  if (/normaliz|flatten|sanitiz|coerc/i.test(line)) return "schema-rewritten";
  if (/kept from the model|hidden from the model|not visible to the model/i.test(line)) {
    return "tool-hidden";
  }
  if (/skip|reject|invalid|not supported|unsupported|failed to convert/i.test(line)) {
    return /schema|parameter|tool spec/i.test(line) ? "schema-rejected" : "other";
  }
  if (/renam|truncat|too long|shorten/i.test(line)) return "name-rewritten";
  if (/fail|error|refus|warn/i.test(line)) return "other";
  return null;
}

/** The first warning class of the lines that quote `name` (bounded: at most 200 lines looked at). */
function warningFor(
  lines: readonly string[],
  names: readonly string[],
  order: readonly (typeof WARNING_CLASSES)[number][] = WARNING_CLASSES,
  loose: string | null = null,
) {
  const quoted = lines.filter((line) =>
    names.some((name) => [`"${name}"`, `'${name}'`, `\`${name}\``].some((q) => line.includes(q))) ||
    (loose !== null && line.includes(loose))
  ).slice(0, 200);
  const classes = quoted.map(classify).filter((c) => c !== null);
  for (const wanted of order) if (classes.includes(wanted)) return wanted;
  return null;
}

/** What is needed to make an observation besides the recorded requests. */
export interface ObserveInput {
  readonly client: string;
  readonly package: string;
  readonly version: string;
  /** The npm `dist.integrity` of the package installed (its lockfile's). */
  readonly integrity: string;
  readonly api: ModelApi;
  readonly command: string;
  readonly requests: readonly Recorded[];
  /** The client's stdout and stderr, as lines (classified only). */
  readonly output: readonly string[];
  /** What each probe server recorded of the client's opening, by catalog id. */
  readonly openings: Readonly<Record<string, unknown>>;
  /** The runs that had revision probe servers: their requests and the servers' records. */
  readonly revisionRuns: readonly {
    readonly requests: readonly Recorded[];
    readonly openings: Readonly<Record<string, unknown>>;
  }[];
  readonly date: string;
  /** The probe set's fingerprint (`probeSetId`). */
  readonly probes: string;
  /** The held-out catalogs served beside the probes, by catalog id (none: not recorded). */
  readonly heldOut?: Readonly<Record<string, ProbeServer>>;
}

/** The request that declared most probe tools: the turn's request (its declarations). */
export function turnRequest(api: ModelApi, bodies: readonly unknown[]): Declared[] {
  let best: Declared[] = [];
  let most = 0;
  for (const body of bodies) {
    const declared = declaredTools(api, body);
    const probes = declared.filter((d) => d.description.includes(PROBE_MARKER)).length;
    if (probes > most) [best, most] = [declared, probes];
  }
  return best;
}

/** The length of the longest common prefix of `a` and `b`, in UTF-16 units. */
function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let at = 0;
  while (at < end && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/**
 * How much of `served` (which starts with a marker of its own, `head`) reached the model in
 * `bodies`: the most UTF-16 units of it, from the start, found in any string of them, and what
 * the client wrote right after them there (to the end of its line, at most 32 characters).
 */
export function keptOf(
  bodies: readonly unknown[],
  head: string,
  served: string,
): { kept: number | null; after: string | null } {
  let kept: number | null = null;
  let after: string | null = null;
  for (const body of bodies) {
    for (const text of stringsOf(body)) {
      for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
        const length = commonPrefix(served, text.slice(at, at + served.length + 1));
        if (kept !== null && length <= kept) continue;
        kept = length;
        const rest = text.slice(at + length, at + length + 32);
        after = rest.split(/[\r\n]/)[0];
      }
    }
  }
  return { kept, after: kept !== null && kept < served.length ? after : null };
}

/** What reached the model of each catalog, read from a run's requests and output. */
export function observeCatalogs(
  api: ModelApi,
  requests: readonly Recorded[],
  output: readonly string[],
  catalogs: readonly (readonly [string, ProbeServer])[],
): ObservedServer[] {
  const bodies = requests.map((r) => r.body);
  const best = turnRequest(api, bodies);
  return catalogs.map(([id, probe]) => {
    const tools: ObservedTool[] = probe.tools.map((tool, index) => {
      const marker = probeMarker(id, index);
      const seen = best.find((d) => d.description.includes(marker)) ??
        deferredIn(bodies, marker);
      const names = seen ? [tool.name, seen.name] : [tool.name];
      // Clients quote a rewritten name (`mcp__main__x_y`): the cleaned name, where it is long.
      const cleaned = tool.name.replace(/[^A-Za-z0-9]/g, "_");
      const served = probeDescription(id, index, tool.description);
      return {
        name: tool.name,
        sent: seen !== undefined,
        deferred: seen?.deferred ?? false,
        model_name: seen?.name ?? null,
        rewritten: seen && !seen.deferred
          ? canonical(seen.schema) !== canonical(tool.inputSchema)
          : null,
        warning: warningFor(output, names, WARNING_CLASSES, cleaned.length >= 8 ? cleaned : null),
        ...(probe.measuresDescriptions
          ? {
            description_kept: seen && !seen.deferred
              ? keptOf([seen.description], marker, served).kept
              : null,
            description_served: served.length,
          }
          : {}),
      };
    });
    return {
      label: probe.label,
      refused: tools.every((t) => !t.sent),
      warning: warningFor(output, [probe.label], ["server-failed"]),
      tools,
    };
  });
}

/** How much of each probe server's instructions reached the model, in catalog order. */
export function instructionsOf(
  bodies: readonly unknown[],
  catalogs: readonly (readonly [string, ProbeServer])[],
): ObservedInstructions[] {
  return catalogs.flatMap(([id, probe]) => {
    if (probe.instructions === undefined) return [];
    // The main server's instructions start with text and carry the marker at their end.
    const head = probe.instructions.startsWith(instructionsHead(id))
      ? instructionsHead(id)
      : probe.instructions.slice(0, 16);
    return [{
      label: probe.label,
      served: probe.instructions.length,
      ...keptOf(bodies, head, probe.instructions),
    }];
  });
}

/** The observation of one run. */
export function observe(input: ObserveInput): Observation {
  const bodies = input.requests.map((r) => r.body);
  const probeCatalogs = PROBE_SERVER_IDS.map((id) => [id, PROBE_SERVERS[id]] as const);
  const servers = observeCatalogs(input.api, input.requests, input.output, probeCatalogs);
  const heldOut = input.heldOut &&
    observeCatalogs(input.api, input.requests, input.output, Object.entries(input.heldOut));
  return {
    schema: "mcpeval.client-observation/v1",
    client: input.client,
    package: input.package,
    version: input.version,
    integrity: input.integrity,
    observed_at: input.date,
    command: input.command,
    api: input.api,
    model_requests: input.requests.length,
    initialize: openingOf(input.openings.main),
    instructions_shown: bodies.some((body) => JSON.stringify(body).includes(INSTRUCTIONS_MARKER)),
    probes: input.probes,
    servers,
    ...(heldOut ? { held_out: heldOut } : {}),
    revisions: REVISION_SERVER_IDS.map((id) => revisionOf(input, id)),
    instructions: instructionsOf(bodies, probeCatalogs),
  };
}

/** What the client did with one revision probe server, from the run that had it. */
function revisionOf(input: ObserveInput, id: string): ObservedRevision {
  const run = input.revisionRuns.find((r) => r.openings[id] !== undefined);
  const recorded = run?.openings[id];
  const opening = isObject(recorded) && Array.isArray(recorded.opening)
    ? recorded.opening.filter(isObject)
    : [];
  const init = opening.find((m) => m.method === "initialize");
  const asked = isObject(init?.params) ? init.params.protocolVersion : undefined;
  const marker = probeMarker(id, 0);
  const bodies = run?.requests.map((r) => r.body) ?? [];
  return {
    revision: REVISION_SERVERS[id],
    asked: typeof asked === "string" ? asked : null,
    discover: opening.some((m) => m.method === "server/discover"),
    listed: opening.some((m) => m.method === "tools/list"),
    sent:
      bodies.some((body) =>
        declaredTools(input.api, body).some((d) => d.description.includes(marker))
      ) || deferredIn(bodies, marker) !== undefined,
  };
}

function openingOf(recorded: unknown): Observation["initialize"] {
  if (!isObject(recorded) || !Array.isArray(recorded.opening)) return null;
  const opening = recorded.opening.filter(isObject);
  const init = opening.find((m) => m.method === "initialize");
  const discover = opening.findIndex((m) => m.method === "server/discover");
  const params = isObject(init?.params) ? init.params : {};
  const info = isObject(params.clientInfo) ? params.clientInfo : {};
  if (!init && discover === -1) return null;
  return {
    discover_first: discover !== -1 && (init === undefined || discover < opening.indexOf(init)),
    protocol_version: typeof params.protocolVersion === "string" ? params.protocolVersion : null,
    capabilities: isObject(params.capabilities) ? params.capabilities : {},
    client_info: {
      name: typeof info.name === "string" ? info.name : "",
      version: typeof info.version === "string" ? info.version : null,
    },
  };
}
