/**
 * The fleet report's TypeScript types, spelled out for the public API, generic in the
 * vocabulary of their ids like the guidance report's (`FleetReport<ReportIds>`: a fleet report
 * read). `schema.ts` proves at compile time that its zod schema infers exactly the types of a
 * fleet report read.
 *
 * @module
 */
import type { ConfigFormat } from "../../config_facts.ts";
import type { GuidanceReport, KnownIds, ReportIds } from "../types.ts";

/** A configured server that was checked: its guidance report. */
export interface CheckedServer<V extends ReportIds = KnownIds> {
  /** The entry's key (a valid server label); the same as `report.server`. */
  name: string;
  /** Always true here. */
  checked: true;
  /** The server's `mcpeval.guidance-report/v1` report. */
  report: GuidanceReport<V>;
}

/** A configured server that was listed but not checked, and why. */
export interface NotCheckedServer<V extends ReportIds = KnownIds> {
  /**
   * The entry's key when it is a server label, else a label derived from it; `entry-N` (N its
   * position in the file) for an entry whose key a later one repeats.
   */
  name: string;
  /** Always false here. */
  checked: false;
  /** Why it was not checked. */
  reason: V["notChecked"];
  /** The fixed hint of `reason` (`NOT_CHECKED_HINTS`). */
  hint: V["notCheckedHint"];
  /** With `invalid-entry`: the config field that breaks a rule. */
  field?: V["configField"];
  /** With `unset-variable`: the environment variables the entry needs that are unset (names). */
  variables?: string[];
}

/** One configured server in a fleet report. */
export type FleetServer<V extends ReportIds = KnownIds> = CheckedServer<V> | NotCheckedServer<V>;

/** The identifier of the fleet report's format. */
export const FLEET_SCHEMA_ID = "mcpeval.guidance-fleet/v1";

/**
 * With `--shard I/N` only: the shard of the config this run checked (the selected servers whose
 * label's FNV-1a 32-bit hash, modulo `count`, is `index - 1`).
 */
export interface FleetShardReport {
  /** Which shard, 1 to `count`. */
  index: number;
  /** How many shards the config was split into, 1 to 256. */
  count: number;
}

/** The `mcpeval.guidance-fleet/v1` report: every selected server of a config file. */
export interface FleetReport<V extends ReportIds = KnownIds> {
  /** The report format's identifier. */
  schema: "mcpeval.guidance-fleet/v1";
  /** The version of mcpeval that wrote the report. */
  mcpeval_version: string;
  /** The config format, by the key that holds its servers. */
  config_format: ConfigFormat;
  /** With `--shard I/N` only: which shard of the selected servers this report covers. */
  shard?: FleetShardReport;
  /** The selected servers in file order, checked or not. */
  servers: FleetServer<V>[];
  /** Whether every selected server was checked and its discovery completed. */
  complete: boolean;
  /** True with no defect in any server, false with one, null when `complete` is false. */
  passed: boolean | null;
}

/**
 * A fleet report whose servers are read one at a time (each iteration reads them again), as a
 * merge keeps them packed: what a renderer that needs one server at a time takes.
 */
export type FleetStream<V extends ReportIds = KnownIds> = Omit<FleetReport<V>, "servers"> & {
  /** The servers in report order; each iteration reads them again. */
  readonly servers: Iterable<FleetServer<V>>;
};
