/**
 * Parity of the linear-time `inlineCodeSpans` (src/analysis/code_spans.ts) with commonmark.js
 * 0.31.2: the same set of code span contents on every example of the CommonMark spec 0.31.2 and
 * on the spec's whole text, on the README, on the instructions of the repo's fixtures and of
 * server-everything, on hand-picked edge cases, and on seeded random fuzz. Also checks that
 * hostile inputs stay fast.
 *
 * The spec examples come from the npm package commonmark-spec (a test dependency).
 */
import assert from "node:assert/strict";
// @ts-types="@types/commonmark"
import { Parser } from "commonmark";
import spec from "commonmark-spec";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { inlineCodeSpans } from "../src/analysis/code_spans.ts";
import { createDemoServer } from "../fixtures/demo/server.ts";
import { childEnv, EVERYTHING, hostile, httpFixture, startHttp } from "./_cli.ts";
import { random } from "./_random.ts";

/** What commonmark.js gives: the literals of the `code` nodes. */
function reference(markdown: string): Set<string> {
  const spans = new Set<string>();
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event !== null; event = walker.next()) {
    if (event.entering && event.node.type === "code" && event.node.literal !== null) {
      spans.add(event.node.literal);
    }
  }
  return spans;
}

const sorted = (spans: Set<string>) => [...spans].sort();

/** The inputs (with a label each) on which the two disagree. */
function differences(inputs: [string, string][]): string[] {
  return inputs.flatMap(([label, markdown]) => {
    const expected = sorted(reference(markdown));
    const actual = sorted(inlineCodeSpans(markdown));
    return JSON.stringify(expected) === JSON.stringify(actual) ? [] : [
      `${label} ${JSON.stringify(markdown)}: commonmark.js ${JSON.stringify(expected)}, ` +
      `linear ${JSON.stringify(actual)}`,
    ];
  });
}

Deno.test("code spans: every CommonMark 0.31.2 spec example, tabs as tabs and as →", () => {
  const examples = (spec as { tests: { markdown: string; number: number }[] }).tests;
  assert.equal(examples.length, 652);
  const inputs = examples.flatMap(({ markdown, number }): [string, string][] => [
    [`example ${number}`, markdown.replaceAll("→", "\t")],
    [`example ${number} (raw)`, markdown],
  ]);
  assert.deepEqual(differences(inputs), []);
  // 71 examples have a backtick; in 32 of them commonmark.js finds a code span.
  assert.equal(examples.filter(({ markdown }) => markdown.includes("`")).length, 71);
  const withSpans = examples.filter(({ markdown }) =>
    reference(markdown.replaceAll("→", "\t")).size
  );
  assert.equal(withSpans.length, 32);
});

Deno.test("code spans: whole documents (spec.txt, the README)", () => {
  const readme = Deno.readTextFileSync(new URL("../README.md", import.meta.url));
  const text = (spec as { text: string }).text;
  assert.deepEqual(differences([["spec.txt", text], ["README.md", readme]]), []);
  assert.ok(reference(text).size > 200);
});

/** The instructions a server sends in its initialize result, asked the way a client asks. */
async function demoInstructions(): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createDemoServer();
  await server.connect(serverSide);
  const client = new Client({ name: "code-spans-test", version: "1.0.0" });
  await client.connect(clientSide);
  const instructions = client.getInstructions();
  await client.close();
  await server.close();
  assert.equal(typeof instructions, "string");
  return instructions!;
}

/** server-everything's instructions, from its initialize result over stdio. */
async function everythingInstructions(): Promise<string> {
  const [command, ...args] = EVERYTHING;
  const client = new Client({ name: "code-spans-test", version: "1.0.0" });
  // The SDK gives its child only HOME, PATH, SHELL, TERM, USER and LOGNAME by default: the
  // child deno would lose the cache folder and the CA and proxy settings.
  const env = { ...getDefaultEnvironment(), ...childEnv() };
  await client.connect(new StdioClientTransport({ command, args, env, stderr: "ignore" }));
  const instructions = client.getInstructions();
  await client.close();
  assert.equal(typeof instructions, "string");
  return instructions!;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "code-spans-test", version: "1.0.0" },
  },
};

async function hostileInstructions(): Promise<string> {
  const [command, ...args] = hostile("default");
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(INITIALIZE) + "\n"));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    while (!text.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    clearTimeout(timer);
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
  }
  return JSON.parse(text.slice(0, text.indexOf("\n"))).result.instructions;
}

