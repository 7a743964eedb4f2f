/**
 * SPEC section 10: a run that uses none of the new options prints JSON that still validates
 * against the 0.1.0 schema (kept as tests/data/guidance-report-0.1.0.schema.json).
 */
import Ajv2020 from "ajv/dist/2020.js";
import assert from "node:assert/strict";
import schema from "./data/guidance-report-0.1.0.schema.json" with { type: "json" };
import { fixture, guidanceJson, hostile } from "./_cli.ts";

// deno-lint-ignore no-explicit-any
const validate = new (Ajv2020 as any)({ strict: true, allErrors: true }).compile(schema);

for (
  const [name, args] of [
    ["the demo server", ["--settle-ms", "100", "--", ...fixture("demo_server.ts")]],
    ["a defect", ["--require-tool", "ghost", "--settle-ms", "0", "--", ...hostile("default")]],
    ["an incomplete run", ["--settle-ms", "0", "--", ...hostile("list-error")]],
  ] as const
) {
  Deno.test(`0.1.0 schema still validates a default run: ${name}`, async () => {
    const { report } = await guidanceJson(["--server", "compat", ...args]);
    assert.ok(validate(report), JSON.stringify(validate.errors));
  });
}
