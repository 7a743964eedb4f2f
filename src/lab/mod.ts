/**
 * The client lab as a library (`@mcpeval/guidance/lab`): run a real client from the npm
 * registry, headless, against the lab's probe servers and a stand-in for its model API, and
 * read what reached the model as an observation; derive the preset that reproduces an
 * observation, and check it. `mcpeval lab` is this module's command line.
 *
 * @example
 * ```ts
 * import { DRIVERS, reproduces, runClient } from "jsr:@mcpeval/guidance/lab";
 *
 * const claude = DRIVERS.find((driver) => driver.id === "claude-code")!;
 * const observation = await runClient(claude, {
 *   version: "2.1.332",
 *   installTimeoutMs: 300_000,
 *   runTimeoutMs: 180_000,
 *   date: new Date().toISOString().slice(0, 10),
 * });
 * // The preset derived from it, and where it does not reproduce the observation (none: it does).
 * const preset = await reproduces(observation);
 * ```
 *
 * Linux only; needs npm, node, `setsid`, and every Deno permission (`--allow-all`).
 *
 * @module
 */
export { DRIVERS, UNAVAILABLE } from "./clients/mod.ts";
export type {
  Driver,
  Invocation,
  ModelApi,
  RunContext,
  ServerSpec,
  Unavailable,
} from "./driver.ts";
export {
  differences,
  type Observation,
  type ObservedDeferral,
  type ObservedInstructions,
  type ObservedRevision,
  type ObservedServer,
  type ObservedStrict,
  type ObservedTool,
  parseObservation,
  readObservation,
  type StrictReaction,
  WARNING_CLASSES,
  type WarningClass,
} from "./observation.ts";
export { packageObservedDir } from "./committed.ts";
export {
  type Decision,
  knownProbeSetIds,
  type ProbeServer,
  probeSetId,
  type ProbeTool,
} from "./probe_catalog.ts";
export {
  commonEnv,
  endScopes,
  install,
  LabError,
  publishedVersions,
  runClient,
  type RunOptions,
} from "./run.ts";
export { type ScopeKind, scopeKind } from "./scope.ts";
export type { Refuse } from "./stand_in.ts";

export {
  type Derivation,
  derivePreset,
  OBSERVATION_SCHEMA,
  presetFileOf,
  PRESETS_SCHEMA,
} from "./derive.ts";
export { observationsIn, reproduces, writeDerivedPresets } from "./presets_file.ts";
