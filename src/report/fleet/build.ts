/**
 * Every selected server's report, or why it was not checked → the one validated fleet report.
 *
 * @module
 */
import {
  type ConfigField,
  type ConfigFormat,
  NOT_CHECKED_HINTS,
  type NotCheckedReason,
} from "../../config_facts.ts";
import type { GuidanceReport } from "../types.ts";
import { VERSION } from "../../version.ts";
import {
  FLEET_SCHEMA_ID,
  type FleetReport,
  type FleetServer,
  type FleetShardReport,
} from "./types.ts";

/** One server's result: its report, or why it was not checked. */
export type ServerResult =
  | { readonly name: string; readonly report: GuidanceReport }
  | {
    readonly name: string;
    readonly reason: NotCheckedReason;
    readonly field?: ConfigField;
    readonly variables?: readonly string[];
  };

/** One server's entry in the fleet report, from its result. */
export function fleetServerOf(result: ServerResult): FleetServer {
  return "report" in result
    ? { name: result.name, checked: true as const, report: result.report }
    : {
      name: result.name,
      checked: false as const,
      reason: result.reason,
      hint: NOT_CHECKED_HINTS[result.reason],
      ...(result.field === undefined ? {} : { field: result.field }),
      ...(result.variables === undefined ? {} : { variables: [...result.variables] }),
    };
}

/** Builds the fleet report (of one shard, with `shard`), to its schema (tests check it). */
export function buildFleetReport(
  format: ConfigFormat,
  results: readonly ServerResult[],
  shard?: FleetShardReport,
): FleetReport {
  const servers = results.map(fleetServerOf);
  const complete = servers.every((server) => server.checked && server.report.complete);
  return ({
    schema: FLEET_SCHEMA_ID,
    mcpeval_version: VERSION,
    config_format: format,
    ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}),
    servers,
    complete,
    passed: complete ? servers.every((server) => server.checked && server.report.passed) : null,
  } satisfies FleetReport);
}
