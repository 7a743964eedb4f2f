/**
 * The benchmark rows of `--shard` and `mcpeval merge` (issue 23), run by scripts/bench.ts with its
 * own measuring (`deno task bench --shard-only` runs only these):
 *
 * - a config of 100 fixture servers, each taking 200 ms to start, one profile, `--jobs 16`,
 *   against the same 100 server processes (16 at once) fed the same messages without mcpeval,
 *   and mcpeval's peak memory on it;
 * - the same config as 4 shards run one after another, and the merge of their reports;
 * - the merge of 8 shard reports of 1,000 servers in all;
 * - ({@linkcode mergeMemoryBench}, `deno task bench --merge-memory-only` runs only it) mcpeval's
 *   peak memory merging 8 shard reports of about 55 MiB each, in each format alone and in every
 *   format at once, one run each.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { shardOfLabel } from "../src/request/shard.ts";
import { GOALS } from "./bench_goals.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import { stopRender } from "./bench_render.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
const RAW = join(ROOT, "scripts", "raw_clients.ts");
/** A stdio server that takes 200 ms from process start to reading its first message. */
const SLOW_200 = [
  DENO,
  "run",
  "--quiet",
  "--allow-env",
  join(ROOT, "fixtures", "hostile.ts"),
  "slow-start-200",
];

/** What scripts/bench.ts lends: its interleaved medians, one run, and its table rows. */
export interface BenchTools {
  readonly measure: (
    cases: Record<string, { command: string[]; code?: number }>,
  ) => Promise<Record<string, { ms: number; peakMib?: number }>>;
  readonly once: (command: string[], code?: number) => Promise<{ ms: number; peakMib?: number }>;
  readonly row: (...cells: (string | number)[]) => void;
  readonly ms: (value: number) => string;
  readonly ratio: (a: number, b: number) => string;
}

/** `count` copies of `command` as `mcpServers` entries named `${prefix}1`, `${prefix}2`, ... */
function servers(count: number, command: readonly string[], prefix = "s") {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`${prefix}${i + 1}`, {
      command: command[0],
      args: command.slice(1),
    }]),
  );
}

