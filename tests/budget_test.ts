/**
 * The cross-server tool budget, in-process: what one server shows each client profile's model
 * (`toolsSent`, from the analysis's own values, not from a report's candidates) and how the
 * budget adds it up in config order.
 */
import assert from "node:assert/strict";
import { ToolBudget, toolsSent } from "../src/analysis/budget.ts";
import type { HiddenTool } from "../src/analysis/reachability.ts";
import { builtinPresets } from "../src/clients/presets.ts";
import type { ProfileOutcome } from "../src/discovery/session.ts";
import { buildServerReport } from "../src/report/build.ts";

const dropped: HiddenTool = { rule: "name-characters", effect: "drop-tool", reported: true };

Deno.test("toolsSent: the tools neither filtered by the config nor hidden by the client", () => {
  const tools = ["a", "b", "c", "d"];
  assert.deepEqual(toolsSent("client:x", tools, undefined, new Map()), {
    profile: "client:x",
    visible: 4,
  });
  const filtered = new Map([["a", "disabled"]]);
  const hidden = new Map([["b", dropped]]);
  assert.equal(toolsSent("client:x", tools, filtered, hidden).visible, 2);
  // A tool both filtered and hidden is counted out once.
  assert.equal(toolsSent("client:x", tools, filtered, new Map([["a", dropped]])).visible, 3);
  // A hidden key that names no listed tool (a name that is not a valid identifier) counts nothing.
  assert.equal(toolsSent("client:x", tools, undefined, new Map([["#3", dropped]])).visible, 4);
});

Deno.test("toolsSent: a whole-server effect sends none of the server's tools", () => {
  const hidden = new Map<string, HiddenTool>([
    ["a", { rule: "max-tools", effect: "refuse-server", reported: true }],
    ["b", { rule: "max-tools", effect: "refuse-server", reported: false }],
  ]);
  assert.equal(toolsSent("client:x", ["a", "b", "c"], undefined, hidden).visible, 0);
});

Deno.test("ToolBudget: each profile's tools add up server by server", () => {
  const budget = new ToolBudget();
  assert.deepEqual([...budget.before()], []);
  budget.add([toolsSent("client:x", ["a", "b"], undefined, new Map())]);
  budget.add([
    toolsSent("client:x", ["c"], undefined, new Map()),
    toolsSent("client:y", ["d"], undefined, new Map()),
  ]);
  assert.deepEqual([...budget.before()], [["client:x", 3], ["client:y", 1]]);
});

Deno.test("a client's rules judge only the tools the config file's filter leaves", () => {
  const cursor = builtinPresets().get("cursor")!;
  const cap = {
    id: "max-tools",
    value: 1,
    effect: "truncate",
    source: "https://example.com/cap",
    verified_at: "2026-12-02",
  } as const;
  const clients = new Map([["capped", { ...cursor, rules: [cap] }]]);
  const tools = ["a", "b"];
  const outcome: ProfileOutcome = {
    profile: "client:capped",
    complete: true,
    instructionsPresent: false,
    codeSpans: new Set(),
    tools,
    listed: tools,
    appOnly: new Set(),
    facts: tools.map((name) => ({ name, appOnly: false, facts: {} })),
    pages: 1,
  };
  const settings = {
    server: "s",
    requiredTools: [],
    settleMs: 0,
    timeoutMs: 1_000,
    target: { kind: "stdio" },
    protocolVersion: "2025-06-18",
    profiles: ["client:capped"],
    clients,
  } as const;
  // Unfiltered, the cap of one hides the second tool.
  const capped = buildServerReport(settings, [outcome]);
  assert.deepEqual(capped.report.candidates.map((c) => [c.kind, c.tool]), [
    ["tool-unreachable-in-client", "b"],
  ]);
  // The file disables `a`: one tool is left, under the cap, and `b` reaches the model.
  const filter = [{ rule: "disabled-tools", effect: "deny", names: ["a"] }] as const;
  const left = buildServerReport({ ...settings, toolFilter: filter }, [outcome]);
  assert.deepEqual(left.report.candidates.map((c) => [c.kind, c.tool]), []);
  assert.deepEqual(left.sent, [{ profile: "client:capped", visible: 1 }]);
});
