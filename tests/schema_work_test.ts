/**
 * The schema analysis is bounded in work, not only in size: array items count toward the schema
 * bounds, the duplicate checks a client's validator runs are linear, each page's analysis has a
 * deadline, and a signal stops it. In-process for the rules, through the real CLI for a
 * million-value `enum` and for SIGINT during schema work.
 */
import assert from "node:assert/strict";
import { Ajv } from "ajv/dist/ajv.js";
import type { FactExtractor } from "../src/clients/rules/kind.ts";
import { RULE_KINDS } from "../src/clients/rules/registry.ts";
import { distinct, schemaShape } from "../src/clients/rules/schema_facts.ts";
import { builtinPresets } from "../src/clients/presets.ts";
import { CatalogBuilder } from "../src/discovery/catalog.ts";
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_KEYWORDS } from "../src/limits.ts";
import { PROTOCOL_VERSION, revisionOf } from "../src/protocol/versions.ts";
import {
  DENO,
  fixtureLog,
  guidanceJson,
  hostile,
  isRunning,
  spawnMcpeval,
  waitUntil,
} from "./_cli.ts";

/** A hang guard only: far above any run here on any machine; never a measure of speed. */
const HANG_GUARD_MS = 240_000;

const schemaInvalid = RULE_KINDS["schema-invalid"];

const withEnum = (values: unknown[]) => ({
  type: "object",
  properties: { x: { enum: values } },
});

/** A small seeded generator (mulberry32), so that every run checks the same cases. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small JSON value, often equal to another one drawn from the same generator. */
function jsonValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0:
      return Math.floor(next() * 3) - 1;
    case 1:
      return ["a", "b", ""][Math.floor(next() * 3)];
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return [0.5, -0, 1e21][Math.floor(next() * 3)];
    case 5:
      return Array.from({ length: Math.floor(next() * 3) }, () => jsonValue(next, depth + 1));
    default: {
      // Keys in a random order: equal objects need not list their keys alike.
      const keys = ["k", "j", "__proto__"].filter(() => next() < 0.5);
      if (next() < 0.5) keys.reverse();
      return JSON.parse(
        `{${
          keys.map((key) => `"${key}":${JSON.stringify(jsonValue(next, depth + 1))}`).join(",")
        }}`,
      );
    }
  }
}

Deno.test("distinct agrees with ajv's uniqueItems on 3,000 seeded arrays", () => {
  const unique = new Ajv({ strict: false }).compile({ uniqueItems: true });
  const next = random(31);
  let duplicates = 0;
  for (let i = 0; i < 3_000; i++) {
    const items = Array.from({ length: 1 + Math.floor(next() * 5) }, () => jsonValue(next));
    const expected = unique(items) as boolean;
    if (!expected) duplicates++;
    assert.equal(distinct(items), expected, JSON.stringify(items));
  }
  assert.ok(duplicates > 300 && duplicates < 2_700, `both outcomes drawn (${duplicates})`);
});

Deno.test("schema-invalid: the linear meta-schema gives ajv's draft-07 verdicts", async () => {
  await schemaInvalid.fact!.prepare!();
  const draft07 = new Ajv({ strict: false, validateFormats: false })
    .getSchema("http://json-schema.org/draft-07/schema")!;
  const next = random(33);
  const schemas: Record<string, unknown>[] = [
    withEnum([1, 2, 3]),
    withEnum([1, 1]),
    withEnum([{ a: 1, b: [2] }, { b: [2], a: 1 }]),
    withEnum([]),
    { type: "object", properties: { x: { type: ["string", "null"] } } },
    { type: "object", properties: { x: { type: ["string", "string"] } } },
    { type: "object", required: ["a", "b"] },
    { type: "object", required: ["a", "a"] },
    { type: "object", dependencies: { a: ["b", "b"] } },
    { type: "object", properties: { x: { items: [{ enum: [null, null] }] } } },
    { type: "object", properties: { x: { uniqueItems: "yes" } } },
    ...Array.from(
      { length: 300 },
      () => withEnum(Array.from({ length: 3 }, () => jsonValue(next))),
    ),
  ];
  for (const schema of schemas) {
    const tool = { name: "t", inputSchema: schema };
    assert.equal(schemaInvalid.fact!.extract(tool), !draft07(schema), JSON.stringify(schema));
  }
});

Deno.test("schema bounds: array items count as entries, numbers and strings by their length", () => {
  // type, properties, x and enum are four entries; the enum's values the rest.
  const within = withEnum(Array.from({ length: MAX_SCHEMA_KEYWORDS - 4 }, (_, i) => i));
  const over = withEnum(Array.from({ length: MAX_SCHEMA_KEYWORDS - 3 }, (_, i) => i));
  assert.equal(schemaShape(within).withinBounds, true);
  assert.equal(schemaShape(over).withinBounds, false);
  // Keys and strings hold 25 characters besides the long string; each number 23.
  const number = 1.2345678901234567e-200;
  assert.equal(String(number).length, 23);
  const long = "s".repeat(MAX_SCHEMA_BYTES - 25 - 2 * 23);
  assert.equal(schemaShape(withEnum([long, number, number])).withinBounds, true);
  assert.equal(schemaShape(withEnum([long, number, number, number])).withinBounds, false);
  // A million values: over at once, and not judged by any schema rule.
  const million = withEnum(Array.from({ length: 1_000_000 }, (_, i) => i));
  assert.equal(schemaShape(million).withinBounds, false);
  assert.equal(schemaInvalid.fact!.extract({ name: "t", inputSchema: million }), false);
});