/** Measures the shard and merge cases and adds their rows. */
export async function shardBench({ measure, row, ms, ratio }: BenchTools): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-bench-shards-" });
  try {
    const config = join(dir, "fleet100.json");
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: servers(100, SLOW_200) }));
    const mcpeval = (...args: string[]) => [
      DENO,
      "run",
      "--quiet",
      `--allow-read=${dir}`,
      `--allow-write=${dir}`,
      `--allow-run=${DENO}`,
      join(ROOT, "main.ts"),
      ...args,
    ];
    const fleet = ["--config", config, "--profile", "none", "--settle-ms", "0", "--jobs", "16"];
    const shardFiles = [1, 2, 3, 4].map((i) => join(dir, `shard-${i}.json`));

    // 1,000 servers' reports in 8 shard files, built from a real report of one server.
    const one = join(dir, "one.json");
    await Deno.writeTextFile(one, JSON.stringify({ mcpServers: servers(1, SLOW_200, "m") }));
    const output = await new Deno.Command(DENO, {
      args: mcpeval("guidance", "--config", one, "--profile", "none", "--format", "json").slice(1),
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error("the one-server report for the merge bench failed");
    const template = JSON.parse(new TextDecoder().decode(output.stdout));
    const bigFiles = Array.from({ length: 8 }, (_, i) => join(dir, `big-${i + 1}.json`));
    const names = Array.from({ length: 1000 }, (_, i) => `m${i + 1}`);
    for (const [i, path] of bigFiles.entries()) {
      const mine = names.filter((name) => shardOfLabel(name, 8) === i + 1);
      const entry = template.servers[0];
      await Deno.writeTextFile(
        path,
        JSON.stringify({
          ...template,
          shard: { index: i + 1, count: 8 },
          servers: mine.map((name) => ({
            ...entry,
            name,
            report: { ...entry.report, server: name },
          })),
        }),
      );
    }

    const r = await measure({
      fleet: { command: mcpeval("guidance", ...fleet, "--format", "json") },
      raw: {
        command: [
          DENO,
          "run",
          "--quiet",
          "--allow-run",
          "--allow-read",
          RAW,
          "--profiles",
          "none",
          "--jobs",
          "16",
          "--config",
          config,
        ],
      },
      memory: {
        command: [
          DENO,
          "run",
          "--quiet",
          "-A",
          join(ROOT, "tests", "_measure.ts"),
          "guidance",
          ...fleet,
          "--format",
          "json",
        ],
      },
      ...Object.fromEntries(shardFiles.map((path, i) => [`shard${i + 1}`, {
        command: mcpeval(
          "guidance",
          ...fleet,
          "--shard",
          `${i + 1}/4`,
          "--format",
          "json",
          "--output",
          `json=${path}`,
        ),
      }])),
      merge4: { command: mcpeval("merge", ...shardFiles, "--format", "json") },
      merge4Sarif: {
        command: mcpeval(
          "merge",
          ...shardFiles,
          "--format",
          "github",
          "--output",
          `sarif=${join(dir, "m.sarif")}`,
          "--output",
          `junit=${join(dir, "m.xml")}`,
        ),
      },
      merge1000: { command: mcpeval("merge", ...bigFiles, "--format", "json") },
      merge1000Memory: {
        command: [
          DENO,
          "run",
          "--quiet",
          "-A",
          join(ROOT, "tests", "_measure.ts"),
          "merge",
          ...bigFiles,
          "--format",
          "sarif",
        ],
      },
    });
    const shardsTotal = [1, 2, 3, 4].reduce((sum, i) => sum + r[`shard${i}`].ms, 0);
    row(
      "9. `--config`: 100 servers each taking 200 ms to start, one profile, `--jobs 16`",
      ms(r.fleet.ms),
      `${ratio(r.fleet.ms, r.raw.ms)} of the floor`,
      GOALS.hundredServers.goal,
    );
    row(
      "9. floor: the same 100 server processes, 16 at once, fed the same messages without mcpeval",
      ms(r.raw.ms),
      "1.00x",
      "",
    );
    row(
      "9. the same 100 servers: mcpeval's peak memory",
      ms(r.memory.ms),
      `peak RSS ${Math.round(r.memory.peakMib!)} MiB`,
      GOALS.hundredServersMemory.goal,
    );
    row(
      "9. the same as `--shard 1/4` ... `4/4` one after another (sum)",
      ms(shardsTotal),
      `${ratio(shardsTotal, r.fleet.ms)} of one run`,
      "",
    );
    row("9. `merge` of those 4 shard reports (JSON)", ms(r.merge4.ms), "", GOALS.mergeFour.goal);
    row(
      "9. `merge` of those 4, as github with SARIF and JUnit files",
      ms(r.merge4Sarif.ms),
      "",
      "",
    );
    row(
      "9. `merge` of 8 shard reports of 1,000 servers in all (JSON)",
      ms(r.merge1000.ms),
      "",
      GOALS.mergeThousand.goal,
    );
    row(
      "9. the same merge as SARIF: mcpeval's peak memory",
      ms(r.merge1000Memory.ms),
      `peak RSS ${Math.round(r.merge1000Memory.peakMib!)} MiB`,
      "",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Each report of {@linkcode mergeMemoryBench}: about 55 MiB, under the 64 MiB input bound. */
const LARGE_REPORT_BYTES = 55 * 1024 * 1024;

/**
 * mcpeval's peak memory merging 8 shard reports of about 55 MiB each (copies of a real
 * one-server report under distinct labels), one run per format (JSON on stdout and to a file:
 * the document is past the runtime's longest string), then every format in one run. The reports
 * are folded in one at a time, each parsed and validated a server entry at a time and its
 * garbage collected before the next, and the merged servers kept packed; every format renders
 * from them one server at a time, in pieces. Then SIGINT during each format's render. `formats`:
 * only the runs of these (a format's id, `all` for every format in one run, `sigint` for the
 * signals).
 */
export async function mergeMemoryBench(
  { once, row, ms }: BenchTools,
  formats?: readonly string[],
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-bench-merge-" });
  try {
    const one = join(dir, "one.json");
    await Deno.writeTextFile(one, JSON.stringify({ mcpServers: servers(1, SLOW_200, "m") }));
    const output = await new Deno.Command(DENO, {
      args: [
        "run",
        "--quiet",
        `--allow-read=${dir}`,
        `--allow-run=${DENO}`,
        join(ROOT, "main.ts"),
        "guidance",
        "--config",
        one,
        "--profile",
        "none",
        "--format",
        "json",
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error("the one-server report for the merge bench failed");
    const template = JSON.parse(new TextDecoder().decode(output.stdout));
    const entry = template.servers[0];
    const parts = Array.from({ length: 8 }, () => ({ servers: [] as string[], bytes: 0 }));
    for (let k = 1; parts.some((part) => part.bytes < LARGE_REPORT_BYTES); k++) {
      const name = `m${k}`;
      const part = parts[shardOfLabel(name, 8) - 1];
      if (part.bytes >= LARGE_REPORT_BYTES) continue;
      const text = JSON.stringify({ ...entry, name, report: { ...entry.report, server: name } });
      part.servers.push(text);
      part.bytes += text.length + 1;
    }
    const files = parts.map((_, i) => join(dir, `large-${i + 1}.json`));
    const counts = parts.map((part) => part.servers.length);
    for (const [i, part] of parts.entries()) {
      const head = JSON.stringify({ ...template, shard: { index: i + 1, count: 8 }, servers: [] });
      await Deno.writeTextFile(
        files[i],
        head.replace('"servers":[]', `"servers":[${part.servers.join(",")}]`),
      );
      part.servers = [];
    }
    const sizes = await Promise.all(files.map(async (file) => (await Deno.stat(file)).size));
    const largest = Math.max(...sizes) / 1024 / 1024;
    const total = counts.reduce((a, b) => a + b, 0).toLocaleString("en-US");
    // Each format alone on stdout (JSON also to a file), then every format in one run (JSON on
    // stdout, the others to files): each renders from the packed servers, one at a time.
    const OTHERS = FORMATS.filter((format) => format !== "json");
    const runs: { id: string; name: string; args: string[]; goal: string }[] = [
      {
        id: "json",
        name: "json",
        args: ["--format", "json", "--output", `json=${join(dir, "merged.json")}`],
        goal: GOALS.mergeMemory.goal,
      },
      ...OTHERS.map((format) => ({
        id: format,
        name: format,
        args: ["--format", format],
        goal: GOALS.mergeMemory.goal,
      })),
      {
        id: "all",
        name: `every format in one run (json on stdout, ${OTHERS.join(", ")} files)`,
        args: [
          "--format",
          "json",
          ...OTHERS.flatMap((format) => [
            "--output",
            `${format}=${join(dir, `merged.${format}`)}`,
          ]),
        ],
        goal: GOALS.mergeMemoryAll.goal,
      },
    ];
    for (const { id, name, args, goal } of runs) {
      if (formats && !formats.includes(id)) continue;
      const run = await once([
        DENO,
        "run",
        "--quiet",
        "-A",
        join(ROOT, "tests", "_measure.ts"),
        "merge",
        ...files,
        ...args,
      ]);
      let written = 0;
      for (const entry of Deno.readDirSync(dir)) {
        if (!entry.name.startsWith("merged.")) continue;
        written += Deno.statSync(join(dir, entry.name)).size / 1024 / 1024;
        Deno.removeSync(join(dir, entry.name));
      }
      row(
        `9. \`merge\` of 8 shard reports ${id === "all" ? "in every format at once, " : ""}of ${
          Math.round(largest)
        } MiB each (${total} servers), as ${name}${
          written === 0 ? "" : ` (${Math.round(written).toLocaleString("en-US")} MiB of files)`
        }: mcpeval's peak memory, one run`,
        ms(run.ms),
        // `once` fails loudly on any other exit code than 0.
        `peak RSS ${Math.round(run.peakMib!)} MiB, exit 0`,
        goal,
      );
    }
    // SIGINT a second into each format's render of the merged report.
    if (formats && !formats.includes("sigint")) return;
    for (const format of FORMATS) {
      const stopped = await stopRender(
        [
          DENO,
          "run",
          "--quiet",
          `--allow-read=${dir}`,
          `--allow-write=${dir}`,
          join(ROOT, "main.ts"),
          "merge",
          ...files,
          "--format",
          "json",
        ],
        format,
        dir,
        1_000,
      );
      row(
        `9. SIGINT a second into that merge's render as ${format}: from the signal to the exit`,
        stopped === undefined ? "-" : ms(stopped.ms),
        stopped === undefined ? "ended before the signal" : `exit ${stopped.code}`,
        GOALS.mergeInterrupt.goal,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
