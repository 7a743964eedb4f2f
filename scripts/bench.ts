/**
 * The benchmark suite: each case runs several times; medians and ratios come from the same run.
 * Prints a Markdown table (and writes it to --out FILE when given).
 *
 *   deno task bench [--runs 5] [--out bench.md] [--config-only | --fidelity-only | --bounds-only
 *     | --shard-only | --merge-memory-only [--merge-formats FORMAT,...,all]
 *     | --render-only | --observe-only]
 *
 * Needs: the pinned server-everything (deno.json), and Node.js with npm for the MCP Inspector CLI,
 * which is installed once into $TMPDIR/mcpeval-bench-inspector at the pinned version.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { codeGraph } from "./code_graph.ts";
import { mergeMemoryBench, shardBench } from "./bench_shards.ts";
import { renderBench } from "./bench_render.ts";
import { boundsBench, type StartHttp } from "./bench_bounds.ts";
import { GOALS } from "./bench_goals.ts";
import { observeBench } from "./bench_observe.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
const INSPECTOR_VERSION = "2.12.0";
const EVERYTHING = [
  DENO,
  "run",
  "--quiet",
  "-A",
  "npm:@modelcontextprotocol/server-everything@2026.8.31",
];
const MCPEVAL = [DENO, "run", "--quiet", `--allow-run=${DENO}`, join(ROOT, "main.ts")];
/** The SDK v2 fixture over stdio: it serves both protocol eras. */
const V2 = [DENO, "run", "--quiet", join(ROOT, "fixtures", "v2_server.ts")];
/** The reference-detection benchmark per pathological family. */
const REFERENCES = join(ROOT, "scripts", "bench_references.ts");
/** The floor: server processes fed the same messages without mcpeval. */
const RAW = join(ROOT, "scripts", "raw_clients.ts");
/** A minimal stdio server: answers at once, two tools. */
const TINY = [
  DENO,
  "run",
  "--quiet",
  "--allow-env",
  join(ROOT, "fixtures", "hostile.ts"),
  "default",
];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "5" },
    out: { type: "string" },
    // Only the `--config` cases (7): for a quick look while developing.
    "config-only": { type: "boolean", default: false },
    // Only the `--shard` and `merge` cases (scripts/bench_shards.ts).
    "shard-only": { type: "boolean", default: false },
    // Only the memory of a merge of 8 reports of about 55 MiB (scripts/bench_shards.ts).
    "merge-memory-only": { type: "boolean", default: false },
    // With --merge-memory-only: only these of its runs (format ids, `all`: every one at once, `sigint`).
    "merge-formats": { type: "string" },
    // Only the renders of hostile reports (11, scripts/bench_render.ts).
    "render-only": { type: "boolean", default: false },
    // Only the client-fidelity cases (9, scripts/bench_fidelity.ts).
    "fidelity-only": { type: "boolean", default: false },
    // Only the memory bounds of the worst inputs (3, scripts/bench_bounds.ts).
    "bounds-only": { type: "boolean", default: false },
    // Only `--observe` against the client's headless run alone (10, scripts/bench_observe.ts).
    "observe-only": { type: "boolean", default: false },
  },
  strict: true,
});
const RUNS = Number(values.runs);
/** 9. Client fidelity: 10,000 realistic schemas under `--client all`, and schema size scaling. */
const FIDELITY = join(ROOT, "scripts", "bench_fidelity.ts");
async function fidelity(): Promise<string> {
  const output = await new Deno.Command(DENO, {
    args: ["run", "--quiet", "-A", FIDELITY, "--runs", String(RUNS)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("scripts/bench_fidelity.ts failed");
  return new TextDecoder().decode(output.stdout).trim();
}
if (values["fidelity-only"]) {
  const table =
    `9. Client fidelity (\`scripts/bench_fidelity.ts\`, medians of ${RUNS} runs):\n\n${await fidelity()}\n`;
  await Deno.stdout.write(new TextEncoder().encode(table));
  if (values.out) await Deno.writeTextFile(values.out, table);
  Deno.exit(0);
}

interface Sample {
  readonly ms: number;
  readonly peakMib?: number;
}

/** Runs `command` once; fails loudly on an unexpected exit code. */
async function once(
  command: string[],
  expectCode = 0,
  env: Record<string, string> = {},
): Promise<Sample> {
  const started = performance.now();
  const output = await new Deno.Command(command[0], {
    args: command.slice(1),
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const stderr = new TextDecoder().decode(output.stderr);
  if (output.code !== expectCode) {
    throw new Error(
      `${command.slice(0, 6).join(" ")}...: exit ${output.code}\n${stderr.slice(0, 2000)}`,
    );
  }
  const peak = /peak_rss_kib=(\d+)/.exec(stderr)?.[1];
  return { ms, peakMib: peak === undefined ? undefined : Number(peak) / 1024 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Runs each command RUNS times, interleaved so that drift affects every case alike. */
async function measure(
  cases: Record<string, { command: string[]; code?: number }>,
): Promise<Record<string, { ms: number; peakMib?: number }>> {
  const samples: Record<string, Sample[]> = Object.fromEntries(
    Object.keys(cases).map((k) => [k, []]),
  );
  for (const { command, code } of Object.values(cases)) await once(command, code); // warm-up
  for (let run = 0; run < RUNS; run++) {
    for (const [name, { command, code }] of Object.entries(cases)) {
      samples[name].push(await once(command, code));
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [name, {
      ms: median(list.map((s) => s.ms)),
      peakMib: list[0].peakMib === undefined ? undefined : median(list.map((s) => s.peakMib!)),
    }]),
  );
}

async function inspectorCli(): Promise<string[]> {
  const prefix = join(Deno.env.get("TMPDIR") ?? "/tmp", "mcpeval-bench-inspector");
  const cli = join(
    prefix,
    "node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js",
  );
  try {
    await Deno.stat(cli);
  } catch {
    const install = await new Deno.Command("npm", {
      args: [
        "install",
        "--prefix",
        prefix,
        "--no-audit",
        "--no-fund",
        `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
      ],
      stdout: "null",
    }).output();
    if (!install.success) throw new Error("could not install the MCP Inspector");
  }
  return ["node", cli];
}

/** Starts an HTTP fixture and returns its URL and a stop function. */
async function startHttp(
  file: string,
  ...args: string[]
): ReturnType<StartHttp> {
  const child = new Deno.Command(DENO, {
    args: ["run", "--quiet", "-A", join(ROOT, "fixtures", file), ...args],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening on (\S+)\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${file} did not start`);
    text += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return {
    url: `http://${/listening on (\S+)\n/.exec(text)![1]}/mcp`,
    // SIGTERM: the fixture stops the server processes it started, then exits (SIGKILL after 5 s).
    stop: async () => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await child.status;
      clearTimeout(timer);
    },
  };
}

/** mcpeval guidance over HTTP, with net permission for the fixture's host only. */
const httpGuidance = (...args: string[]) => [
  DENO,
  "run",
  "--quiet",
  `--allow-net=${new URL(args[args.length - 1]).host}`,
  join(ROOT, "main.ts"),
  "guidance",
  "--server",
  "bench",
  "--format",
  "json",
  ...args,
];

/** mcpeval in tests/_measure.ts (peak RSS) on 10,000 large tools, five profiles. */
const measured = (denoFlags: string[]) => [
  DENO,
  "run",
  "--quiet",
  "-A",
  ...denoFlags,
  join(ROOT, "tests", "_measure.ts"),
  "guidance",
  "--server",
  "bench",
  "--format",
  "json",
  "--settle-ms",
  "0",
  "--",
  DENO,
  "run",
  "--quiet",
  "--allow-env",
  join(ROOT, "fixtures", "hostile.ts"),
  "tools-10000-large",
];

const guidance = (
  ...args: string[]
) => [...MCPEVAL, "guidance", "--server", "bench", "--format", "json", ...args];
/** A `--config` file of `count` copies of a server command line, named s1, s2, ... */
async function fleetConfig(count: number, command: string[]): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "mcpeval-bench-", suffix: ".json" });
  const mcpServers = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`s${i + 1}`, {
      command: command[0],
      args: command.slice(1),
    }]),
  );
  await Deno.writeTextFile(path, JSON.stringify({ mcpServers }));
  return path;
}

/** A stdio server that takes 1 s from process start to reading its first message. */
const SLOW = [
  DENO,
  "run",
  "--quiet",
  "--allow-env",
  join(ROOT, "fixtures", "hostile.ts"),
  "slow-start",
];
const slowFleet = await fleetConfig(10, SLOW);
const everythingFleet = await fleetConfig(10, [...EVERYTHING, "stdio"]);
const configGuidance = (config: string, ...args: string[]) => [
  DENO,
  "run",
  "--quiet",
  `--allow-read=${config}`,
  `--allow-run=${DENO}`,
  join(ROOT, "main.ts"),
  "guidance",
  "--format",
  "json",
  "--config",
  config,
  ...args,
];
const CONFIG_CASES = {
  slowTen: {
    command: configGuidance(slowFleet, "--profile", "none", "--settle-ms", "0", "--jobs", "10"),
  },
  slowOne: { command: guidance("--profile", "none", "--settle-ms", "0", "--", ...SLOW) },
  fleet50: { command: configGuidance(everythingFleet, "--settle-ms", "0", "--jobs", "50") },
  raw50: {
    command: [
      DENO,
      "run",
      "--quiet",
      "--allow-run",
      "--allow-read",
      RAW,
      "--config",
      everythingFleet,
    ],
  },
  fleet8: { command: configGuidance(everythingFleet, "--settle-ms", "0") },
  fleetMemory: {
    command: [
      DENO,
      "run",
      "--quiet",
      "-A",
      join(ROOT, "tests", "_measure.ts"),
      "guidance",
      "--format",
      "json",
      "--config",
      everythingFleet,
      "--settle-ms",
      "0",
      "--jobs",
      "50",
    ],
  },
};

const rows: string[] = [];
const row = (...cells: (string | number)[]) => rows.push(`| ${cells.join(" | ")} |`);
const ms = (value: number) => `${Math.round(value)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

if (values["merge-memory-only"] || values["render-only"]) {
  await Deno.remove(slowFleet);
  await Deno.remove(everythingFleet);
  if (values["merge-memory-only"]) {
    await mergeMemoryBench({ measure, once, row, ms, ratio }, values["merge-formats"]?.split(","));
  }
  if (values["render-only"]) await renderBench({ measure, once, row, ms, ratio });
  await Deno.stdout.write(new TextEncoder().encode(rows.join("\n") + "\n"));
  if (values.out) await Deno.writeTextFile(values.out, rows.join("\n") + "\n");
  Deno.exit(0);
}

if (values["observe-only"]) {
  await Deno.remove(slowFleet);
  await Deno.remove(everythingFleet);
  await observeBench({ measure, once, row, ms, ratio });
  await Deno.stdout.write(new TextEncoder().encode(rows.join("\n") + "\n"));
  Deno.exit(0);
}

if (values["shard-only"] || values["bounds-only"]) {
  await Deno.remove(slowFleet);
  await Deno.remove(everythingFleet);
  if (values["shard-only"]) {
    await shardBench({ measure, once, row, ms, ratio });
    await mergeMemoryBench({ measure, once, row, ms, ratio });
  }
  if (values["bounds-only"]) await boundsBench({ measure, once, row, ms, ratio, startHttp });
  await Deno.stdout.write(new TextEncoder().encode(rows.join("\n") + "\n"));
  Deno.exit(0);
}

const inspector = values["config-only"] ? [] : await inspectorCli();
const empty = await Deno.makeTempFile({ suffix: ".ts" });
// The same, inside the project: deno.json and deno.lock are read, as for main.ts.
const emptyHere = await Deno.makeTempFile({ dir: ROOT, prefix: ".bench-empty-", suffix: ".ts" });
// server-everything over Streamable HTTP: one `stdio` process of it per session.
// A real SDK server (v2, both eras) bound to 127.0.0.1; server-everything listens on every
// interface in its own HTTP mode.
const http = await startHttp("v2_server.ts", "http");
try {
  const c = await measure(CONFIG_CASES);
  const r = values["config-only"] ? undefined : await measure({
    five: { command: guidance("--settle-ms", "0", "--", ...EVERYTHING, "stdio") },
    sequential: {
      command: guidance("--settle-ms", "0", "--concurrency", "1", "--", ...EVERYTHING, "stdio"),
    },
    one: {
      command: guidance("--settle-ms", "0", "--profile", "none", "--", ...EVERYTHING, "stdio"),
    },
    raw: {
      command: [DENO, "run", "--quiet", "--allow-run", RAW, "--", ...EVERYTHING, "stdio"],
    },
    rawOne: {
      command: [
        DENO,
        "run",
        "--quiet",
        "--allow-run",
        RAW,
        "--profiles",
        "none",
        "--",
        ...EVERYTHING,
        "stdio",
      ],
    },
    tiny: {
      command: guidance("--settle-ms", "0", "--profile", "none", "--", ...TINY),
    },
    rawTiny: {
      command: [DENO, "run", "--quiet", "--allow-run", RAW, "--profiles", "none", "--", ...TINY],
    },
    // With another option before it, --help goes through the argument parser (alone it does not).
    guidanceHelp: { command: [...MCPEVAL, "guidance", "--server", "bench", "--help"] },
    v2Legacy: {
      command: guidance("--settle-ms", "0", "--protocol-version", "2025-06-18", "--", ...V2),
    },
    v2Modern: {
      command: guidance("--settle-ms", "0", "--protocol-version", "2026-07-28", "--", ...V2),
    },
    v2Auto: {
      command: guidance("--settle-ms", "0", "--protocol-version", "auto", "--", ...V2),
    },
    five500: { command: guidance("--settle-ms", "500", "--", ...EVERYTHING, "stdio") },
    one500: {
      command: guidance("--settle-ms", "500", "--profile", "none", "--", ...EVERYTHING, "stdio"),
    },
    inspector: { command: [...inspector, "--method", "tools/list", ...EVERYTHING, "stdio"] },
    // Issue 31: one `enum` of 1,000,000 numbers (7 MB), every preset's rules, ajv included.
    enumMillion: {
      command: guidance(
        "--settle-ms",
        "0",
        "--client",
        "all",
        "--",
        DENO,
        "run",
        "--quiet",
        "--allow-env",
        join(ROOT, "fixtures", "hostile.ts"),
        "enum-1000000",
      ),
    },
    httpFive: { command: httpGuidance("--settle-ms", "0", "--url", http.url) },
    httpOne: { command: httpGuidance("--settle-ms", "0", "--profile", "none", "--url", http.url) },
    large: { command: measured([]) },
    largeTuned: { command: measured(["--v8-flags=--max-semi-space-size=2"]) },
    version: { command: [...MCPEVAL, "--version"] },
    schema: { command: [...MCPEVAL, "schema", "guidance"] },
    empty: { command: [DENO, "run", "--quiet", empty] },
    emptyHere: { command: [DENO, "run", "--quiet", emptyHere] },
  });

  row("case", "median", "ratio", "goal");
  row("---", "---:", "---:", "---");
  if (r) {
    row(
      "1. stdio, 5 profiles at once (server-everything, settle 0)",
      ms(r.five.ms),
      `${ratio(r.five.ms, r.one.ms)} of one profile`,
      "",
    );
    row(
      "1. floor: the same 5 server processes at once, fed the same messages without mcpeval",
      ms(r.raw.ms),
      `mcpeval 5 profiles = ${ratio(r.five.ms, r.raw.ms)} of it`,
      GOALS.fiveProfiles.goal,
    );
    row(
      "1. floor: one server process fed the same messages without mcpeval",
      ms(r.rawOne.ms),
      `mcpeval one profile = ${ratio(r.one.ms, r.rawOne.ms)} of it`,
      "",
    );
    row(
      "1. stdio, 5 profiles one after another (`--concurrency 1`)",
      ms(r.sequential.ms),
      `${ratio(r.sequential.ms, r.one.ms)} of one profile`,
      "",
    );
    row("1. stdio, one profile (`--profile none`)", ms(r.one.ms), "1.00x", "");
    row(
      "1. stdio, 5 profiles at once, settle 500 ms",
      ms(r.five500.ms),
      `${ratio(r.five500.ms, r.one500.ms)} of one profile`,
      "",
    );
    row("1. stdio, one profile, settle 500 ms", ms(r.one500.ms), "1.00x", "");
    row(
      "2. MCP Inspector CLI, `tools/list` once (one profile)",
      ms(r.inspector.ms),
      `mcpeval 5 profiles = ${ratio(r.five.ms, r.inspector.ms)} of it`,
      GOALS.inspector.goal,
    );
    row(
      "3. 10,000 large tools x 20 pages x 5 profiles",
      ms(r.large.ms),
      `peak RSS ${Math.round(r.large.peakMib!)} MiB`,
      GOALS.largeTools.goal,
    );
    row(
      "3. the same with `--v8-flags=--max-semi-space-size=2` (baked into the binaries)",
      ms(r.largeTuned.ms),
      `peak RSS ${Math.round(r.largeTuned.peakMib!)} MiB`,
      GOALS.largeToolsTuned.goal,
    );
    await boundsBench({ measure, once, row, ms, ratio, startHttp });
    row(
      "3. one tool with an `enum` of 1,000,000 numbers (7 MB) under `--client all` (every preset)",
      ms(r.enumMillion.ms),
      `${ratio(r.enumMillion.ms, r.tiny.ms)} of a minimal server, one profile`,
      "",
    );
    row(
      "4. `mcpeval --version`",
      ms(r.version.ms),
      `${ratio(r.version.ms, r.empty.ms)} of empty script`,
      GOALS.version.goal,
    );
    row(
      "4. `mcpeval schema guidance`",
      ms(r.schema.ms),
      `${ratio(r.schema.ms, r.empty.ms)} of empty script`,
      GOALS.schema.goal,
    );
    row(
      "4. `mcpeval guidance --server bench --help` (loads the argument parser)",
      ms(r.guidanceHelp.ms),
      `${ratio(r.guidanceHelp.ms, r.empty.ms)} of empty script`,
      "",
    );
    row(
      "4. `mcpeval guidance` start to finish on a minimal server, one profile, settle 0",
      ms(r.tiny.ms),
      `${ratio(r.tiny.ms, r.rawTiny.ms)} of the same server fed without mcpeval (${
        ms(r.rawTiny.ms)
      })`,
      GOALS.minimalRun.goal,
    );
    const graph = await codeGraph(DENO, ROOT, "main.ts");
    row(
      "4. what Deno reads before the first line: local modules, npm packages (`deno info main.ts`, code imports)",
      `${
        graph.modules.filter((module) => module.startsWith("file:")).length
      }, ${graph.packages.length}`,
      "",
      "",
    );
    row("4. `deno run` of an empty script", ms(r.empty.ms), "1.00x", "");
    row(
      "4. `deno run` of an empty script in the project (reads deno.json, deno.lock)",
      ms(r.emptyHere.ms),
      `${ratio(r.emptyHere.ms, r.empty.ms)} of empty script`,
      "",
    );
    row(
      "5. Streamable HTTP, 5 profiles (`fixtures/v2_server.ts`, SDK v2, settle 0)",
      ms(r.httpFive.ms),
      `${ratio(r.httpFive.ms, r.httpOne.ms)} of one profile`,
      GOALS.http.goal,
    );
    row("5. Streamable HTTP, one profile", ms(r.httpOne.ms), "1.00x", "");
    row(
      "6. stdio, 5 profiles, protocol 2026-07-28 (`fixtures/v2_server.ts`, settle 0)",
      ms(r.v2Modern.ms),
      `${ratio(r.v2Modern.ms, r.v2Legacy.ms)} of 2025-06-18`,
      "",
    );
    row(
      "6. stdio, 5 profiles, `--protocol-version auto` (the same server: the probe is answered)",
      ms(r.v2Auto.ms),
      `${ratio(r.v2Auto.ms, r.v2Legacy.ms)} of 2025-06-18`,
      "",
    );
    row(
      "6. stdio, 5 profiles, protocol 2025-06-18 (the same server)",
      ms(r.v2Legacy.ms),
      "1.00x",
      "",
    );
  }
  row(
    "8. `--config`: 10 servers each taking 1 s to start, one profile each (`--jobs 10`)",
    ms(c.slowTen.ms),
    `${ratio(c.slowTen.ms, c.slowOne.ms)} of one such server`,
    GOALS.slowFleet.goal,
  );
  row("8. one such server, one profile", ms(c.slowOne.ms), "1.00x", "");
  row(
    "8. `--config`: 10 server-everything x 5 profiles at `--jobs 50` (settle 0)",
    ms(c.fleet50.ms),
    `${ratio(c.fleet50.ms, c.raw50.ms)} of the floor`,
    "",
  );
  row(
    "8. floor: the same 50 server processes at once, fed the same messages without mcpeval",
    ms(c.raw50.ms),
    "1.00x",
    "",
  );
  row(
    "8. `--config`: the same at the default `--jobs 8`",
    ms(c.fleet8.ms),
    `${ratio(c.fleet8.ms, c.fleet50.ms)} of \`--jobs 50\``,
    "",
  );
  row(
    "8. `--config`: 10 server-everything x 5 profiles, `--jobs 50`: mcpeval's peak memory",
    ms(c.fleetMemory.ms),
    `peak RSS ${Math.round(c.fleetMemory.peakMib!)} MiB`,
    "",
  );
  await shardBench({ measure, once, row, ms, ratio });
  await mergeMemoryBench({ measure, once, row, ms, ratio });
  await renderBench({ measure, once, row, ms, ratio });
  await observeBench({ measure, once, row, ms, ratio });
} finally {
  await Deno.remove(slowFleet);
  await Deno.remove(everythingFleet);
  await http.stop();
  await Deno.remove(empty);
  await Deno.remove(emptyHere);
}

// 7. Reference detection on hostile instructions: each pathological family at 1x, 2x and 4x.
const references = await new Deno.Command(DENO, {
  args: ["run", "--quiet", "--allow-run", "--allow-read", REFERENCES, "--cap", "2"],
  cwd: ROOT,
  stdout: "piped",
  stderr: "inherit",
}).output();
if (!references.success) throw new Error("scripts/bench_references.ts failed");

const table =
  `Medians of ${RUNS} runs (after one warm-up), ${Deno.build.target}, deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores.\n\n${
    rows.join("\n")
  }\n\n7. Reference detection on hostile instructions (\`scripts/bench_references.ts\`):\n\n${
    new TextDecoder().decode(references.stdout).trim()
  }\n\n9. Client fidelity (\`scripts/bench_fidelity.ts\`):\n\n${await fidelity()}\n`;
await Deno.stdout.write(new TextEncoder().encode(table));
if (values.out) await Deno.writeTextFile(values.out, table);
