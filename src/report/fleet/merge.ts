/**
 * `mcpeval merge`: several validated fleet reports of one config (its shards, or runs of
 * disjoint server selections) → the one fleet report of all their servers. Reports that cannot
 * be parts of one run are refused with a fixed problem that names reports by their position.
 * Pure.
 *
 * @module
 */
import { buildFleetReport, type ServerResult } from "./build.ts";
import type { FleetReport } from "./types.ts";
import type { GuidanceReport } from "../types.ts";

/**
 * Why reports cannot be merged. `at`, `first` and `second` are positions in the list given
 * (from 0); `at` differs from the first report that has the fact.
 */
export type MergeProblem =
  | {
    readonly kind: "overlap";
    readonly server: string;
    readonly first: number;
    readonly second: number;
  }
  | { readonly kind: "version"; readonly at: number }
  | { readonly kind: "config-format"; readonly at: number }
  | { readonly kind: "profiles"; readonly at: number }
  | { readonly kind: "clients"; readonly at: number }
  | { readonly kind: "settings"; readonly at: number }
  /** `sharded`: whether the report at `at` is a shard (and so the first is not). */
  | { readonly kind: "shard-mixed"; readonly at: number; readonly sharded: boolean }
  | { readonly kind: "shard-count"; readonly at: number }
  | {
    readonly kind: "shard-repeated";
    readonly index: number;
    readonly first: number;
    readonly second: number;
  }
  | { readonly kind: "shard-missing"; readonly index: number; readonly count: number };

/** The merged report, or why the reports cannot be merged. */
export type MergeResult =
  | { readonly ok: true; readonly fleet: FleetReport }
  | { readonly ok: false; readonly problem: MergeProblem };

/** What every server of one run shares, each as a comparable string. */
interface RunFacts {
  readonly profiles: string;
  readonly clients: string;
  readonly settings: string;
}

function factsOf(report: GuidanceReport): RunFacts {
  return {
    profiles: JSON.stringify(report.profiles.map((profile) => profile.profile)),
    clients: JSON.stringify(report.profiles.map((profile) => profile.client ?? null)),
    settings: JSON.stringify([
      report.protocol_version,
      report.reference_detection,
      report.settings,
      report.baseline?.require_baseline_tools ?? null,
    ]),
  };
}

/**
 * Merges `reports` (at least one) into one fleet report: every server of each, shards in shard
 * order and each report's servers in its order, `complete` and `passed` over them all. Refuses
 * reports of different mcpeval versions, config formats, profiles, clients or settings, a server
 * in two reports, and, when the reports are shards, a set that is not exactly shards 1 to N of N.
 *
 * @example
 * ```ts
 * const merged = mergeFleetReports([shard1, shard2]);
 * if (merged.ok) console.log(merged.fleet.servers.length);
 * ```
 */
export function mergeFleetReports(reports: readonly FleetReport[]): MergeResult {
  const fail = (problem: MergeProblem): MergeResult => ({ ok: false, problem });
  const first = reports[0];
  for (const [at, report] of reports.entries()) {
    if (report.mcpeval_version !== first.mcpeval_version) return fail({ kind: "version", at });
    if (report.config_format !== first.config_format) return fail({ kind: "config-format", at });
    if ((report.shard === undefined) !== (first.shard === undefined)) {
      return fail({ kind: "shard-mixed", at, sharded: report.shard !== undefined });
    }
    if (report.shard && report.shard.count !== first.shard!.count) {
      return fail({ kind: "shard-count", at });
    }
  }
  let reference: RunFacts | undefined;
  const seen = new Map<string, number>();
  for (const [at, report] of reports.entries()) {
    for (const server of report.servers) {
      const earlier = seen.get(server.name);
      if (earlier !== undefined) {
        return fail({ kind: "overlap", server: server.name, first: earlier, second: at });
      }
      seen.set(server.name, at);
      if (!server.checked) continue;
      const facts = factsOf(server.report);
      reference ??= facts;
      for (const kind of ["profiles", "clients", "settings"] as const) {
        if (facts[kind] !== reference[kind]) return fail({ kind, at });
      }
    }
  }
  let order = [...reports.keys()];
  if (first.shard) {
    const byIndex = new Map<number, number>();
    for (const [at, report] of reports.entries()) {
      const index = report.shard!.index;
      const earlier = byIndex.get(index);
      if (earlier !== undefined) {
        return fail({ kind: "shard-repeated", index, first: earlier, second: at });
      }
      byIndex.set(index, at);
    }
    const count = first.shard.count;
    for (let index = 1; index <= count; index++) {
      if (!byIndex.has(index)) return fail({ kind: "shard-missing", index, count });
    }
    order = order.sort((a, b) => reports[a].shard!.index - reports[b].shard!.index);
  }
  const results: ServerResult[] = order.flatMap((at) =>
    reports[at].servers.map((server) => {
      if (server.checked) return { name: server.name, report: server.report };
      // Every field but the two that the fleet report derives (`checked`, and `hint` from
      // `reason`), so that a field added to a not-checked server survives a merge.
      const { checked: _checked, hint: _hint, ...kept } = server;
      return kept;
    })
  );
  const built = buildFleetReport(first.config_format, results);
  return { ok: true, fleet: { ...built, mcpeval_version: first.mcpeval_version } };
}
