/** The hand-written tokenizer gives exactly the tokens of node:util's parseArgs. */
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { argsTokens, type TokenOption } from "../src/cli/tokens.ts";
import { MERGE_OPTIONS, OPTION_TABLE, parseSpec } from "../src/cli/options.ts";
import { random } from "./_random.ts";

const oracle = (args: string[], options: Record<string, TokenOption>) =>
  parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens;

/** Pieces command lines are made of: real and unknown options, letters, values, edges. */
const PIECES = (options: Record<string, TokenOption>) => [
  ...Object.keys(options).flatMap((name) => [`--${name}`, `--${name}=v`, `--${name}=`]),
  ...Object.values(options).flatMap((o) => (o.short ? [`-${o.short}`, `-${o.short}x`] : [])),
  "--unknown",
  "--unknown=1",
  "--=x",
  "--=a=b",
  "--a=b=c",
  "---",
  "--",
  "-",
  "-x",
  "-xy",
  "-qh",
  "-hq",
  "-qs",
  "-sq",
  "-q-",
  "value",
  "two words",
  "",
  "=",
  "-1",
  "--no-quiet",
];

const SPECS: [string, Record<string, TokenOption>][] = [
  ["guidance", parseSpec(OPTION_TABLE)],
  ["merge", parseSpec(MERGE_OPTIONS)],
];

for (const [label, options] of SPECS) {
  Deno.test(`tokens: the same as parseArgs for ${label}'s options, on 20,000 command lines`, () => {
    const pieces = PIECES(options);
    const next = random(label === "guidance" ? 19 : 23);
    for (let run = 0; run < 20_000; run++) {
      const length = Math.floor(next() * 8);
      const args = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]);
      assert.deepEqual(argsTokens(args, options), oracle(args, options), JSON.stringify(args));
    }
  });
}

Deno.test("tokens: short letters that take a value, in a group and alone", () => {
  const options: Record<string, TokenOption> = {
    quiet: { type: "boolean", short: "q" },
    server: { type: "string", short: "s" },
  };
  for (
    const args of [
      ["-qs", "name"],
      ["-sq"],
      ["-qsname", "x"],
      ["-s"],
      ["-s", "--", "x"],
      ["-qq", "-s", "-q"],
      ["--server", "--quiet"],
      ["--server"],
    ]
  ) {
    assert.deepEqual(argsTokens(args, options), oracle(args, options), JSON.stringify(args));
  }
});
