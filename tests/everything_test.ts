/** The real reference server, pinned: @modelcontextprotocol/server-everything@2026.8.31 over stdio. */
import assert from "node:assert/strict";
import { EVERYTHING, guidanceJson } from "./_cli.ts";
import { assertEverythingCatalogs } from "./_everything.ts";

const ARGS = ["--server", "everything", "--settle-ms", "500", "--"];

Deno.test("server-everything: the catalogs it really serves and a candidate per unseen reference", async () => {
  const { code, report } = await guidanceJson([...ARGS, ...EVERYTHING]);
  assert.equal(code, 0);
  assertEverythingCatalogs(report);
  assert.deepEqual(report.defects, []);
  assert.equal(report.complete, true);
  assert.equal(report.passed, true);
});

Deno.test("server-everything: --require-tool trigger-sampling-request fails where it is missing", async () => {
  const { code, report } = await guidanceJson([
    "--require-tool",
    "trigger-sampling-request",
    ...ARGS,
    ...EVERYTHING,
  ]);
  assert.equal(code, 1);
  assert.deepEqual(report.required_tools, ["trigger-sampling-request"]);
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool, d.available_in]), [
    ["none", "trigger-sampling-request", ["sampling", "all"]],
    ["roots", "trigger-sampling-request", ["sampling", "all"]],
    ["elicitation", "trigger-sampling-request", ["sampling", "all"]],
  ]);
  assert.equal(report.passed, false);
});

Deno.test("server-everything: --profile sampling with the requirement passes", async () => {
  const { code, report } = await guidanceJson([
    "--profile",
    "sampling",
    "--require-tool",
    "trigger-sampling-request",
    ...ARGS,
    ...EVERYTHING,
  ]);
  assert.equal(code, 0);
  assert.deepEqual(report.profiles.map((p) => p.profile), ["sampling"]);
  assert.deepEqual(report.candidates, []);
  assert.equal(report.passed, true);
});
