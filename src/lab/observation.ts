/**
 * The shape of an observation file (`src/clients/observed/CLIENT@VERSION.json`,
 * `mcpeval.client-observation/v1`): what one real client at one version did with the probe
 * servers, as the lab recorded it. Only probe data and fixed classes: never text the client
 * printed.
 *
 * @module
 */
import { z } from "zod";
import { CLIENT_VERSION } from "../clients/versions.ts";
import { INTEGRITY } from "./committed.ts";
import { discoverRevision } from "../protocol/versions.ts";

/** The fixed classes a client's warning about a tool (or server) is put in. */
export const WARNING_CLASSES = [
  "schema-rejected",
  "schema-rewritten",
  "name-rewritten",
  "tool-hidden",
  "server-failed",
  "other",
] as const;

/** A warning class. */
export type WarningClass = (typeof WARNING_CLASSES)[number];

/** What happened to one probe tool. */
export interface ObservedTool {
  /** The tool's name as served. */
  name: string;
  /** Whether it reached the model. */
  sent: boolean;
  /** Sent only as a name in the request's text, reachable through the client's search tool. */
  deferred: boolean;
  /** The name the model saw (null when not sent). */
  model_name: string | null;
  /** Whether the schema the model saw differs from the one served (null: not sent, or deferred). */
  rewritten: boolean | null;
  /** The class of what the client printed naming this tool (null: nothing). */
  warning: WarningClass | null;
  /**
   * A server that measures descriptions: how many UTF-16 units of the served description reached
   * the model (null: not sent, or only named); absent elsewhere.
   */
  description_kept?: number | null;
  /** With `description_kept`: the description's length as served, in UTF-16 units. */
  description_served?: number;
}

/** How much of one probe server's instructions reached the model. */
export interface ObservedInstructions {
  /** The probe server (its catalog id and label). */
  label: string;
  /** The instructions' length as served, in UTF-16 units. */
  served: number;
  /** How many UTF-16 units of them, from the start, reached the model (null: none did). */
  kept: number | null;
  /**
   * Where they were cut (`kept` < `served`): what the client wrote right after the kept prefix,
   * up to the end of the line (at most 32 characters; the client's own text, never a server's).
   */
  after: string | null;
}

/** What the client did when the model API refused a request, in one strict scenario. */
export type StrictReaction =
  | "not-refused"
  | "turn-fails"
  | "tool-dropped"
  | "server-dropped"
  | "other";

/** The reactions, in one list. */
export const STRICT_REACTIONS = [
  "not-refused",
  "turn-fails",
  "tool-dropped",
  "server-dropped",
  "other",
] as const satisfies readonly StrictReaction[];

/** One run of the client against the strict stand-in (`src/lab/strict.ts`). */
export interface ObservedStrict {
  /** The scenario (`STRICT_SCENARIOS` of `src/lab/strict.ts`). */
  scenario: string;
  /** The API limit the stand-in refused the first refused request for (null: none refused). */
  limit: string | null;
  /** Whether the tool the stand-in refused was the scenario's probe (false: a client's own). */
  probe_refused: boolean;
  /** How many model requests reached the stand-in. */
  requests: number;
  /** How many of them it refused. */
  refused: number;
  /** What the client did then. */
  reaction: StrictReaction;
  /**
   * How the client named the scenario's probe tool to the model: a prefix, then (`label`) the
   * server label and a separator, then the name (null: not recognised, or not sent).
   */
  qualified: { prefix: string; separator: string; label: boolean } | null;
  /** How many tools the client declared besides the probe servers' (its own). */
  builtin_tools: number;
  /** The scenario's servers: what reached the model in the end (nothing when the turn failed). */
  servers: ObservedServer[];
}

/** Whether the client showed the model its tools or only their names (deferral). */
export interface ObservedDeferral {
  /** The lab's setting that changes it (`NAME=VALUE`; null: the lab runs the client's default). */
  setting: string | null;
  /** With the lab's settings: probe tools declared to the model, and those only named. */
  lab: { declared: number; deferred: number };
  /** With the client's defaults (null: the lab's run is the default). */
  default: { declared: number; deferred: number } | null;
}

/** One probe server (or held-out catalog) as the client treated it. */
export interface ObservedServer {
  /** The catalog id and label (`src/lab/probe_catalog.ts`). */
  label: string;
  /** Whether none of its tools reached the model (the client refused the whole server). */
  refused: boolean;
  /** The class of what the client printed naming this server (null: nothing). */
  warning: WarningClass | null;
  /** Its tools, in listing order. */
  tools: ObservedTool[];
}

