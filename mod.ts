/**
 * mcpeval guidance as a library: discover a server's catalogs under the client capability
 * profiles and compare them with its instructions.
 *
 * @example
 * ```ts
 * import { runGuidance } from "jsr:@mcpeval/guidance/lib";
 *
 * const report = await runGuidance({
 *   server: "example",
 *   target: { kind: "stdio", command: "your-mcp-server", args: [], stderr: "discard" },
 * });
 * console.log(report.passed);
 * ```
 *
 * @module
 */
import { discoverAll } from "./src/discovery/discover.ts";
import { CONCURRENCY, SETTLE_MS, TIMEOUT_MS } from "./src/limits.ts";
import type { GuidanceOptions, TargetOptions } from "./src/options.ts";
import { canonicalProfiles, type Profile, PROFILES } from "./src/profiles.ts";
import { buildReport } from "./src/report/build.ts";
import type { GuidanceReport } from "./src/report/schema.ts";

export type { GuidanceOptions, TargetOptions } from "./src/options.ts";
export type { Profile } from "./src/profiles.ts";
export { PROFILES } from "./src/profiles.ts";
export {
  type CandidateReport,
  type DefectReport,
  type GuidanceReport,
  GuidanceReportSchema,
  type ProfileReport,
  reportJsonSchema,
} from "./src/report/schema.ts";
export { renderGithub, renderGithubSummary } from "./src/report/github.ts";
export { renderJson } from "./src/report/json.ts";
export { renderJunit } from "./src/report/junit.ts";
export { renderSarif } from "./src/report/sarif.ts";
export { renderText, type TextStyle } from "./src/report/text.ts";

/** What {@linkcode runGuidance} needs; everything but `server` and `target` has a default. */
export interface RunGuidanceOptions {
  readonly server: string;
  readonly target: TargetOptions;
  readonly profiles?: readonly Profile[];
  readonly requiredTools?: readonly string[];
  readonly settleMs?: number;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
}

/**
 * Runs discovery for the selected profiles and returns the validated report. The options are
 * taken as given (the CLI validates its own); a target that cannot be started throws.
 */
export async function runGuidance(options: RunGuidanceOptions): Promise<GuidanceReport> {
  const resolved: GuidanceOptions = {
    server: options.server,
    format: "json",
    profiles: canonicalProfiles(options.profiles ?? PROFILES),
    requiredTools: [...new Set(options.requiredTools ?? [])].sort(),
    settleMs: options.settleMs ?? SETTLE_MS.default,
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS.default,
    concurrency: options.concurrency ?? CONCURRENCY.default,
    target: options.target,
    outputs: [],
  };
  return buildReport(resolved, await discoverAll(resolved, options.signal));
}
