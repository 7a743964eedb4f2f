/**
 * Reports written in pieces: the streamed JSON document is `JSON.stringify(document, null, 2)`
 * byte for byte, the writer joins pieces into bounded chunks (a small chunk size injected, so no
 * test builds a huge string), a report too large for its format exits 74 with one line, and a
 * merge keeps its servers packed without changing the merged report.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { finishRun, RenderInterrupted, writeChunks } from "../src/cli/output.ts";
import { EXIT } from "../src/exit.ts";
import { buildFleetReport } from "../src/report/fleet/build.ts";
import { FleetMerger, mergeFleetReports } from "../src/report/fleet/merge.ts";
import { PackedServers } from "../src/report/fleet/packed.ts";
import type { FleetReport } from "../src/report/fleet/types.ts";
import { render } from "../src/report/formats/json.ts";
import { FORMATS, loadFormats } from "../src/report/formats/mod.ts";
import type { RenderSource } from "../src/report/run.ts";
import { jsonPieces, NO_ITEM } from "../src/report/json_pieces.ts";
import type { GuidanceReport } from "../src/report/types.ts";
import { testContext } from "./_context.ts";

const DATA = fileURLToPath(new URL("./data/baselines/", import.meta.url));
const read = async (name: string) => JSON.parse(await Deno.readTextFile(join(DATA, name)));

/** Fleet reports of several shapes: real ones, not-checked fields, a shard, no servers. */
async function fleets(): Promise<FleetReport[]> {
  const fleet: FleetReport = await read("fleet-0.2.0.json");
  const reworded: FleetReport = await read("fleet-0.2.0-reworded.json");
  const guidance: GuidanceReport = await read("guidance-0.2.0.json");
  return [
    fleet,
    reworded,
    buildFleetReport("mcpServers", [
      { name: "a", report: guidance },
      { name: "b", reason: "invalid-entry", field: "command" },
      { name: "c", reason: "unset-variable", variables: ["TOKEN", "HOME"] },
      { name: "d", reason: "disabled" },
    ]),
    buildFleetReport("servers", [{ name: "only", reason: "disabled" }], { index: 2, count: 3 }),
    buildFleetReport("mcpServers", []),
  ];
}

Deno.test("json pieces: a fleet report joined is JSON.stringify(report, null, 2) byte for byte", async () => {
  for (const fleet of await fleets()) {
    const rendered = render({ kind: "fleet", fleet });
    assert.notEqual(typeof rendered, "string");
    const pieces = [...rendered];
    assert.ok(pieces.length >= 3 + fleet.servers.length);
    assert.equal(pieces.join(""), JSON.stringify(fleet, null, 2) + "\n");
  }
  const guidance: GuidanceReport = await read("guidance-0.2.0.json");
  assert.equal(
    [...render({ kind: "server", report: guidance })].join(""),
    JSON.stringify(guidance, null, 2) + "\n",
  );
});

Deno.test("json pieces: fields left out, empty containers and an iterable written as its array (what it says is no item left out)", () => {
  const shapes: Record<string, unknown>[] = [
    {},
    { a: undefined },
    { a: [], b: {}, c: "x\ny", d: null, e: undefined, f: [1, undefined, [2, []]] },
    { nested: { deep: [{ x: 1 }, { y: [true, false] }] }, list: [[1, 2], { z: "q" }] },
  ];
  for (const shape of shapes) {
    assert.equal([...jsonPieces(shape)].join(""), JSON.stringify(shape, null, 2) + "\n");
  }
  const items = [{ name: "a" }, { name: "b", list: [1, 2] }];
  function* generated() {
    yield NO_ITEM;
    yield items[0];
    yield NO_ITEM;
    yield items[1];
  }
  assert.equal(
    [...jsonPieces({ head: 1, servers: { [Symbol.iterator]: generated }, tail: true })].join(""),
    JSON.stringify({ head: 1, servers: items, tail: true }, null, 2) + "\n",
  );
});

Deno.test("json pieces: a large value is written field by field and item by item, an iterable at any depth read as it is written", () => {
  const candidates = Array.from({ length: 5_000 }, (_, i) => ({ tool: `t${i}`, in: ["a", "b"] }));
  const names = ["x", "y"];
  function* lazy() {
    yield* names;
  }
  const document = {
    head: "h",
    servers: [{ name: "s", report: { candidates, empty: [], none: {}, deep: { names: lazy() } } }],
  };
  const pieces = [...jsonPieces(document)];
  assert.ok(pieces.length > candidates.length, String(pieces.length));
  const expected = { ...document, servers: [{ ...document.servers[0] }] };
  expected.servers[0].report = { ...document.servers[0].report, deep: { names } as never };
  assert.equal(pieces.join(""), JSON.stringify(expected, null, 2) + "\n");
});