async function httpHostileInstructions(): Promise<string> {
  await using server = await startHttp(httpFixture("http_hostile.ts", "json"));
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(INITIALIZE),
  });
  return (await response.json()).result.instructions;
}

Deno.test("code spans: the fixtures' and server-everything's instructions", async () => {
  const instructions: [string, string][] = [
    ["fixtures/demo/server.ts", await demoInstructions()],
    ["fixtures/hostile.ts", await hostileInstructions()],
    ["fixtures/http_hostile.ts", await httpHostileInstructions()],
    ["server-everything", await everythingInstructions()],
  ];
  assert.ok(instructions[3][1].startsWith("# Everything Server"), instructions[3][1]);
  assert.deepEqual(differences(instructions), []);
  for (const [label, markdown] of instructions) {
    assert.ok(inlineCodeSpans(markdown).size > 0, `${label} names something in backticks`);
  }
  assert.deepEqual(sorted(inlineCodeSpans(instructions[0][1])), [
    "NOTES_DIR",
    "delete-note",
    "list-workspace-files",
    "read-note",
    "search-notes",
    "summarize-notes",
  ]);
});

const x = (n: number) => "x".repeat(n);

/** Cases where the block structure or a link decides, and limits of commonmark.js. */
const EDGE_CASES = [
  // An inline link's destination or title, or a reference label, swallows its backticks.
  "[a](`b`)",
  '[a](b "`c`")',
  "[a](<`b`>)",
  "[a](b`c`)",
  "![x](`y`)",
  "[a](\n`b`)",
  "[a][`b`]\n\n[`b`]: /u",
  "[a][`b`]",
  "[`b`]\n\n[`b`]: /u",
  "`[a](b`)",
  "[[a](b)](`c`)",
  "![[a](b)](`c`)",
  "[![a](b)](`c`)",
  "[a [b](c) d](`e`)",
  '[a](`b` "t")',
  '[a](b "t\\"`x`")`y`',
  "[a](b 't\\'`x`')`y`",
  "[a](b (t\\(`x`))`y`",
  "[a](b (t(`x`))`y`",
  "[a](\\(`x`)",
  "[a](b(`x`)c)",
  "[a](b\\)`x`)",
  // commonmark.js's title regex takes 2^k steps on k escaped quotes in an unclosed title.
  '[a](b "' + '\\"'.repeat(14) + " `x`",
  '[a]: /u "' + '\\"'.repeat(14) + "\n`x`",
  // Raw HTML and autolinks before code spans; escapes outside code spans only.
  '<a href="`">`x`',
  "<http://a`b>`c`",
  '<a\u00a0b="`">`c`',
  "<a\nb='`'>`c`",
  "<!-->`a`",
  "<!--->`a`",
  "a <!---->`b`",
  "a <? `x` ?>",
  "a <?>`b`?>",
  "a <![CDATA[`x`]]>",
  "a <!X `y` >",
  "a <!-- `x`",
  "\\`a`",
  "`a\\`b`",
  "`a``b`",
  // Labels up to commonmark.js's 1001-character limit; whitespace runs in shortcut labels.
  `[${x(998)}]: /u\n\n[z][${x(998)}] \`a\``,
  `[${x(999)}]: /u\n\n[z][${x(999)}]\`a\``,
  `[${x(1000)}]: /u\n\n[z][${x(1000)}]\`a\``,
  `[foo bar]: /u\n\n[foo${" ".repeat(2000)}bar]\`x\``,
  `[foo bar]: /u\n\n[foo${" ".repeat(2000)}bar][]\`x\``,
  // Blocks: headings, setext underlines after definitions, containers, tabs, line endings.
  "# `a` #",
  "# `a` \\#",
  "#\t`a`\t#\t",
  "`a`\n===",
  "[a]: /u\n===\n`b`",
  "[a]: /u\n`b`\n===",
  "> [a]: /u\n\n[b][a]`c`",
  "- [a]: /u\n\n[a](`x`)",
  "\t- a\n\t\t- `b`",
  "-\t`a`\n \t`b`",
  ">\t`a`\n>\t\t`b`",
  "1.\t`a`\n\n    `b`",
  "- a\n\n\n  `b`",
  "-\n\n  `b`",
  "> a\n    `b`",
  "```\u2028`\nx\n```",
  "\u00a0`a`\u00a0",
  "a\0`b\0`",
  "`a\r\nb`",
  "`a\rb`",
];

