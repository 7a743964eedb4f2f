/**
 * The `mcpeval.guidance-fleet/v1` schema: the single source of the fleet report's type, its
 * runtime validation and the JSON Schema printed by `mcpeval schema guidance-fleet`. Each
 * embedded report is checked by the guidance report's own schema.
 *
 * @module
 */
import type { z as Zod } from "zod";
import { z } from "zod";
import {
  CONFIG_FIELDS,
  CONFIG_FORMAT,
  NOT_CHECKED_HINTS,
  NOT_CHECKED_REASONS,
} from "../../config_facts.ts";
import { MAX_SHARDS } from "../../limits.ts";
import { SERVER_LABEL } from "../../tool_name.ts";
import { hintSchema, idSchema, patternSchema } from "../ids.ts";
import { guidanceReportZod, type ReportIssue } from "../schema.ts";
import type { KnownIds, ReportIds } from "../types.ts";
import type { FleetReport } from "./types.ts";

export type {
  CheckedServer,
  FleetReport,
  FleetServer,
  FleetShardReport,
  NotCheckedServer,
} from "./types.ts";

/** The fleet report's schema identifier. */
export { FLEET_SCHEMA_ID } from "./types.ts";
import { FLEET_SCHEMA_ID } from "./types.ts";

const Name = z.string().regex(SERVER_LABEL);

/** One entry of `servers`: a checked server's report, or why it was not checked. */
const serverSchema = z.discriminatedUnion("checked", [
  z.strictObject({ name: Name, checked: z.literal(true), report: guidanceReportZod }),
  z.strictObject({
    name: Name,
    checked: z.literal(false),
    reason: idSchema("Why the server was not checked.", NOT_CHECKED_REASONS),
    hint: hintSchema(
      "The reason's fixed hint (mcpeval's NOT_CHECKED_HINTS table).",
      Object.values(NOT_CHECKED_HINTS),
    ),
    field: patternSchema(
      CONFIG_FORMAT,
      "With invalid-entry: the config field that breaks a rule.",
      CONFIG_FIELDS,
    ).optional(),
    variables: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)).max(16).optional(),
  }),
]);

const fleetShape = {
  schema: z.literal(FLEET_SCHEMA_ID),
  mcpeval_version: z.string(),
  config_format: z.string().regex(CONFIG_FORMAT).describe(
    "The key that holds the servers in the config file (mcpServers, servers, mcp_servers, ...).",
  ),
  shard: z.strictObject({
    index: z.int().min(1).max(MAX_SHARDS),
    count: z.int().min(1).max(MAX_SHARDS),
  }).optional().meta({
    description:
      "With --shard I/N only: this report covers the selected servers whose label's FNV-1a 32-bit hash (of its UTF-8 bytes) modulo count is index - 1",
  }),
  servers: z.array(serverSchema),
  complete: z.boolean(),
  passed: z.boolean().nullable(),
};

/** Every field but each server's entry (`servers` only an array): checked before the entries. */
const envelopeSchema = z.strictObject({ ...fleetShape, servers: z.array(z.unknown()) });

const CONSISTENCY = "names, fields, complete and passed disagree with the servers";

const KNOWN_REASONS: ReadonlySet<string> = new Set(NOT_CHECKED_REASONS);

/**
 * Whether a valid entry agrees with itself: a checked server's report is of its name; a known
 * reason carries only its own fields (a reason of a later version, and any hint, are kept).
 */
function entryConsistent(server: Zod.infer<typeof serverSchema>): boolean {
  if (server.checked) return server.report.server === server.name;
  if (!KNOWN_REASONS.has(server.reason)) return true;
  return (server.field === undefined || server.reason === "invalid-entry") &&
    (server.variables === undefined || server.reason === "unset-variable");
}

const fleetSchema = z.strictObject(fleetShape).check((ctx) => {
  const fleet = ctx.value;
  const complete = fleet.servers.every((server) => server.checked && server.report.complete);
  const passed = complete
    ? fleet.servers.every((server) => server.checked && server.report.passed)
    : null;
  const names = new Set(fleet.servers.map((server) => server.name));
  const consistent = fleet.complete === complete && fleet.passed === passed &&
    (fleet.shard === undefined || fleet.shard.index <= fleet.shard.count) &&
    names.size === fleet.servers.length &&
    fleet.servers.every(entryConsistent);
  if (!consistent) ctx.issues.push({ code: "custom", input: fleet, message: CONSISTENCY });
});