Deno.test("writeChunks: pieces joined into chunks of at least the size, the last one shorter", async () => {
  const pieces = Array.from({ length: 50 }, (_, i) => "x".repeat(i % 7 + 1));
  const chunks: string[] = [];
  await writeChunks(pieces, 16, (chunk) => Promise.resolve(void chunks.push(chunk)));
  assert.equal(chunks.join(""), pieces.join(""));
  assert.ok(chunks.length > 5);
  for (const chunk of chunks.slice(0, -1)) {
    assert.ok(chunk.length >= 16 && chunk.length < 16 + 7, String(chunk.length));
  }
  const whole: string[] = [];
  await writeChunks("one string", 4, (chunk) => Promise.resolve(void whole.push(chunk)));
  assert.deepEqual(whole, ["one string"]);
});

Deno.test("writeChunks: a signal stops the writing, even while a write waits on a reader that does not read", async () => {
  const controller = new AbortController();
  let pulled = 0;
  function* pieces() {
    for (;;) {
      pulled++;
      yield "x".repeat(8);
    }
  }
  const blocked = writeChunks(pieces(), 16, () => {
    // The reader never reads: this write never ends, and the signal comes meanwhile.
    controller.abort("SIGINT");
    return new Promise<void>(() => {});
  }, { signal: controller.signal });
  const stopped = await blocked.catch((error) => error);
  assert.ok(stopped instanceof RenderInterrupted);
  assert.equal(stopped.signal, "SIGINT");
  assert.equal(pulled, 2, "nothing is rendered after the signal");

  const aborted = new AbortController();
  aborted.abort("SIGTERM");
  const written: string[] = [];
  await assert.rejects(
    writeChunks(pieces(), 16, (chunk) => Promise.resolve(void written.push(chunk)), {
      signal: aborted.signal,
    }),
    RenderInterrupted,
  );
  assert.deepEqual(written, []);
});

Deno.test("finishRun: a merge interrupted while its report is written exits 130 with its own line, its files removed", async () => {
  const controller = new AbortController();
  const context = testContext({
    writeFile: () => {
      controller.abort("SIGINT");
      return Promise.resolve();
    },
  });
  let discarded = false;
  const code = await finishRun(
    context,
    {
      files: [{ path: "r.txt", format: "text", append: false }],
      discard: () => Promise.resolve(void (discarded = true)),
    },
    controller.signal,
    { complete: true, passed: true },
    { format: "json", kind: "merge" },
    () => ["a".repeat(10), "b".repeat(10), "c".repeat(10)],
    8,
  );
  assert.equal(code, EXIT.interrupted);
  assert.ok(discarded);
  assert.equal(context.out(), "", "the stdout report is not begun");
  assert.equal(context.err(), "mcpeval: interrupted; the merged report was not finished\n");
});

Deno.test("finishRun: a streamed report is written in chunks, to the file (truncated, then appended) and stdout", async () => {
  const [fleet] = await fleets();
  const expected = JSON.stringify(fleet, null, 2) + "\n";
  const writes: { text: string; append: boolean }[] = [];
  const stdout: string[] = [];
  const context = testContext({
    writeFile: (_path, text, { append }) => Promise.resolve(void writes.push({ text, append })),
    stdout: (text) => Promise.resolve(void stdout.push(text)),
  });
  const code = await finishRun(
    context,
    {
      files: [{ path: "out.json", format: "json", append: false }],
      discard: () => Promise.resolve(),
    },
    undefined,
    fleet,
    { format: "json" },
    () => render({ kind: "fleet", fleet }),
    64,
  );
  assert.equal(code, fleet.complete ? (fleet.passed ? EXIT.passed : EXIT.defect) : EXIT.incomplete);
  assert.ok(writes.length > 3);
  assert.deepEqual(writes.map((write) => write.append), writes.map((_, i) => i > 0));
  assert.equal(writes.map((write) => write.text).join(""), expected);
  assert.ok(stdout.length > 3);
  assert.equal(stdout.join(""), expected);
});

