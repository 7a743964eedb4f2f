/**
 * mcpeval guidance's reports, part by part (`jsr:@mcpeval/guidance/report`): every shape a
 * report or a fleet report holds, by name, for a reader that handles one kind of candidate,
 * defect, profile or server. The library (`jsr:@mcpeval/guidance/lib`) gives the whole reports,
 * their unions and their schemas; the parts are named here.
 *
 * @example
 * ```ts
 * import type { ReferenceCutCandidateReport } from "jsr:@mcpeval/guidance/report";
 * import type { GuidanceReport } from "jsr:@mcpeval/guidance/lib";
 *
 * const cuts = (report: GuidanceReport): ReferenceCutCandidateReport[] =>
 *   report.candidates.filter((c): c is ReferenceCutCandidateReport =>
 *     c.kind === "reference-cut-in-client"
 *   );
 * ```
 *
 * @module
 */
export * from "./types.ts";
export type {
  CheckedServer,
  FleetReport,
  FleetServer,
  FleetShardReport,
  NotCheckedServer,
} from "./fleet/types.ts";
