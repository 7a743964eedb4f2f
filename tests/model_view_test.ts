/**
 * What the model is shown (SPEC 25), through the real CLI: references read from the
 * instructions as each client shows them, per client preset.
 */
import assert from "node:assert/strict";
import { DENO, guidanceJson, hostile, mcpeval } from "./_cli.ts";

const ARGS = [
  "--server",
  "fx",
  "--settle-ms",
  "0",
  "--client",
  "claude-code",
  "--client",
  "codex",
  "--client",
  "copilot-cli",
  "--client",
  "cursor",
];

Deno.test("instructions past a client's cut: reference-cut-in-client under claude-code only, and each client's reading said", async () => {
  const { code, report } = await guidanceJson([...ARGS, "--", ...hostile("instructions-cut")]);
  assert.equal(code, 0);
  // deno-lint-ignore no-explicit-any
  const candidates = (report as any).candidates as Record<string, unknown>[];
  const cut = candidates.filter((c) => c.kind === "reference-cut-in-client");
  assert.deepEqual(
    cut.map((c) => [c.profile, c.tool, c.cut]),
    [["client:claude-code", "beta", 4096], ["client:claude-code", "gamma", 4096]],
  );
  // No other reference candidate: every tool is listed in every profile.
  assert.deepEqual(candidates.filter((c) => c.kind === "referenced-tool-unavailable"), []);
  // deno-lint-ignore no-explicit-any
  const clients = Object.fromEntries((report as any).profiles.map((
    p: { profile: string; client: Record<string, unknown> },
  ) => [p.profile, p.client]));
  assert.equal(clients["client:claude-code"].instructions_cut, 4096);
  assert.equal(clients["client:claude-code"].references, undefined);
  assert.equal(clients["client:codex"].references, undefined);
  assert.equal(clients["client:copilot-cli"].references, "not-shown");
  assert.equal(clients["client:cursor"].references, "as-given");
  assert.equal(clients["client:cursor"].instructions_shown, null);
});

Deno.test("instructions past a client's cut: text, github, junit and sarif say it in fixed phrases", async () => {
  const run = async (format: string) => {
    const result = await mcpeval(
      ["guidance", "--format", format, ...ARGS, "--", ...hostile("instructions-cut")],
      { permissions: [`--allow-run=${DENO}`] },
    );
    assert.equal(result.code, 0, result.stderr);
    // Lines wrap where the terminal's width says: compared with single spaces.
    return format === "sarif" ? result.stdout : result.stdout.replace(/\s+/g, " ");
  };
  const text = await run("text");
  assert.match(
    text,
    /client:claude-code: `beta` is named in the instructions only past the first 4096 characters/,
  );
  assert.match(
    text,
    /client:copilot-cli: its client shows its model no server instructions, so they give no reference candidates/,
  );
  assert.match(
    text,
    /client:cursor: how its client shows server instructions is not known, so references are read from the instructions as given/,
  );
  assert.match(
    text,
    /client:claude-code: references are read from the first 4096 characters of each server's instructions/,
  );
  assert.ok(!text.includes("aaaa"), "no server text");
  const github = await run("github");
  assert.match(github, /`gamma` is named in the instructions only past the first 4096 characters/);
  const junit = await run("junit");
  assert.match(junit, /`beta` is named in the instructions only past the first 4096 characters/);
  assert.match(junit, /its client shows its model no server instructions/);
  const sarif = JSON.parse(await run("sarif"));
  const results = sarif.runs[0].results as { ruleId: string }[];
  assert.equal(results.filter((r) => r.ruleId === "reference-cut-in-client").length, 2);
});
