/**
 * The one shape of a run's settings, as the request's validator gives them: {@linkcode RunSettings}
 * once for every server of a run, and {@linkcode ServerRequest} for each server. The layers below
 * the request (discovery, sessions, the report) take the settings as they are, never a shape of
 * their own.
 *
 * @module
 */
import type { ClientPreset } from "../clients/presets.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { ProtocolSetting } from "../protocol/versions.ts";
import type { Target } from "../target.ts";

/** The settings every server of a run shares, validated once for the run. */
export interface RunSettings {
  /** Selected profiles: the five in canonical order, then client presets as given. */
  readonly profiles: readonly ProfileLabel[];
  /** The presets of the selected client profiles, by name. */
  readonly clients: ReadonlyMap<string, ClientPreset>;
  /** Whether backticked identifiers no catalog lists are reported. */
  readonly unknownReferences: boolean;
  /** Milliseconds to wait after `notifications/initialized` before the first `tools/list`. */
  readonly settleMs: number;
  /** The longest wait for the answer to one client request, in milliseconds. */
  readonly timeoutMs: number;
  /** How many profiles of one server run at once. */
  readonly concurrency: number;
  /** The protocol revision to speak, or `auto` (negotiated). */
  readonly protocolVersion: ProtocolSetting;
  /** Present when `protocolVersion` was given as one revision: presets then speak it too. */
  readonly presetsStrict?: true;
  /**
   * The real clients to observe (`--observe`), each once for the whole run; their profiles
   * (`observed:NAME@VERSION`) are added to each server's once the versions are known.
   */
  readonly observe?: readonly ObserveRequest[];
}

/**
 * One `--observe NAME[@VERSION]`: the client, and its version, `latest`, or (absent) the newest
 * observed one.
 */
export interface ObserveRequest {
  /** The lab's name for the client (`claude-code`). */
  readonly client: string;
  /** Its version (`2.1.332`), or `latest`; absent: the newest version the lab observed. */
  readonly version?: string;
}

/** One server of a run, validated: its label, where it is, its required tools. */
export interface ServerRequest {
  /** The report's server label. */
  readonly server: string;
  /** Required tools, sorted, without duplicates. */
  readonly requiredTools: readonly string[];
  /** Where the server is. */
  readonly target: Target;
}
