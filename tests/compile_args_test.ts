/** The exact `deno compile` arguments of every release target, without compiling. */
import assert from "node:assert/strict";
import { compileArgs, TARGETS } from "../scripts/compile.ts";

const BAKED = [
  "compile",
  "--v8-flags=--max-semi-space-size=2",
  "--no-prompt",
  "--allow-run",
  "--allow-net",
  "--allow-env",
];

const EXPECTED: Record<(typeof TARGETS)[number], string> = {
  "x86_64-unknown-linux-gnu": "dist/mcpeval-x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu": "dist/mcpeval-aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin": "dist/mcpeval-x86_64-apple-darwin",
  "aarch64-apple-darwin": "dist/mcpeval-aarch64-apple-darwin",
  "x86_64-pc-windows-msvc": "dist/mcpeval-x86_64-pc-windows-msvc.exe",
  "aarch64-pc-windows-msvc": "dist/mcpeval-aarch64-pc-windows-msvc.exe",
};

Deno.test("TARGETS lists the six release targets", () => {
  assert.deepEqual([...TARGETS].sort(), Object.keys(EXPECTED).sort());
});

for (const target of TARGETS) {
  Deno.test(`compileArgs: ${target}`, () => {
    assert.deepEqual(compileArgs(target, "dist"), [
      ...BAKED,
      "--target",
      target,
      "--output",
      EXPECTED[target],
      "main.ts",
    ]);
  });
}

Deno.test("compileArgs writes into the directory given", () => {
  assert.deepEqual(compileArgs("aarch64-apple-darwin", "/tmp/out").slice(-3), [
    "--output",
    "/tmp/out/mcpeval-aarch64-apple-darwin",
    "main.ts",
  ]);
});