Deno.test("finishRun: a report too large for its format exits 74 with one line, never an internal error", async () => {
  const tooLarge = () => {
    throw new RangeError("Invalid string length");
  };
  const result = { complete: true, passed: true };
  const none = { files: [], discard: () => Promise.resolve() };
  const onStdout = testContext();
  assert.equal(
    await finishRun(onStdout, none, undefined, result, { format: "github" }, tooLarge),
    EXIT.ioError,
  );
  assert.equal(onStdout.out(), "");
  assert.equal(
    onStdout.err(),
    "mcpeval: the github report could not be printed (the report is too large for its format; --format json writes a report of any size)\n",
  );

  const inFile = testContext();
  const file = {
    files: [{ path: "r.xml", format: "junit" as const, append: false }],
    discard: none.discard,
  };
  const code = await finishRun(
    inFile,
    file,
    undefined,
    result,
    { format: "json" },
    (format) => format === "junit" ? tooLarge() : "{}\n",
  );
  assert.equal(code, EXIT.ioError);
  assert.equal(inFile.out(), "{}\n");
  assert.equal(
    inFile.err(),
    'mcpeval: the report file "r.xml" given to --output could not be written (the report is too large for its format); the report on stdout was still printed\n',
  );
});

Deno.test("packed servers: entries come back in order from many small compressed blocks", () => {
  const packed = new PackedServers(40);
  const servers = Array.from({ length: 30 }, (_, i) => ({
    name: `s-${i}`,
    checked: false as const,
    reason: "disabled" as const,
    hint: 'x\ny \u2028 "quoted"',
  }));
  for (const server of servers) packed.push(server as never);
  assert.equal(packed.count, 30);
  assert.deepEqual([...packed.entries()], servers);
  assert.deepEqual([...packed.entries()], servers);
  assert.deepEqual([...new PackedServers().entries()], []);
});

Deno.test("packed servers: the last block's entries are those given, never parsed; sealed ones are", () => {
  const server = { name: "s", checked: false, reason: "disabled", hint: "h" } as never;
  const one = new PackedServers();
  one.push(server);
  assert.equal([...one.entries()][0], server, "one block: the entry as given, on every pass");
  assert.equal([...one.entries()][0], server);
  const many = new PackedServers(1);
  many.push(server);
  many.push(server);
  const [first, last] = many.entries();
  assert.notEqual(first, server, "a sealed block's entry is parsed from its block");
  assert.deepEqual(first, server);
  assert.equal(last, server);
});

Deno.test("merge packed: the same merged report as the objects, and its JSON streamed", async () => {
  const guidance: GuidanceReport = await read("guidance-0.2.0.json");
  const part = (names: string[]) =>
    buildFleetReport(
      "mcpServers",
      names.map((name, i) =>
        i % 2
          ? { name, reason: "disabled" as const }
          : { name, report: { ...guidance, server: name } }
      ),
    );
  const reports = [part(["a", "b", "c"]), part(["d"]), part(["e", "f", "g", "h"])];
  const merger = new FleetMerger({ blockChars: 64 });
  for (const report of reports) assert.equal(merger.add(report), undefined);
  const packed = merger.finishPacked();
  assert.ok(packed.ok);
  const whole = mergeFleetReports(reports);
  assert.ok(whole.ok);
  const merged = packed.merged.report();
  assert.deepEqual(merged, whole.fleet);
  assert.equal(packed.merged.count, 8);
  assert.equal(JSON.stringify(merged), JSON.stringify(whole.fleet));
  const document = {
    ...packed.merged.head,
    servers: packed.merged.servers(),
    complete: packed.merged.complete,
    passed: packed.merged.passed,
  };
  assert.equal([...jsonPieces(document)].join(""), JSON.stringify(whole.fleet, null, 2) + "\n");
});

Deno.test("render a merge: every format as for the whole report, in pieces, reading the servers one at a time in as many passes as it needs", async () => {
  const guidance: GuidanceReport = await read("guidance-0.2.0.json");
  const fleet = buildFleetReport("mcpServers", [
    { name: "a", report: { ...guidance, server: "a" } },
    { name: "b", reason: "disabled" },
    { name: "c", report: { ...guidance, server: "c" } },
  ]);
  let reads = 0;
  const source: RenderSource = {
    kind: "merge",
    fleet: {
      ...fleet,
      servers: {
        *[Symbol.iterator]() {
          reads++;
          // A fresh copy each time, as a merge parses its packed servers.
          for (const server of fleet.servers) yield structuredClone(server);
        },
      },
    },
  };
  const modules = await loadFormats([...FORMATS, "summary"]);
  // How many times a format reads the servers: totals first where it needs them (json and
  // github once, junit twice, text, sarif and the summary three times), never more.
  const MOST_PASSES = 3;
  for (const [format, module] of modules) {
    const before = reads;
    const options = { color: false };
    const rendered = module.render(source, options);
    assert.notEqual(typeof rendered, "string", format);
    assert.equal(
      [...rendered].join(""),
      [...module.render({ kind: "fleet", fleet }, options)].join(""),
      format,
    );
    const passes = reads - before;
    assert.ok(passes >= 1 && passes <= MOST_PASSES, `${format}: ${passes} passes`);
  }
});
