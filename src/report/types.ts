/**
 * The report's TypeScript types, spelled out for the public API. `schema.ts` proves at compile
 * time that its zod schema infers exactly these types, so the two cannot drift.
 *
 * @module
 */
import type { RULES } from "../analysis/rules.ts";
import type { INCOMPLETE_HINTS, IncompleteReason } from "../protocol/incomplete.ts";
import type { Profile } from "../profiles.ts";

/** Why a profile is incomplete, with its fixed hint. */
export interface IncompleteReport {
  reason: IncompleteReason;
  hint: typeof INCOMPLETE_HINTS[IncompleteReason];
  /** The HTTP status behind an `http-status` reason. */
  http_status?: number;
}

/** A profile whose discovery completed. */
export interface CompleteProfileReport {
  profile: Profile;
  complete: true;
  instructions_present: boolean;
  tool_count: number;
  /** Its catalog, sorted. */
  tools: string[];
  pages: number;
  incomplete: null;
}

/** A profile whose discovery did not complete. */
export interface IncompleteProfileReport {
  profile: Profile;
  complete: false;
  instructions_present: boolean | null;
  tool_count: null;
  tools: null;
  pages: number;
  incomplete: IncompleteReport;
}

/** One profile's entry in a guidance report. */
export type ProfileReport = CompleteProfileReport | IncompleteProfileReport;

/** A tool referenced by a profile's instructions that its catalog does not list. */
export interface CandidateReport {
  kind: "referenced-tool-unavailable";
  profile: Profile;
  tool: string;
  available_in: Profile[];
  hint: typeof RULES["referenced-tool-unavailable"]["hint"];
}

/** A required tool missing from a profile's catalog. */
export interface DefectReport {
  kind: "required-tool-unavailable";
  profile: Profile;
  tool: string;
  available_in: Profile[];
  hint: typeof RULES["required-tool-unavailable"]["hint"];
}

/** The `mcpeval.guidance-report/v1` report. */
export interface GuidanceReport {
  schema: "mcpeval.guidance-report/v1";
  mcpeval_version: string;
  server: string;
  transport: "stdio" | "streamable-http";
  protocol_version: "2025-06-18";
  reference_detection: "inline-code-known-tools";
  settings: {
    settle_ms: number;
    timeout_ms: number;
    max_pages: 20;
    max_tools: 10000;
    max_roots_requests_per_client_request: 8;
    max_message_bytes: 67108864;
  };
  required_tools: string[];
  profiles: ProfileReport[];
  candidates: CandidateReport[];
  defects: DefectReport[];
  complete: boolean;
  passed: boolean | null;
}
