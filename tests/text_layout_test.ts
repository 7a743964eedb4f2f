/**
 * The text format's layout, in-process: a fleet's result line and summary rows fit 100 columns,
 * and tool names longer than the tool column (every preset under `--client all`) keep the
 * column where the other rows have it.
 */
import assert from "node:assert/strict";
import { builtinPresets } from "../src/clients/presets.ts";
import { buildReport, type ReportSettings } from "../src/report/build.ts";
import { buildFleetReport } from "../src/report/fleet/build.ts";
import { render } from "../src/report/formats/text.ts";
import type { GuidanceReport } from "../src/report/types.ts";
import type { ProfileLabel } from "../src/profiles.ts";
import type { ProfileOutcome } from "../src/discovery/session.ts";
import { outcome } from "./_outcomes.ts";

const LONG = "a-tool-with-a-rather-long-name-of-fifty-characters";
const LONGEST = "x".repeat(110);

/**
 * A report of every built-in preset: odd profiles list the long names, all name them; with
 * `timedOut`, the first profile ended `timeout` instead.
 */
function clientAllReport(
  server: string,
  requiredTools: readonly string[],
  timedOut = false,
): GuidanceReport {
  const clients = builtinPresets();
  const profiles = [...clients.keys()].map((name) => `client:${name}` as ProfileLabel);
  const settings: ReportSettings = {
    server,
    requiredTools,
    settleMs: 0,
    timeoutMs: 1_000,
    target: { kind: "stdio" },
    protocolVersion: "2025-06-18",
    profiles,
    clients,
  };
  return buildReport(
    settings,
    profiles.map((profile, i): ProfileOutcome =>
      timedOut && i === 0
        ? {
          profile,
          complete: false,
          instructionsPresent: null,
          pages: 0,
          incomplete: { reason: "timeout" },
        }
        : outcome(
          profile,
          i % 2 ? ["alpha", "beta", LONG, LONGEST] : ["alpha", "beta"],
          ["alpha", "beta", LONG, LONGEST],
        )
    ),
  );
}

function widest(text: string): number {
  return Math.max(...text.split("\n").map((line) => line.length));
}

Deno.test("--client all with long tool names: every line fits, the text column is kept", () => {
  const report = clientAllReport("s", [LONG, "req"]);
  for (const width of [100, 80, 60]) {
    const text = [...render({ kind: "server", report }, { color: false, width })].join("");
    assert.ok(widest(text) <= width, `${width}:\n${text}`);
    const lines = text.split("\n");
    // Defects: `req` fits the column; the long name stands alone, its text in the same column.
    const defects = lines.findIndex((line) => line.startsWith("Defects: "));
    const long = lines.indexOf(`  ${LONG}`, defects);
    const short = lines.findIndex((line, i) => i > defects && line.startsWith("  req  "));
    assert.ok(long > defects && short > defects, text);
    assert.equal(lines[long + 1].indexOf("missing from"), 7, text);
    assert.equal(lines[short].indexOf("missing from"), 7, text);
    // Candidates: both names are longer than the column; each is followed by its text.
    const candidates = lines.findIndex((line) => line.startsWith("Review candidates: "));
    const first = lines.indexOf(`  ${LONG}`, candidates);
    assert.ok(first > candidates && first < defects, text);
    assert.match(lines[first + 1], /^ {4}named by client:/);
  }
});

Deno.test("a fleet's result line and summary rows fit 100 columns", () => {
  const failed = clientAllReport("failing-server-with-a-long-name", [LONG, "req"]);
  const passed = clientAllReport("passing-server", []);
  const incomplete = clientAllReport("incomplete-server", [], true);
  const fleet = buildFleetReport("mcpServers", [
    { name: "failing-server-with-a-long-name", report: failed },
    { name: "passing-server", report: passed },
    { name: "unset", reason: "unset-variable", variables: ["A_RATHER_LONG_TOKEN", "ANOTHER_ONE"] },
    { name: "invalid", reason: "invalid-entry", field: "url" },
    { name: "incomplete-server", report: incomplete },
    {
      name: "s".repeat(64),
      reason: "unset-variable",
      variables: ["GITHUB_PERSONAL_ACCESS_TOKEN", "GITHUB_ENTERPRISE_HOST"],
    },
  ]);
  const text = [...render({ kind: "fleet", fleet }, { color: false })].join("");
  assert.ok(widest(text) <= 100, text.split("\n").filter((line) => line.length > 100).join("\n"));
  // The result wraps under itself, as a single report's does.
  const result = text.slice(text.lastIndexOf("\nResult: ") + 1).trimEnd().split("\n");
  assert.ok(result.length >= 2, text);
  assert.ok(result.slice(1).every((line) => line.startsWith("  ")));
  assert.match(
    result.join(" "),
    /^Result: incomplete: 3 not checked and 1 incomplete of 6 servers;/,
  );
  // Each summary row starts with its server, in the table's columns.
  const summary = text.split("\n").filter((line) =>
    /^ {2}(server|failing|passing|unset)/.test(line)
  );
  assert.equal(summary.length, 4, text);
  const column = summary[0].indexOf("transport");
  assert.equal(summary[2].indexOf("stdio"), column, text);
});
