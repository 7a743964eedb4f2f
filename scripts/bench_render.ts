/**
 * The benchmark rows of rendering hostile reports (issue 39), run by scripts/bench.ts with its
 * own measuring (`deno task bench --render-only` runs only these): `merge` of one schema-valid
 * report whose one server has N identical review candidates (one tool, one profile; copies of a
 * real report's candidate), in every format:
 *
 * - at 40,000 and 80,000 candidates (medians), and the ratio of the two (doubling the findings
 *   costs at most 2.5x the time);
 * - at 230,537 candidates (a 62-64 MiB report, under the input bound), one run each;
 * - SIGINT 100 ms into the render of 230,537: the time from the signal to the exit (130).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_BASELINE_BYTES } from "../src/limits.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import type { BenchTools } from "./bench_shards.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
/** The sizes measured: N, 2N, and the largest report the input bound lets through. */
const SIZES = [40_000, 80_000] as const;
const LARGEST = 230_537;
/** How long after its render started a run is sent SIGINT. */
const SIGNAL_AFTER_MS = 100;

/** The report of one real run of the demo server (5 profiles, 9 review candidates). */
async function template(dir: string): Promise<Record<string, unknown>> {
  const config = join(dir, "demo.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: {
        demo: { command: DENO, args: ["run", "--quiet", join(ROOT, "fixtures", "demo_server.ts")] },
      },
    }),
  );
  const output = await new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--allow-read=${dir}`,
      `--allow-run=${DENO}`,
      join(ROOT, "main.ts"),
      "guidance",
      "--config",
      config,
      "--settle-ms",
      "100",
      "--format",
      "json",
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  // The demo server's candidates never fail the gate: exit 0.
  if (!output.success) throw new Error("the demo report for the render bench failed");
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/** Writes the template with `count` copies of its first candidate; returns the path. */
async function identical(
  dir: string,
  fleet: Record<string, unknown>,
  count: number,
): Promise<string> {
  const [server] = fleet.servers as { report: { candidates: unknown[] } }[];
  const report = { ...server.report, candidates: [] };
  const candidate = JSON.stringify(server.report.candidates[0]);
  const text = JSON.stringify({ ...fleet, servers: [{ ...server, report }] }).replace(
    '"candidates":[]',
    `"candidates":[${Array.from({ length: count }, () => candidate).join(",")}]`,
  );
  if (text.length > MAX_BASELINE_BYTES) throw new Error(`${count} candidates: over the bound`);
  const path = join(dir, `identical-${count}.json`);
  await Deno.writeTextFile(path, text);
  return path;
}

/** `mcpeval merge FILE --format FORMAT` (with write permission for `write`). */
function merge(file: string, format: string, write?: string): string[] {
  return [
    DENO,
    "run",
    "--quiet",
    `--allow-read=${file}`,
    ...(write === undefined ? [] : [`--allow-write=${write}`]),
    join(ROOT, "main.ts"),
    "merge",
    file,
    "--format",
    format,
  ];
}

/** A run stopped with SIGINT: how long the exit took after the signal, and its code. */
export interface Stopped {
  /** Milliseconds from the signal to the exit. */
  readonly ms: number;
  readonly code: number;
}

/**
 * SIGINT during a render: `command` (a merge) plus `--output FORMAT=FILE`, which it renders
 * first; the file is created when the render starts (the reservation comes right before it),
 * and the signal is sent `afterMs` later. Undefined when the run ended before the signal.
 */
export async function stopRender(
  command: string[],
  format: string,
  dir: string,
  afterMs: number,
): Promise<Stopped | undefined> {
  const file = join(dir, `interrupted.${format}`);
  await Deno.remove(file).catch(() => {});
  const child = new Deno.Command(command[0], {
    args: [...command.slice(1), "--output", `${format}=${file}`],
    cwd: ROOT,
    stdout: "null",
    stderr: "null",
  }).spawn();
  let ended = false;
  const status = child.status.then((status) => {
    ended = true;
    return status;
  });
  const exists = () => Deno.stat(file).then(() => true, () => false);
  while (!ended && !(await exists())) await new Promise((resolve) => setTimeout(resolve, 5));
  await Promise.race([status, new Promise((resolve) => setTimeout(resolve, afterMs))]);
  if (ended) return undefined;
  const signalled = performance.now();
  child.kill("SIGINT");
  const { code } = await status;
  return { ms: performance.now() - signalled, code };
}

/** Measures the render cases and adds their rows. */
export async function renderBench({ measure, once, row, ms, ratio }: BenchTools): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-bench-render-" });
  try {
    const fleet = await template(dir);
    const files = new Map<number, string>();
    for (const count of [...SIZES, LARGEST]) files.set(count, await identical(dir, fleet, count));
    const r = await measure(Object.fromEntries(
      FORMATS.flatMap((format) =>
        SIZES.map((count) => [`${format}${count}`, { command: merge(files.get(count)!, format) }])
      ),
    ));
    for (const format of FORMATS) {
      const [small, large] = SIZES.map((count) => r[`${format}${count}`].ms);
      row(
        `11. \`merge --format ${format}\`, one server of ${
          SIZES[0].toLocaleString("en-US")
        } identical review candidates`,
        ms(small),
        "",
        format === "text" ? "< 2 s" : "",
      );
      row(
        `11. the same with ${SIZES[1].toLocaleString("en-US")}`,
        ms(large),
        `${ratio(large, small)} of ${SIZES[0].toLocaleString("en-US")}`,
        "≤ 2.50x",
      );
    }
    const largest = files.get(LARGEST)!;
    const size = (await Deno.stat(largest)).size / 1024 / 1024;
    for (const format of FORMATS) {
      const whole = await once(merge(largest, format));
      row(
        `11. \`merge --format ${format}\`, ${
          LARGEST.toLocaleString("en-US")
        } identical candidates (${size.toFixed(0)} MiB), one run`,
        ms(whole.ms),
        "",
        format === "text" ? "< 10 s" : "",
      );
      const stopped = await stopRender(
        merge(largest, "json", dir),
        format,
        dir,
        SIGNAL_AFTER_MS,
      );
      row(
        `11. SIGINT ${SIGNAL_AFTER_MS} ms into that render: from the signal to the exit`,
        stopped === undefined ? "-" : ms(stopped.ms),
        stopped === undefined ? "ended before the signal" : `exit ${stopped.code}`,
        "< 1 s, exit 130",
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
