/**
 * `mcpeval merge`: several validated fleet reports of one config (its shards, or runs of
 * disjoint server selections) → the one fleet report of all their servers, folded in one report
 * at a time. Reports that cannot be parts of one run are refused with a fixed problem that names
 * reports by their position. The reports were read: an id this version does not know (a finding
 * kind, reason, label, ...) is kept as it is, never interpreted. Pure.
 *
 * @module
 */
import { PackedServers } from "./packed.ts";
import { FLEET_SCHEMA_ID, type FleetReport, type FleetServer, type FleetStream } from "./types.ts";
import type { GuidanceReport, ReportIds } from "../types.ts";

/** A fleet report read, and its parts. */
type Fleet = FleetReport<ReportIds>;
type Server = FleetServer<ReportIds>;

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
  | { readonly ok: true; readonly fleet: Fleet }
  | { readonly ok: false; readonly problem: MergeProblem };

/**
 * The merged fleet report with its servers kept packed: every field but `servers`, and the
 * servers in report order, each parsed only when reached (a document of any size can be
 * streamed from it; {@linkcode MergedFleet.report} builds the whole report).
 */
export interface MergedFleet {
  /** The fields before `servers`, in the report's order. */
  readonly head: Pick<Fleet, "schema" | "mcpeval_version" | "config_format">;
  /** Whether every server was checked and its discovery completed. */
  readonly complete: boolean;
  /** True with no defect in any server, false with one, null when `complete` is false. */
  readonly passed: boolean | null;
  /** How many servers. */
  readonly count: number;
  /** The servers in report order (each call reads them again). */
  servers(): Iterable<Server>;
  /** The whole fleet report, every server an object. */
  report(): Fleet;
}

/** A merge streamed: the merged report kept packed, or why the reports cannot be merged. */
export type MergedResult =
  | { readonly ok: true; readonly merged: MergedFleet }
  | { readonly ok: false; readonly problem: MergeProblem };

/** What every server of one run shares, each as a comparable string. */
interface RunFacts {
  readonly profiles: string;
  readonly clients: string;
  readonly settings: string;
}