/** A fact that takes at least 25 ms per tool (busy), so that every tool ends a slice. */
const SLOW_FACT: FactExtractor = {
  id: "slow",
  extract: () => {
    for (const end = performance.now() + 25; performance.now() < end;);
    return true;
  },
};
/** The Tool shape of the seed's revision. */
const SEED_SHAPE = revisionOf(PROTOCOL_VERSION).toolShape;
const PAGE = {
  tools: ["a", "b", "c"].map((name) => ({ name, inputSchema: { type: "object" } })),
};

Deno.test("a page's analysis: past its deadline the tools get no facts", async () => {
  const late = new CatalogBuilder(SEED_SHAPE, [SLOW_FACT]);
  assert.deepEqual(await late.addPage(PAGE, { deadline: Date.now() - 1 }), { done: true });
  assert.deepEqual(late.facts!.map((tool) => tool.facts), [{}, {}, {}]);
  assert.deepEqual(late.listed(), ["a", "b", "c"]);
  const timely = new CatalogBuilder(SEED_SHAPE, [SLOW_FACT]);
  await timely.addPage(PAGE, { deadline: Date.now() + 60_000 });
  assert.deepEqual(timely.facts!.map((tool) => tool.facts), [
    { slow: true },
    { slow: true },
    { slow: true },
  ]);
});

Deno.test("a page's analysis yields to the event loop and stops on its signal", async () => {
  const controller = new AbortController();
  const catalog = new CatalogBuilder(SEED_SHAPE, [SLOW_FACT]);
  // Aborted by a timer: it can fire only if the analysis gives the event loop a turn.
  setTimeout(() => controller.abort("SIGINT"), 0);
  const outcome = await catalog.addPage(PAGE, {
    deadline: Date.now() + 60_000,
    signal: controller.signal,
  });
  assert.deepEqual(outcome, { incomplete: { reason: "transport-lost" } });
  assert.ok(catalog.facts!.length < 3);
});

Deno.test("1,000,000 enum values under --client all: the run finishes, the tool not judged", async () => {
  const { code, report } = await guidanceJson(
    ["--server", "h", "--client", "all", "--settle-ms", "0", "--", ...hostile("enum-1000000")],
    { boundMs: HANG_GUARD_MS },
  );
  assert.equal(code, 0);
  assert.equal(report.profiles.length, builtinPresets().size);
  for (const profile of report.profiles) {
    assert.equal(profile.complete, true, profile.profile);
    assert.equal(profile.tool_count, 3);
  }
  const judged = [...report.candidates, ...report.defects].map((f) => `${f.profile} ${f.tool}`);
  // The small enum with a duplicate is found by every preset that validates schemas; the million
  // values are over the bounds.
  const validating = [...builtinPresets()].filter(([, preset]) =>
    preset.rules.some((rule) => rule.id === "schema-invalid")
  );
  assert.ok(validating.length > 0);
  assert.deepEqual(
    judged.sort(),
    validating.map(([name]) => `client:${name} dup-enum`).sort(),
  );
});

Deno.test("SIGINT during schema work: exit 130, no server process left", async () => {
  await using log = await fixtureLog();
  const running = spawnMcpeval(
    [
      "guidance",
      "--server",
      "h",
      "--client",
      "vscode",
      "--settle-ms",
      "0",
      "--",
      ...hostile(
        "enum-heavy-pages",
      ),
    ],
    { permissions: [`--allow-run=${DENO}`], env: { MCPEVAL_FIXTURE_LOG: log.path } },
  );
  // The second page written whole: the first one was analysed, and mcpeval is reading, parsing
  // or analysing the second (hundreds of milliseconds of schema work) when the signal comes.
  await waitUntil(() => log.answered("tools/list") >= 2, HANG_GUARD_MS, 10);
  assert.equal(log.answered("tools/list"), 2);
  const output = await running.stop("SIGINT", HANG_GUARD_MS);
  // It came during that page's work: had the work ended first, a third page would be asked for.
  assert.equal(log.received("tools/list"), 2);
  assert.equal(output.code, 130, output.stderr);
  assert.equal(output.stdout, "");
  assert.equal(output.stderr, "mcpeval: interrupted; every server process was stopped\n");
  const pids = log.pids();
  assert.equal(pids.length, 1);
  assert.ok(!isRunning(pids[0]), `the server process ${pids[0]} is still running`);
  await running.assertNoneLeft("mcpeval stopped during schema work");
});
