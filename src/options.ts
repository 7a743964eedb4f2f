/**
 * The validated options of one guidance run.
 *
 * @module
 */
import type { Profile } from "./profiles.ts";
import type { ServerStderr } from "./transport/stdio.ts";

/** Report formats. */
export const FORMATS = ["text", "json", "github", "junit", "sarif"] as const;
/** A report format. */
export type Format = typeof FORMATS[number];

/** A server started as a subprocess and spoken to over stdio. */
export interface StdioTargetOptions {
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly stderr: ServerStderr;
}

/** A Streamable HTTP endpoint. */
export interface HttpTargetOptions {
  readonly kind: "streamable-http";
  readonly url: URL;
  /** Extra request headers: name and value (the value came from the environment). */
  readonly headers: readonly (readonly [string, string])[];
}

/** Where the server is. */
export type TargetOptions = StdioTargetOptions | HttpTargetOptions;

/** A report written to a file, besides the one on stdout. */
export interface ReportFile {
  readonly format: Format;
  readonly path: string;
}

/** Everything a guidance run needs, already validated. */
export interface GuidanceOptions {
  /** The server label for the report. */
  readonly server: string;
  readonly format: Format;
  /** Selected profiles in canonical order. */
  readonly profiles: readonly Profile[];
  /** Required tools, sorted, without duplicates. */
  readonly requiredTools: readonly string[];
  readonly settleMs: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly target: TargetOptions;
  /** `--output FORMAT=PATH`: reports written to files. */
  readonly outputs: readonly ReportFile[];
  /**
   * With `--format github`: the file named by GITHUB_STEP_SUMMARY, to which a Markdown summary
   * is appended (when the variable is set and readable).
   */
  readonly stepSummary?: string;
}
