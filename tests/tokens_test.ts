/**
 * The command line's tokens (node:util's parseArgs) as the parsers read them: values alone and
 * inline, short letters in a group, the next option taken as a value, `--` and positionals.
 */
import assert from "node:assert/strict";
import { type ArgsToken, argsTokens, type TokenOption } from "../src/cli/tokens.ts";
import { MERGE_OPTIONS, OPTION_TABLE, parseSpec } from "../src/cli/options.ts";

const options: Record<string, TokenOption> = {
  quiet: { type: "boolean", short: "q" },
  server: { type: "string", short: "s" },
};

const option = (
  index: number,
  name: string,
  rawName: string,
  value?: string,
  inlineValue?: boolean,
): ArgsToken => ({ kind: "option", index, name, rawName, value, inlineValue });

const CASES: [string[], ArgsToken[]][] = [
  [["-qs", "name"], [option(0, "quiet", "-q"), option(0, "server", "-s", "name", false)]],
  [["-sq"], [option(0, "server", "-s", "q", true)]],
  [["-s"], [option(0, "server", "-s")]],
  // The next option is taken as the value: the parser refuses it (`--server needs a value`).
  [["--server", "--quiet"], [option(0, "server", "--server", "--quiet", false)]],
  [["--server=a=b", "x", "--", "-q"], [
    option(0, "server", "--server", "a=b", true),
    { kind: "positional", index: 1, value: "x" },
    { kind: "option-terminator", index: 2 },
    { kind: "positional", index: 3, value: "-q" },
  ]],
  [["--unknown=1", "-x"], [option(0, "unknown", "--unknown", "1", true), option(1, "x", "-x")]],
  [["--quiet=yes"], [option(0, "quiet", "--quiet", "yes", true)]],
];

Deno.test("tokens: values alone and inline, letter groups, --, positionals", () => {
  for (const [args, expected] of CASES) {
    const tokens = argsTokens(args, options).map((token) =>
      token.kind === "option"
        ? { ...token, value: token.value, inlineValue: token.inlineValue }
        : token
    );
    assert.deepEqual(tokens, expected, JSON.stringify(args));
  }
});

Deno.test("tokens: the option table's specs are ones parseArgs takes", () => {
  for (const spec of [parseSpec(OPTION_TABLE), parseSpec(MERGE_OPTIONS)]) {
    const names = Object.keys(spec);
    const tokens = argsTokens(names.map((name) => `--${name}=v`), spec);
    assert.deepEqual(tokens.map((token) => token.kind === "option" && token.name), names);
  }
});
