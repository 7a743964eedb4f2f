/**
 * SARIF checks for the tests: validity against the OASIS SARIF 2.1.0 JSON Schema (draft-04), and
 * what GitHub code scanning requires of an uploaded SARIF file: GitHub's "SARIF
 * support for code scanning" (docs.github.com/en/code-security/code-scanning/
 * integrating-with-code-scanning/sarif-support-for-code-scanning) and the GitHub ingestion rules
 * of Microsoft's SARIF multitool (sarif-sdk, rules GH1001 to GH1007 and GHAS2012).
 */
import sarifSchema from "@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json" with {
  type: "json",
};
import AjvDraft04 from "ajv-draft-04";
import assert from "node:assert/strict";

/** A compiled validator: whether a value is valid; on false, `errors` says why. */
export type Validator = ((value: unknown) => boolean) & { errors?: unknown };

// deno-lint-ignore no-explicit-any
const Ajv = AjvDraft04 as any;

/** Whether `log` is valid SARIF 2.1.0; on false, `validateSarif.errors` says why. */
export const validateSarif: Validator = new Ajv({
  strict: false,
  validateFormats: false,
  unicodeRegExp: false, // the schema has a pattern that is invalid with the u flag
}).compile(sarifSchema);

// deno-lint-ignore no-explicit-any
type Json = any;

/** Fails unless `log` is valid SARIF 2.1.0, naming the schema errors. */
export function assertValidSarif(log: unknown): void {
  assert.ok(validateSarif(log), JSON.stringify(validateSarif.errors));
}

/** Fails unless `log` is valid SARIF 2.1.0 that GitHub code scanning accepts. */
export function assertGithubSarif(log: unknown): void {
  assertValidSarif(log);
  assert.deepEqual(githubSarifProblems(log), []);
}

/** GitHub's documented upload limits. */
const LIMITS = { runs: 20, results: 25_000, rules: 25_000, locations: 1_000, tags: 20 };

/** Every way `log` breaks GitHub's upload requirements; empty when it meets them. */
export function githubSarifProblems(log: Json): string[] {
  const problems: string[] = [];
  const problem = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (log.version !== "2.1.0") problem("version", "code scanning accepts only SARIF 2.1.0");
  if (!Array.isArray(log.runs)) return [...problems, "runs: required"];
  if (log.runs.length > LIMITS.runs) problem("runs", `more than ${LIMITS.runs}`);
  log.runs.forEach((run: Json, r: number) => {
    const at = `runs[${r}]`;
    const driver = run.tool?.driver;
    if (typeof driver?.name !== "string" || driver.name === "") {
      problem(`${at}.tool.driver.name`, "required");
    }
    const rules: Json[] = driver?.rules ?? [];
    if (rules.length > LIMITS.rules) problem(`${at}.tool.driver.rules`, "too many");
    rules.forEach((rule: Json, i: number) => {
      const ruleAt = `${at}.tool.driver.rules[${i}]`;
      if (typeof rule.id !== "string" || rule.id === "") problem(ruleAt, "id is required");
      // GHAS2012: shortDescription, fullDescription and help.text.
      for (const field of ["shortDescription", "fullDescription", "help"]) {
        if (typeof rule[field]?.text !== "string" || rule[field].text.trim() === "") {
          problem(`${ruleAt}.${field}.text`, "required");
        }
      }
      if ((rule.properties?.tags ?? []).length > LIMITS.tags) problem(ruleAt, "too many tags");
    });
    const category = run.automationDetails?.id;
    if (category !== undefined && (typeof category !== "string" || category === "")) {
      problem(`${at}.automationDetails.id`, "must be a non-empty string");
    }
    const results: Json[] = run.results ?? [];
    if (results.length > LIMITS.results) problem(`${at}.results`, "too many");
    results.forEach((result: Json, i: number) => {
      const resultAt = `${at}.results[${i}]`;
      if (typeof result.ruleId !== "string" || !rules.some((rule) => rule.id === result.ruleId)) {
        problem(`${resultAt}.ruleId`, "must name a rule of the driver");
      }
      // GH1007: a message with text, not only an id and arguments.
      if (typeof result.message?.text !== "string" || result.message.text === "") {
        problem(`${resultAt}.message.text`, "required");
      }
      // GH1001: "locationFromSarifResult: expected at least one location" otherwise.
      const locations: Json[] = result.locations ?? [];
      if (locations.length === 0) problem(`${resultAt}.locations`, "at least one is required");
      if (locations.length > LIMITS.locations) problem(`${resultAt}.locations`, "too many");
      locations.forEach((location: Json, l: number) => {
        const where = `${resultAt}.locations[${l}].physicalLocation`;
        const uri = location.physicalLocation?.artifactLocation?.uri;
        if (typeof uri !== "string" || uri === "") {
          problem(`${where}.artifactLocation.uri`, "required");
          return;
        }
        // GH1005/GH1006: a path relative to the repository root (or a file: URI).
        if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) && !uri.startsWith("file:")) {
          problem(`${where}.artifactLocation.uri`, "must be a relative path");
        }
        if (uri.startsWith("/") || /(^|\/)\.\.(\/|$)/.test(uri) || /[\s\\]/.test(uri)) {
          problem(`${where}.artifactLocation.uri`, "must be a relative URI reference");
        }
        // GH1003: region.startLine.
        const line = location.physicalLocation?.region?.startLine;
        if (!Number.isInteger(line) || line < 1) problem(`${where}.region.startLine`, "required");
      });
      const fingerprints = result.partialFingerprints;
      if (fingerprints !== undefined) {
        for (const [key, value] of Object.entries(fingerprints)) {
          if (typeof value !== "string") {
            problem(`${resultAt}.partialFingerprints.${key}`, "string");
          }
        }
      }
    });
  });
  return problems;
}