/** What the client did with one revision probe server (a server that answers one revision). */
export interface ObservedRevision {
  /** The only revision the server answered. */
  revision: string;
  /** The revision the client's `initialize` asked for (null: it sent none). */
  asked: string | null;
  /** Whether the client probed with `server/discover`. */
  discover: boolean;
  /** Whether the client listed tools (it connected under the server's revision). */
  listed: boolean;
  /** Whether the server's tool reached the model. */
  sent: boolean;
}

/** One observation file (`mcpeval.client-observation/v1`). */
export interface Observation {
  /** The file's schema id. */
  schema: "mcpeval.client-observation/v1";
  /** The lab's client id (the preset's name). */
  client: string;
  /** The npm package run. */
  package: string;
  /** The version run. */
  version: string;
  /**
   * The npm `dist.integrity` of the package installed, as the install's lockfile records it
   * (absent: observed before it was recorded): `--observe NAME@VERSION` checks its install
   * against it.
   */
  integrity?: string;
  /** The day it was observed (YYYY-MM-DD). */
  observed_at: string;
  /** The command that reproduces it. */
  command: string;
  /** The model API the client spoke to the stand-in. */
  api: "anthropic" | "responses" | "chat" | "gemini";
  /** How many requests reached the stand-in. */
  model_requests: number;
  /** The opening the client sent to the main probe server (null: none recorded). */
  initialize: {
    /** Whether the client probed with `server/discover` before `initialize`. */
    discover_first: boolean;
    protocol_version: string | null;
    capabilities: Record<string, unknown>;
    client_info: { name: string; version: string | null };
  } | null;
  /** Whether the main server's instructions reached the model. */
  instructions_shown: boolean;
  /**
   * The probe set observed with (`probeSetId` of `src/lab/probe_catalog.ts`; absent: observed
   * before it was recorded): `mcpeval lab --all` observes again what another set observed.
   */
  probes?: string;
  /** The probe servers, in the order configured. */
  servers: ObservedServer[];
  /**
   * Held-out catalogs served beside the probes (`fixtures/held_out.ts`, from the repository):
   * what the client did with tools the derivation of presets never sees. Absent: none served.
   */
  held_out?: ObservedServer[];
  /** The revision probe servers, oldest revision first (absent: observed before they existed). */
  revisions?: ObservedRevision[];
  /** Each probe server with instructions, in order (absent: observed before issue 41). */
  instructions?: ObservedInstructions[];
  /** The strict stand-in's scenarios of the client's API, in order (absent: not observed). */
  strict?: ObservedStrict[];
  /** Deferral with the lab's settings and the client's defaults (absent: not observed). */
  deferral?: ObservedDeferral;
}

const ObservedToolSchema: z.ZodType<ObservedTool> = z.object({
  name: z.string(),
  sent: z.boolean(),
  deferred: z.boolean(),
  model_name: z.string().nullable(),
  rewritten: z.boolean().nullable(),
  warning: z.enum(WARNING_CLASSES).nullable(),
  description_kept: z.int().nonnegative().nullable().optional(),
  description_served: z.int().nonnegative().optional(),
});

const ObservedServerSchema: z.ZodType<ObservedServer> = z.object({
  label: z.string(),
  refused: z.boolean(),
  warning: z.enum(WARNING_CLASSES).nullable(),
  tools: z.array(ObservedToolSchema),
});

const ObservedRevisionSchema: z.ZodType<ObservedRevision> = z.object({
  revision: z.string(),
  asked: z.string().nullable(),
  discover: z.boolean(),
  listed: z.boolean(),
  sent: z.boolean(),
});

const ObservedInstructionsSchema: z.ZodType<ObservedInstructions> = z.object({
  label: z.string(),
  served: z.int().nonnegative(),
  kept: z.int().nonnegative().nullable(),
  after: z.string().max(32).nullable(),
});

const Counts = z.object({ declared: z.int().nonnegative(), deferred: z.int().nonnegative() });

const ObservedStrictSchema: z.ZodType<ObservedStrict> = z.object({
  scenario: z.string(),
  limit: z.string().nullable(),
  probe_refused: z.boolean(),
  requests: z.int().nonnegative(),
  refused: z.int().nonnegative(),
  reaction: z.enum(STRICT_REACTIONS),
  qualified: z.object({
    prefix: z.string().max(32),
    separator: z.string().max(32),
    label: z.boolean(),
  }).nullable(),
  builtin_tools: z.int().nonnegative(),
  servers: z.array(ObservedServerSchema),
});

