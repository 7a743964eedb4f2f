/**
 * The cross-server tool budget, in-process: what one server shows each client profile's model
 * (`toolsSent`, from the analysis's own values, not from a report's candidates) and how the
 * budget adds it up in config order.
 */
import assert from "node:assert/strict";
import { ToolBudget, toolsSent } from "../src/analysis/budget.ts";
import type { HiddenTool } from "../src/analysis/reachability.ts";

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