Deno.test("code spans: edge cases", () => {
  assert.deepEqual(differences(EDGE_CASES.map((markdown, i) => [`edge ${i}`, markdown])), []);
});

const ALPHABET = [..."```\\\\[]()<>!-*#  \n\n\taa\"'", "1. ", ":"];
const LINE_PREFIXES = ["", "", " ", "    ", "\t", "> ", "- ", "* ", "1. ", "2) ", "  - ", "-    "];
const LINE_STARTS = [
  "",
  "",
  "# ",
  "```",
  "~~~",
  "<div>",
  "<!-- ",
  '<a href="x">',
  "===",
  "---",
  "[a]: /u",
  '[a]: /u "t"',
  "[b]:\n/u",
  "    code",
];
const INLINE = [
  "`",
  "``",
  "a",
  " ",
  "\\`",
  "\\",
  "[",
  "]",
  "[a]",
  "[a][]",
  "[b]",
  "](",
  "(",
  ")",
  "<",
  ">",
  "<a b='`'>",
  "<http://x`y>",
  "<!--",
  "-->",
  '"',
  "![",
  "*",
  "\t",
  "`a`",
  "` a `",
];

Deno.test("code spans: seeded fuzz, 3000 strings over a hostile alphabet", () => {
  const next = random(2024);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const inputs: [string, string][] = [];
  for (let i = 0; i < 3000; i++) {
    let markdown = "";
    for (let length = Math.floor(next() * 48); length > 0; length--) markdown += pick(ALPHABET);
    inputs.push([`string ${i}`, markdown]);
  }
  assert.deepEqual(differences(inputs), []);
});

Deno.test("code spans: seeded fuzz, 2000 documents of random lines", () => {
  const next = random(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const inputs: [string, string][] = [];
  for (let i = 0; i < 2000; i++) {
    const lines: string[] = [];
    for (let count = Math.floor(next() * 10); count > 0; count--) {
      let line = pick(LINE_PREFIXES) + pick(LINE_PREFIXES) + pick(LINE_STARTS);
      for (let pieces = Math.floor(next() * 7); pieces > 0; pieces--) line += pick(INLINE);
      lines.push(line);
    }
    inputs.push([`document ${i}`, lines.join(pick(["\n", "\n", "\r\n", "\r"]))]);
  }
  assert.deepEqual(differences(inputs), []);
});

const DESTINATION = [
  "(",
  "(",
  "(",
  ")",
  ")",
  "a",
  "a",
  "\\",
  "\\(",
  "\\)",
  "\\\\",
  "[b](",
  "]",
  "`",
  "`z`",
  " ",
];

Deno.test("code spans: seeded fuzz, 1000 long link destinations", () => {
  // Destinations past 64 characters take the table path of the scanner.
  const next = random(99);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const inputs: [string, string][] = [];
  for (let i = 0; i < 1000; i++) {
    let markdown = "[a](";
    for (let length = 20 + Math.floor(next() * 300); length > 0; length--) {
      markdown += pick(DESTINATION);
    }
    inputs.push([`destination ${i}`, markdown]);
  }
  assert.deepEqual(differences(inputs), []);
});

// Their times (1x, 2x and 4x, to show they are linear) are printed by `deno task bench`
// (scripts/bench_references.ts), not asserted: a test must not depend on the machine's speed.
Deno.test("code spans: 1 MiB hostile inputs finish", () => {
  const size = 2 ** 20;
  const inputs: [string, string][] = [
    ["nested brackets", "[".repeat(size)],
    ["unclosed links", "[a](b".repeat(size / 5)],
    ["images", "![[]()".repeat(size / 6)],
    ["HTML comments", "a " + "<!--".repeat(size / 4)],
    ["declarations", "a " + "<!X".repeat(size / 3)],
    ["nested lists", "- ".repeat(size / 2) + "a"],
    ["deep list then blank lines", "- ".repeat(size / 4) + "a" + "\n".repeat(size / 2)],
    ["unclosed titles", '[a](b "'.repeat(size / 7)],
    ["escaped quotes in a title", '[a](b "' + '\\"'.repeat(size / 2)],
    ["[a", "[a".repeat(size / 2)],
    ["backtick runs", Array.from({ length: 1400 }, (_, k) => "`".repeat(k + 1)).join("a ")],
  ];
  for (const [label, markdown] of inputs) {
    assert.ok(inlineCodeSpans(markdown) instanceof Set, label);
  }
});
