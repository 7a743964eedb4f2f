/**
 * What the schemas no longer check since their ids are patterns (SPEC 10): a report this version
 * writes holds only the ids it knows, each hint the one of its id. Every JSON report the CLI
 * prints in the tests is checked (`_cli.ts`); the reports of a later version are the schemas'.
 */
import assert from "node:assert/strict";
import { BASELINE_STATES, NOT_COMPARED_REASONS } from "../src/analysis/baseline.ts";
import { FILTERED_REQUIRED_HINT, RULES } from "../src/analysis/rules.ts";
import { TOOL_FILTER_RULE_IDS } from "../src/analysis/tool_filters.ts";
import { RULE_KIND_IDS } from "../src/clients/rules/registry.ts";
import { REFERENCE_READINGS } from "../src/analysis/findings.ts";
import { DEFERRAL_KINDS } from "../src/clients/presets.ts";
import { WHOLE_SERVER_EFFECTS } from "../src/clients/rules/kind.ts";
import { CONFIG_FIELDS, NOT_CHECKED_HINTS } from "../src/config_facts.ts";
import { CLIENT_PROFILE, isProfile, OBSERVED_PROFILE } from "../src/profiles.ts";
import { OBSERVED_RULE } from "../src/analysis/observed.ts";
import { DETAIL_PHRASES, INCOMPLETE_HINTS, SIGNALS } from "../src/protocol/incomplete.ts";
import { FLEET_SCHEMA_ID } from "../src/report/fleet/types.ts";
import { TRANSPORTS } from "../src/target.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const has = (table: object, id: unknown) => typeof id === "string" && Object.hasOwn(table, id);
const among = (values: readonly string[], id: unknown) =>
  typeof id === "string" && values.includes(id);
const label = (value: unknown) =>
  typeof value === "string" &&
  (isProfile(value) || CLIENT_PROFILE.test(value) || OBSERVED_PROFILE.test(value));

/** Fails unless the finding's ids are this version's, and its hint its kind's. */
function assertFinding(finding: Json, at: string): void {
  assert.ok(has(RULES, finding.kind), `${at}: kind ${finding.kind}`);
  const filtered = finding.kind === "required-tool-unavailable" && finding.rule !== undefined;
  assert.equal(
    finding.hint,
    filtered ? FILTERED_REQUIRED_HINT : RULES[finding.kind as keyof typeof RULES].hint,
    `${at}: hint`,
  );
  assert.ok(label(finding.profile), `${at}: profile ${finding.profile}`);
  assert.ok(finding.available_in.every(label), `${at}: available_in`);
  const rules =
    finding.kind === "tool-disabled-in-config" || finding.kind === "required-tool-unavailable"
      ? TOOL_FILTER_RULE_IDS
      : finding.kind === "tool-unreachable-in-client"
      ? [...RULE_KIND_IDS, OBSERVED_RULE]
      : RULE_KIND_IDS;
  if (finding.observed_profile !== undefined || finding.kind === "preset-disagrees-with-client") {
    assert.ok(OBSERVED_PROFILE.test(finding.observed_profile), `${at}: observed_profile`);
  }
  if (finding.rule !== undefined) assert.ok(among(rules, finding.rule), `${at}: rule`);
  if (finding.effect !== undefined) {
    assert.ok(among([...WHOLE_SERVER_EFFECTS], finding.effect), `${at}: effect`);
  }
  if (finding.baseline_state !== undefined) {
    assert.ok(among(BASELINE_STATES, finding.baseline_state), `${at}: baseline_state`);
  }
}

/** Fails unless a guidance report holds only ids this version writes. */
function assertReport(report: Json, at: string): void {
  assert.ok(among(TRANSPORTS, report.transport), `${at}transport`);
  for (const [i, profile] of report.profiles.entries()) {
    const where = `${at}profiles.${i}`;
    assert.ok(label(profile.profile), `${where}: profile ${profile.profile}`);
    const client = profile.client;
    if (client?.references !== undefined) {
      assert.ok(among(REFERENCE_READINGS, client.references), `${where}: references`);
    }
    if (client?.deferral !== undefined) {
      assert.ok(among(DEFERRAL_KINDS, client.deferral), `${where}: deferral`);
    }
    const incomplete = profile.incomplete;
    if (incomplete === null) continue;
    assert.ok(has(INCOMPLETE_HINTS, incomplete.reason), `${where}: reason ${incomplete.reason}`);
    assert.equal(
      incomplete.hint,
      INCOMPLETE_HINTS[incomplete.reason as keyof typeof INCOMPLETE_HINTS],
    );
    if (incomplete.detail) {
      assert.ok(has(DETAIL_PHRASES, incomplete.detail.cause), `${where}: cause`);
      if (incomplete.detail.signal !== undefined) {
        assert.ok(among(SIGNALS, incomplete.detail.signal), `${where}: signal`);
      }
    }
  }
  for (const field of ["candidates", "defects"]) {
    for (const [i, finding] of report[field].entries()) {
      assertFinding(finding, `${at}${field}.${i}`);
    }
  }
  const baseline = report.baseline;
  if (baseline === undefined) return;
  for (const [i, finding] of baseline.resolved.entries()) {
    assertFinding(finding, `${at}baseline.resolved.${i}`);
  }
  for (const drift of baseline.profiles) {
    assert.ok(label(drift.profile), `${at}baseline.profiles: ${drift.profile}`);
    if (!drift.compared) assert.ok(among(NOT_COMPARED_REASONS, drift.reason));
  }
  // `profiles_differ.not_run` names the baseline's labels, a later version's included.
}

/** Fails unless a guidance or fleet report holds only ids this version writes. */
export function assertKnownIds(json: Json): void {
  if (json?.schema !== FLEET_SCHEMA_ID) return assertReport(json, "");
  for (const [i, server] of json.servers.entries()) {
    if (server.checked) {
      assertReport(server.report, `servers.${i}.report.`);
      continue;
    }
    assert.ok(has(NOT_CHECKED_HINTS, server.reason), `servers.${i}: reason ${server.reason}`);
    assert.equal(server.hint, NOT_CHECKED_HINTS[server.reason as keyof typeof NOT_CHECKED_HINTS]);
    if (server.field !== undefined) assert.ok(among(CONFIG_FIELDS, server.field));
  }
}
