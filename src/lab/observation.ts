/**
 * The shape of an observation file (`src/clients/observed/CLIENT@VERSION.json`,
 * `mcpeval.client-observation/v1`): what one real client at one version did with the probe
 * servers, as the lab recorded it. Only probe data and fixed classes: never text the client
 * printed.
 *
 * @module
 */
import { z } from "zod";

/** The fixed classes a client's warning about a tool (or server) is put in. */
export const WARNING_CLASSES = [
  "schema-rejected",
  "schema-rewritten",
  "name-rewritten",
  "tool-hidden",
  "server-failed",
  "other",
] as const;

/** What happened to one probe tool. */
export const ObservedTool = z.object({
  /** The tool's name as served. */
  name: z.string(),
  /** Whether it reached the model. */
  sent: z.boolean(),
  /** Sent only as a name in the request's text, reachable through the client's search tool. */
  deferred: z.boolean(),
  /** The name the model saw (null when not sent). */
  model_name: z.string().nullable(),
  /** Whether the schema the model saw differs from the one served (null: not sent, or deferred). */
  rewritten: z.boolean().nullable(),
  /** The class of what the client printed naming this tool (null: nothing). */
  warning: z.enum(WARNING_CLASSES).nullable(),
});

/** One probe server. */
export const ObservedServer = z.object({
  /** The catalog id and label (`lab/probe_catalog.ts`). */
  label: z.string(),
  /** Whether none of its tools reached the model (the client refused the whole server). */
  refused: z.boolean(),
  /** The class of what the client printed naming this server (null: nothing). */
  warning: z.enum(WARNING_CLASSES).nullable(),
  /** Its tools, in listing order. */
  tools: z.array(ObservedTool),
});

/** What the client did with one revision probe server (a server that answers one revision). */
export const ObservedRevision = z.object({
  /** The only revision the server answered. */
  revision: z.string(),
  /** The revision the client's `initialize` asked for (null: it sent none). */
  asked: z.string().nullable(),
  /** Whether the client probed with `server/discover`. */
  discover: z.boolean(),
  /** Whether the client listed tools (it connected under the server's revision). */
  listed: z.boolean(),
  /** Whether the server's tool reached the model. */
  sent: z.boolean(),
});

/** One observation file. */
export const Observation = z.object({
  schema: z.literal("mcpeval.client-observation/v1"),
  /** The lab's client id (the preset's name). */
  client: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/),
  /** The npm package and the version run. */
  package: z.string(),
  version: z.string(),
  /** The day it was observed (YYYY-MM-DD). */
  observed_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The command that reproduces it. */
  command: z.string(),
  /** The model API the client spoke to the stand-in. */
  api: z.enum(["anthropic", "responses", "chat", "gemini"]),
  /** How many requests reached the stand-in. */
  model_requests: z.number().int().nonnegative(),
  /** The opening the client sent to the main probe server (null: none recorded). */
  initialize: z.object({
    /** Whether the client probed with `server/discover` before `initialize`. */
    discover_first: z.boolean(),
    protocol_version: z.string().nullable(),
    capabilities: z.record(z.string(), z.unknown()),
    client_info: z.object({ name: z.string(), version: z.string().nullable() }),
  }).nullable(),
  /** Whether the main server's instructions reached the model. */
  instructions_shown: z.boolean(),
  /** The probe servers, in the order configured. */
  servers: z.array(ObservedServer),
  /** The revision probe servers, oldest revision first (absent: observed before they existed). */
  revisions: z.array(ObservedRevision).optional(),
});

/** A parsed observation. */
export type Observation = z.infer<typeof Observation>;
/** A parsed observed revision. */
export type ObservedRevision = z.infer<typeof ObservedRevision>;
/** A parsed observed tool. */
export type ObservedTool = z.infer<typeof ObservedTool>;
