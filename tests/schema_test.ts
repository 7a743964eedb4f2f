/** The printed JSON Schema is the zod schema's, exactly. */
import assert from "node:assert/strict";
import printedFleet from "../src/report/guidance-fleet.schema.json" with { type: "json" };
import printed from "../src/report/guidance-report.schema.json" with { type: "json" };
import { fleetJsonSchema } from "../src/report/fleet/schema.ts";
import { reportJsonSchema } from "../src/report/schema.ts";
import { mcpeval } from "./_cli.ts";

Deno.test("the committed JSON Schema equals the one generated from zod (deno task schema)", () => {
  assert.deepEqual(printed, reportJsonSchema());
});

Deno.test("mcpeval schema guidance prints it", async () => {
  const result = await mcpeval(["schema", "guidance"]);
  assert.equal(result.code, 0);
  assert.equal(result.stderr, "");
  assert.deepEqual(JSON.parse(result.stdout), reportJsonSchema());
});

Deno.test("the committed fleet JSON Schema equals the one generated from zod", () => {
  assert.deepEqual(printedFleet, fleetJsonSchema());
});

Deno.test("mcpeval schema guidance-fleet prints it", async () => {
  const result = await mcpeval(["schema", "guidance-fleet"]);
  assert.equal(result.code, 0);
  assert.equal(result.stderr, "");
  assert.deepEqual(JSON.parse(result.stdout), fleetJsonSchema());
});
