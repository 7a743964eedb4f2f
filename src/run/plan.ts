/**
 * A run, planned: the servers to check (each with its validated request and baseline
 * comparison) and those listed but not checked, in the order they are reported;
 * `planRun` (`run.ts`) plans a validated run request into it.
 *
 * @module
 */
import type { ToolFilter } from "../analysis/tool_filters.ts";
import type { ComparisonRequest } from "../baseline/comparison.ts";
import type { ConfigField, ConfigFormat, NotCheckedReason } from "../config_facts.ts";
import type { Shard } from "../request/shard.ts";
import type { RunSettings, ServerRequest } from "../request/request.ts";
import type { ResolvedClient } from "../lab/observe_install.ts";

/** One server of a run: checked with its request, or listed with why it is not checked. */
export type PlannedServer =
  | (
    & {
      readonly name: string;
      readonly request: ServerRequest;
      /** The config file's own tool filter for this server. */
      readonly toolFilter?: ToolFilter;
    }
    & Partial<ComparisonRequest>
  )
  | {
    readonly name: string;
    readonly notChecked: { readonly reason: NotCheckedReason; readonly field?: ConfigField };
  };

/** A run of one server (`fleet` absent) or a fleet: a config file's selected servers. */
export interface RunPlan {
  /**
   * For a fleet: the config file's format, and the shard of its servers this run checks
   * (`--shard`).
   */
  readonly fleet?: {
    readonly format: ConfigFormat;
    readonly shard?: Shard;
  };
  /** The settings every server of the run shares, as validated once. */
  readonly settings: RunSettings;
  /** The servers, in report order (a fleet: file order). */
  readonly servers: readonly PlannedServer[];
  /** How many server connections are live at once across the run. */
  readonly jobs: number;
  /**
   * The values of the environment variables and inputs a config file's entries read (their
   * `${VAR}`s), which reach its servers: never shown.
   */
  readonly resolved?: readonly string[];
  /** The real clients the run observes (`--observe`), each once for all its servers. */
  readonly observe?: readonly ResolvedClient[];
}

/** What planning one kind of run finds: its servers (the run's settings and bound are the request's). */
export type ServersPlan = Omit<RunPlan, "settings" | "jobs">;

/**
 * Every value the run passes to its servers beside their commands: the config's resolved
 * variables, the stdio servers' env values (env files included) and the HTTP header values. A
 * server's words are shown only with each of them masked.
 */
export function passedValues(plan: RunPlan): string[] {
  return [
    ...plan.resolved ?? [],
    ...plan.servers.flatMap((server) => {
      if (!("request" in server)) return [];
      const { target } = server.request;
      return target.kind === "stdio"
        ? Object.values(target.env ?? {})
        : target.headers.map(([, value]) => value);
    }),
  ];
}
