/**
 * A `--config` run as validated from the command line: which file, which of its servers, and
 * the settings every server shares.
 *
 * @module
 */
import type { BaselineFile, GuidanceInput, OutputRequest } from "../request.ts";
import type { ServerStderr } from "../target.ts";

/** A validated `mcpeval guidance --config FILE` run. */
export interface ConfigRequest {
  /** The config file, as given. */
  readonly configPath: string;
  /** `--config-project PATH`: the project of a Claude Code user file whose servers are checked too. */
  readonly project?: string;
  /** The entries selected with `--server` (keys or labels), or undefined for every entry. */
  readonly servers: readonly string[] | undefined;
  /**
   * The settings every server shares, as given (already validated once; `validateDiscovery`
   * checks them again with each entry). Required tools are in `requirements`.
   */
  readonly settings: Omit<
    GuidanceInput,
    "server" | "target" | "requiredTools" | "baseline" | "requireBaselineTools"
  >;
  /** `--require-tool SERVER:TOOL`, by server, sorted. */
  readonly requirements: ReadonlyMap<string, readonly string[]>;
  /** `--input ID=ENV_VAR`: the variable that answers each VS Code input. */
  readonly inputs: ReadonlyMap<string, string>;
  /** `--allow-remote-http`. */
  readonly allowRemoteHttp: boolean;
  /** `--server-stderr`, for every stdio server. */
  readonly stderr: ServerStderr;
  /** `--jobs`: server connections live at once across the run. */
  readonly jobs: number;
  /** Where the reports go. */
  readonly output: OutputRequest;
  /** `--baseline`: an earlier guidance or fleet report; each server is compared with its entry. */
  readonly baseline?: BaselineFile;
}
