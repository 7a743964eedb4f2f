/** The library entry (`jsr:@mcpeval/guidance/lib`): runGuidance returns the validated report. */
import assert from "node:assert/strict";
import { GuidanceReportSchema, renderText, runGuidance } from "../mod.ts";
import { fixture } from "./_cli.ts";

Deno.test("runGuidance on the demo server", async () => {
  const [command, ...args] = fixture("demo_server.ts");
  const report = await runGuidance({
    server: "demo",
    target: { kind: "stdio", command, args, stderr: "discard" },
    profiles: ["none", "elicitation"],
    requiredTools: ["delete-note"],
    settleMs: 100,
  });
  assert.ok(GuidanceReportSchema.safeParse(report).success);
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool]), [["none", "delete-note"]]);
  assert.equal(report.passed, false);
  assert.match(renderText(report), /Result: failed/);
});
