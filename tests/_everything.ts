/** What @modelcontextprotocol/server-everything@2026.8.31 serves, on any transport. */
import assert from "node:assert/strict";
import type { Report } from "./_cli.ts";

const ALWAYS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "simulate-research-query",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
];
const catalog = (...extra: string[]) => [...ALWAYS, ...extra].sort();

/** [profile, complete, instructions_present, tools] per profile. */
export const EVERYTHING_PROFILES: [string, boolean, boolean, string[]][] = [
  ["none", true, true, catalog()],
  ["roots", true, true, catalog("get-roots-list")],
  ["sampling", true, true, catalog("trigger-sampling-request")],
  ["elicitation", true, true, catalog("trigger-elicitation-request")],
  [
    "all",
    true,
    true,
    catalog("get-roots-list", "trigger-elicitation-request", "trigger-sampling-request"),
  ],
];

/** [profile, tool, available_in] per candidate. Backticked non-tools give none. */
export const EVERYTHING_CANDIDATES: [string, string, string[]][] = [
  ["none", "get-roots-list", ["roots", "all"]],
  ["none", "trigger-elicitation-request", ["elicitation", "all"]],
  ["none", "trigger-sampling-request", ["sampling", "all"]],
  ["roots", "trigger-elicitation-request", ["elicitation", "all"]],
  ["roots", "trigger-sampling-request", ["sampling", "all"]],
  ["sampling", "get-roots-list", ["roots", "all"]],
  ["sampling", "trigger-elicitation-request", ["elicitation", "all"]],
  ["elicitation", "get-roots-list", ["roots", "all"]],
  ["elicitation", "trigger-sampling-request", ["sampling", "all"]],
];

/** Asserts a report shows exactly those catalogs and candidates. */
export function assertEverythingCatalogs(report: Report): void {
  assert.deepEqual(
    report.profiles.map((p) => [p.profile, p.complete, p.instructions_present, p.tools]),
    EVERYTHING_PROFILES,
  );
  // Backticked non-tools (GZIP_MAX_FETCH_SIZE, ...) and tools every profile sees give nothing.
  assert.deepEqual(
    report.candidates.map((c) => [c.profile, c.tool, c.available_in]),
    EVERYTHING_CANDIDATES,
  );
}