/**
 * What {@linkcode FleetSchema.safeParse} returns: the fleet report, or why the value is not one.
 * A fleet report read may hold ids of a later version ({@linkcode ReportIds}).
 */
export type FleetParseResult =
  | { readonly success: true; readonly data: FleetReport<ReportIds> }
  | {
    readonly success: false;
    readonly error: Error & { readonly issues: readonly ReportIssue[] };
  };

/** Validation against the fleet schema. */
export interface FleetSchema {
  /** Returns `value` as a fleet report; throws an error carrying the issues when it is not one. */
  parse(value: unknown): FleetReport<ReportIds>;
  /** Like `parse`, but returns the outcome instead of throwing. */
  safeParse(value: unknown): FleetParseResult;
}

/** The fleet report's schema: use it to validate a fleet report you read. */
export const FleetReportSchema: FleetSchema = fleetSchema;

/** The top-level fields a fleet report may have (a baseline with any other is refused). */
export const FLEET_FIELDS: readonly string[] = Object.keys(fleetSchema.shape);

/**
 * Validates `value` against the fleet schema one piece at a time, with the same outcome as
 * {@linkcode FleetReportSchema}'s `safeParse` but without a validated copy of the whole report:
 * the fields around `servers` first, then each server entry on its own (its validated copy
 * dropped at once), then how the entries agree. The schema has no transforms and its objects
 * admit no other field, so a valid `value` is returned itself, as the fleet report it is.
 * `entries`, when given, are the entries (read once, each as it is reached) and `value` has
 * `servers: []` in their place.
 *
 * @example
 * ```ts
 * const read = validateFleetReport(JSON.parse(text));
 * if (read.success) console.log(read.data.servers.length);
 * ```
 */
export function validateFleetReport(value: unknown, entries?: Iterable<unknown>): FleetParseResult {
  const envelope = envelopeSchema.safeParse(value);
  const before: ReportIssue[] = [];
  const after: ReportIssue[] = [];
  if (!envelope.success) {
    // The whole report's issues come in its fields' order: those of the fields after
    // `servers` (and unknown fields) after the entries' issues.
    for (const issue of envelope.error.issues) {
      const field = issue.path[0];
      (field === "complete" || field === "passed" || field === undefined ? after : before)
        .push(issue);
    }
  }
  const servers = (value as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers)) return failed([...before, ...after]);
  const names = new Set<string>();
  let count = 0;
  let complete = true;
  let passed = true;
  let consistent = true;
  for (const entry of entries ?? servers) {
    const at = count++;
    const read = serverSchema.safeParse(entry);
    if (!read.success) {
      before.push(
        ...read.error.issues.map((issue) => ({ ...issue, path: ["servers", at, ...issue.path] })),
      );
      continue;
    }
    const server = read.data;
    names.add(server.name);
    complete &&= server.checked && server.report.complete;
    passed &&= server.checked && server.report.passed === true;
    consistent &&= entryConsistent(server);
  }
  const issues = [...before, ...after];
  if (issues.length > 0) return failed(issues);
  // Every entry, and every field around them, was validated above.
  const fleet = value as FleetReport<ReportIds>;
  consistent &&= fleet.complete === complete && fleet.passed === (complete ? passed : null) &&
    (fleet.shard === undefined || fleet.shard.index <= fleet.shard.count) &&
    names.size === count;
  if (!consistent) return failed([{ path: [], message: CONSISTENCY }]);
  return { success: true, data: fleet };
}

function failed(issues: readonly ReportIssue[]): FleetParseResult {
  return { success: false, error: Object.assign(new Error(issues[0].message), { issues }) };
}

// The spelled-out types of a fleet report read and the schema must agree exactly, and what this
// version writes must be such a report; this fails to compile otherwise.
type Inferred = Zod.infer<typeof fleetSchema>;
type Read = FleetReport<ReportIds>;
const _sameType: [Inferred, Read] extends [Read, Inferred] ? true : never = true;
const _written: FleetReport<KnownIds> extends Read ? true : never = true;

/** The fleet report's JSON Schema (draft 2020-12). */
export function fleetJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(fleetSchema, { target: "draft-2020-12" }),
    $id: "https://jsr.io/@mcpeval/guidance/schema/guidance-fleet-v1.json",
    title: FLEET_SCHEMA_ID,
  };
}
