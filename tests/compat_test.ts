/**
 * SPEC section 10: a run that uses none of the new options prints JSON that still validates
 * against the 0.1.0 schema (kept as tests/data/guidance-report-0.1.0.schema.json).
 *
 * The documented exceptions (README, docs/report.md): issue #11 asks for the cause of a
 * `transport-lost` or `http-status` profile as an optional `detail` in `incomplete`, and issue
 * #14 for `server_protocol_version` on a version mismatch; issue #37 has the `transport-lost` hint
 * name `--server-stderr tail`. Such a report differs from a 0.1.0 one only by those fields.
 */
import Ajv2020 from "ajv/dist/2020.js";
import assert from "node:assert/strict";
import schema from "./data/guidance-report-0.1.0.schema.json" with { type: "json" };
import { fixture, guidanceJson, hostile, profileNone } from "./_cli.ts";

type Incomplete = { detail?: unknown } | null;

// deno-lint-ignore no-explicit-any
const validate = new (Ajv2020 as any)({ strict: true, allErrors: true }).compile(schema);

for (
  const [name, args] of [
    ["the demo server", ["--settle-ms", "100", "--", ...fixture("demo/server.ts")]],
    ["a defect", ["--require-tool", "ghost", "--settle-ms", "0", "--", ...hostile("default")]],
    ["an incomplete run", ["--settle-ms", "0", "--", ...hostile("list-error")]],
  ] as const
) {
  Deno.test(`0.1.0 schema still validates a default run: ${name}`, async () => {
    const { report } = await guidanceJson(["--server", "compat", ...args]);
    assert.ok(validate(report), JSON.stringify(validate.errors));
  });
}

Deno.test("0.1.0 schema: a transport-lost run differs only by its documented detail and hint", async () => {
  const { report } = await guidanceJson([
    ...profileNone("compat"),
    "--",
    ...hostile("exit-at-start"),
  ]);
  assert.ok(!validate(report), "detail is new: the 0.1.0 schema does not know it");
  const incomplete = report.profiles[0].incomplete as Incomplete & { hint: string };
  assert.ok(incomplete?.detail);
  delete incomplete.detail;
  // Since 0.3.0 the hint names --server-stderr tail (the stderr tail left the report).
  assert.match(incomplete.hint, /--server-stderr tail/);
  incomplete.hint =
    "The connection ended before discovery finished; check that the server stays up for the whole session.";
  assert.ok(validate(report), JSON.stringify(validate.errors));
});

Deno.test("0.1.0 schema: instructions past 1 MiB differ only by the new reason and its hint", async () => {
  const { report } = await guidanceJson([
    ...profileNone("compat"),
    "--",
    ...hostile("instructions-too-large"),
  ]);
  assert.ok(!validate(report), "instructions-too-large is new: the 0.1.0 schema does not know it");
  const incomplete = report.profiles[0].incomplete as { reason: string; hint: string };
  assert.equal(incomplete.reason, "instructions-too-large");
  // With a reason 0.1.0 knew in its place, the rest of the report is 0.1.0's.
  incomplete.reason = "message-too-large";
  incomplete.hint = "The server sent a message larger than the message size limit.";
  assert.ok(validate(report), JSON.stringify(validate.errors));
});
