/**
 * The benchmark rows of the bounds the tests no longer assert (a test must not depend on the
 * machine's speed): mcpeval's peak memory and time on the worst inputs of `fixtures/hostile.ts`
 * and `fixtures/http_hostile.ts`, five profiles each, and on a baseline with 220,000 resolved
 * findings. Run by scripts/bench.ts with its own measuring (`deno task bench --bounds-only` runs
 * only these). The figures docs/hostile-servers.md states come from here.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchTools } from "./bench_shards.ts";

/** Starts an HTTP fixture of `fixtures/` and returns its URL and a stop function. */
export type StartHttp = (
  file: string,
  ...args: string[]
) => Promise<{ url: string; stop: () => Promise<void> }>;
import { FORMATS } from "../src/report/formats/mod.ts";
import { GOALS } from "./bench_goals.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
/** Findings a baseline resolves in the baseline row (tests/baseline_bounds_test.ts lists them). */
const RESOLVED = 220_000;

/** mcpeval in tests/_measure.ts (the CLI in-process, then its peak RSS), five profiles. */
const measured = (server: string, ...args: string[]) => [
  DENO,
  "run",
  "--quiet",
  "-A",
  join(ROOT, "tests", "_measure.ts"),
  "guidance",
  "--server",
  server,
  "--format",
  "json",
  "--settle-ms",
  "0",
  // The longest deadline: only the bounds end these profiles.
  "--timeout-ms",
  "300000",
  ...args,
];
const hostile = (scenario: string) => [
  "--",
  DENO,
  "run",
  "--quiet",
  "--allow-env",
  join(ROOT, "fixtures", "hostile.ts"),
  scenario,
];

/** Writes the 220,000-finding baseline of the baseline row into `dir`. */
async function largeBaseline(dir: string): Promise<string> {
  const baseline = JSON.parse(
    await Deno.readTextFile(join(ROOT, "tests", "data", "baselines", "guidance-0.2.0.json")),
  );
  baseline.defects = [];
  for (let i = 0; i < RESOLVED; i++) {
    baseline.candidates.push({
      kind: "referenced-tool-unavailable",
      profile: "none",
      tool: `gone-tool-${i}`,
      available_in: ["all"],
      hint: "worded by an earlier version",
    });
  }
  const path = join(dir, "baseline.json");
  await Deno.writeTextFile(path, JSON.stringify(baseline));
  return path;
}

/** Measures the bound cases and adds their rows. */
export async function boundsBench(
  { measure, row, ms, startHttp }: BenchTools & { readonly startHttp: StartHttp },
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-bench-bounds-" });
  const bomb = await startHttp("http_hostile.ts", "gzip-bomb");
  try {
    const baseline = await largeBaseline(dir);
    const outputs = FORMATS.filter((id) => id !== "text").flatMap((format) => [
      "--output",
      `${format}=${join(dir, `report.${format}`)}`,
    ]);
    const b = await measure({
      emptyObjects: { command: measured("bench", ...hostile("huge-empty-objects")), code: 3 },
      nesting: { command: measured("bench", ...hostile("huge-nesting")), code: 3 },
      lineAtLimit: { command: measured("bench", ...hostile("line-at-limit")) },
      gzipBomb: { command: measured("bench", "--url", bomb.url), code: 3 },
      baseline: {
        command: [
          ...measured("demo", "--baseline", baseline, ...outputs),
          "--",
          DENO,
          "run",
          "--quiet",
          "--allow-env",
          join(ROOT, "fixtures", "demo", "server.ts"),
        ],
      },
    });
    const peak = (value: { peakMib?: number }) => `peak RSS ${Math.round(value.peakMib!)} MiB`;
    row(
      "3. 5 profiles of 20 million `{}` in one 60 MB stdio line (`message-too-large`)",
      ms(b.emptyObjects.ms),
      peak(b.emptyObjects),
      GOALS.emptyObjects.goal,
    );
    row(
      "3. 5 profiles of 30 million nested arrays in one line (`message-too-large`)",
      ms(b.nesting.ms),
      peak(b.nesting),
      GOALS.nesting.goal,
    );
    row(
      "3. 5 profiles of one 64 MiB stdio line each (at the bound, complete)",
      ms(b.lineAtLimit.ms),
      peak(b.lineAtLimit),
      GOALS.lineAtLimit.goal,
    );
    row(
      "3. 5 profiles of a gzip bomb over HTTP (200 MiB in 200 KB, `message-too-large`)",
      ms(b.gzipBomb.ms),
      peak(b.gzipBomb),
      GOALS.gzipBomb.goal,
    );
    row(
      `3. a baseline with ${RESOLVED.toLocaleString("en-US")} resolved findings, 4 report files`,
      ms(b.baseline.ms),
      peak(b.baseline),
      GOALS.largeBaseline.goal,
    );
  } finally {
    await bomb.stop();
    await Deno.remove(dir, { recursive: true });
  }
}