function factsOf(report: GuidanceReport<ReportIds>): RunFacts {
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
 * Folds fleet reports into one, a report at a time, so that a caller can read, validate and add
 * each before it opens the next (only the servers are kept): {@linkcode add} checks each against
 * the reports before it, {@linkcode finish} checks the set (every shard once) and builds the
 * fleet report. Shards are put in shard order, each report's servers in its order.
 *
 * @example
 * ```ts
 * const merger = new FleetMerger();
 * for (const report of reports) {
 *   const problem = merger.add(report);
 *   if (problem) throw new Error(problem.kind);
 * }
 * const merged = merger.finish();
 * ```
 */
export class FleetMerger {
  #first: Pick<Fleet, "mcpeval_version" | "config_format" | "shard"> | undefined;
  #reference: RunFacts | undefined;
  readonly #seen = new Map<string, number>();
  readonly #byIndex = new Map<number, number>();
  readonly #parts: { readonly order: number; readonly servers: PackedServers }[] = [];
  readonly #blockChars: number | undefined;
  #count = 0;
  #complete = true;
  #passed = true;

  /** `blockChars`: the packed blocks' size ({@linkcode PackedServers}; tests inject a small one). */
  constructor(options: { readonly blockChars?: number } = {}) {
    this.#blockChars = options.blockChars;
  }

  /**
   * Adds the next report (position `count` so far; its servers read once); a problem leaves the
   * merger unusable.
   */
  add(report: FleetStream<ReportIds>): MergeProblem | undefined {
    const at = this.#count++;
    const first = this.#first ??= {
      mcpeval_version: report.mcpeval_version,
      config_format: report.config_format,
      ...(report.shard ? { shard: report.shard } : {}),
    };
    if (report.mcpeval_version !== first.mcpeval_version) return { kind: "version", at };
    if (report.config_format !== first.config_format) return { kind: "config-format", at };
    if ((report.shard === undefined) !== (first.shard === undefined)) {
      return { kind: "shard-mixed", at, sharded: report.shard !== undefined };
    }
    if (report.shard && report.shard.count !== first.shard!.count) {
      return { kind: "shard-count", at };
    }
    const servers = new PackedServers(this.#blockChars);
    for (const server of report.servers) {
      const earlier = this.#seen.get(server.name);
      if (earlier !== undefined) {
        return { kind: "overlap", server: server.name, first: earlier, second: at };
      }
      this.#seen.set(server.name, at);
      if (server.checked) {
        const facts = factsOf(server.report);
        this.#reference ??= facts;
        for (const kind of ["profiles", "clients", "settings"] as const) {
          if (facts[kind] !== this.#reference[kind]) return { kind, at };
        }
        this.#complete &&= server.report.complete;
        this.#passed &&= server.report.passed === true;
        servers.push({ name: server.name, checked: true, report: server.report });
      } else {
        this.#complete = false;
        // Its fields in the report's order, each as read: a reason (and its hint) of a later
        // version is kept.
        const { name, reason, hint, field, variables } = server;
        servers.push({
          name,
          checked: false,
          reason,
          hint,
          ...(field === undefined ? {} : { field }),
          ...(variables === undefined ? {} : { variables }),
        });
      }
    }
    if (report.shard) {
      const earlier = this.#byIndex.get(report.shard.index);
      if (earlier !== undefined) {
        return { kind: "shard-repeated", index: report.shard.index, first: earlier, second: at };
      }
      this.#byIndex.set(report.shard.index, at);
    }
    this.#parts.push({ order: report.shard?.index ?? at, servers });
    return undefined;
  }

  /** The merged report of the reports added (at least one), or the shard that is missing. */
  finish(): MergeResult {
    const result = this.finishPacked();
    return result.ok ? { ok: true, fleet: result.merged.report() } : result;
  }

  /**
   * As {@linkcode finish}, the servers kept packed: the merged report's memory stays that of
   * its compressed servers until it is rendered.
   */
  finishPacked(): MergedResult {
    const first = this.#first!;
    if (first.shard) {
      const count = first.shard.count;
      for (let index = 1; index <= count; index++) {
        if (!this.#byIndex.has(index)) {
          return { ok: false, problem: { kind: "shard-missing", index, count } };
        }
      }
    }
    const parts = [...this.#parts].sort((a, b) => a.order - b.order);
    const head = {
      schema: FLEET_SCHEMA_ID,
      mcpeval_version: first.mcpeval_version,
      config_format: first.config_format,
    } as const;
    const complete = this.#complete;
    const passed = complete ? this.#passed : null;
    function* servers(): Generator<Server> {
      for (const part of parts) yield* part.servers.entries();
    }
    const merged: MergedFleet = {
      head,
      complete,
      passed,
      count: parts.reduce((sum, part) => sum + part.servers.count, 0),
      servers,
      report: () => ({ ...head, servers: [...servers()], complete, passed }),
    };
    return { ok: true, merged };
  }
}

/**
 * Merges `reports` (at least one) into one fleet report with a {@linkcode FleetMerger}: every
 * server of each, shards in shard order and each report's servers in its order, `complete` and
 * `passed` over them all. Refuses reports of different mcpeval versions, config formats,
 * profiles, clients or settings, a server in two reports, and, when the reports are shards, a
 * set that is not exactly shards 1 to N of N.
 *
 * @example
 * ```ts
 * const merged = mergeFleetReports([shard1, shard2]);
 * if (merged.ok) console.log(merged.fleet.servers.length);
 * ```
 */
export function mergeFleetReports(reports: readonly Fleet[]): MergeResult {
  const merger = new FleetMerger();
  for (const report of reports) {
    const problem = merger.add(report);
    if (problem) return { ok: false, problem };
  }
  return merger.finish();
}