const ObservedDeferralSchema: z.ZodType<ObservedDeferral> = z.object({
  setting: z.string().max(64).nullable(),
  lab: Counts,
  default: Counts.nullable(),
});

/** The schema of an observation file, checked when one is read. */
export const ObservationSchema: z.ZodType<Observation> = z.object({
  schema: z.literal("mcpeval.client-observation/v1"),
  client: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/),
  package: z.string(),
  version: z.string().regex(CLIENT_VERSION),
  integrity: z.string().regex(INTEGRITY).optional(),
  observed_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  command: z.string(),
  api: z.enum(["anthropic", "responses", "chat", "gemini"]),
  model_requests: z.number().int().nonnegative(),
  initialize: z.object({
    discover_first: z.boolean(),
    protocol_version: z.string().nullable(),
    capabilities: z.record(z.string(), z.unknown()),
    client_info: z.object({ name: z.string(), version: z.string().nullable() }),
  }).nullable(),
  instructions_shown: z.boolean(),
  probes: z.string().regex(/^[0-9a-f]{12}$/).optional(),
  servers: z.array(ObservedServerSchema),
  held_out: z.array(ObservedServerSchema).optional(),
  revisions: z.array(ObservedRevisionSchema).optional(),
  instructions: z.array(ObservedInstructionsSchema).optional(),
  strict: z.array(ObservedStrictSchema).optional(),
  deferral: ObservedDeferralSchema.optional(),
});

/**
 * The revision an observed client opens with: the one it sent in `initialize`, or, for a client
 * that probes with `server/discover` first, the newest discover revision its observation knew
 * (its revision probes): a revision added since is not claimed for it (null: it sent none).
 * Undefined without an
 * `initialize`.
 */
export function openingRevision(observation: Observation): string | null | undefined {
  const init = observation.initialize;
  if (!init) return undefined;
  if (!init.discover_first) return init.protocol_version;
  const known = (observation.revisions ?? []).map((observed) => observed.revision);
  return discoverRevision(known.length > 0 ? known : undefined);
}

/** `value` as an observation, or undefined when it is not a valid one. */
export function parseObservation(value: unknown): Observation | undefined {
  const parsed = ObservationSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The observation in `file`, or undefined when there is none (or it is not one). */
export async function readObservation(file: string): Promise<Observation | undefined> {
  try {
    return parseObservation(JSON.parse(await Deno.readTextFile(file)));
  } catch {
    return undefined;
  }
}

/**
 * The differences between two observations of one client version, one line each (names as the
 * probe catalog has them, fixed words), ignoring the date and the request count (and the
 * integrity where the older one has none).
 */
export function differences(was: Observation, now: Observation): string[] {
  const lines: string[] = [];
  if (was.integrity !== undefined && was.integrity !== now.integrity) lines.push("integrity");
  if (was.instructions_shown !== now.instructions_shown) lines.push("instructions_shown");
  if (JSON.stringify(was.initialize) !== JSON.stringify(now.initialize)) lines.push("initialize");
  for (const server of [...now.servers, ...(now.held_out ?? [])]) {
    const old = [...was.servers, ...(was.held_out ?? [])].find((s) => s.label === server.label);
    for (const tool of server.tools) {
      const before = old?.tools.find((t) => t.name === tool.name);
      if (!before || before.sent !== tool.sent || before.model_name !== tool.model_name) {
        lines.push(
          `${server.label}/${JSON.stringify(tool.name)}: sent ${before?.sent} -> ${tool.sent}`,
        );
      }
    }
  }
  for (const cut of now.instructions ?? []) {
    const before = was.instructions?.find((i) => i.label === cut.label);
    if (before?.kept !== cut.kept) {
      lines.push(`instructions ${cut.label}: kept ${before?.kept} -> ${cut.kept}`);
    }
  }
  for (const run of now.strict ?? []) {
    const before = was.strict?.find((s) => s.scenario === run.scenario);
    if (before?.reaction !== run.reaction) {
      lines.push(`strict ${run.scenario}: ${before?.reaction} -> ${run.reaction}`);
    }
  }
  if (JSON.stringify(was.deferral) !== JSON.stringify(now.deferral)) lines.push("deferral");
  for (const revision of now.revisions ?? []) {
    const before = was.revisions?.find((r) => r.revision === revision.revision);
    if (JSON.stringify(before) !== JSON.stringify(revision)) {
      lines.push(`revision ${revision.revision}: sent ${before?.sent} -> ${revision.sent}`);
    }
  }
  return lines;
}
