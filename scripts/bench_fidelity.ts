/**
 * Client-fidelity benchmark: 10,000 tools with realistic schemas under `--client all` plus the
 * five profiles, with and without the schema rules (peak RSS from tests/_measure.ts), and the
 * schema analysis alone at 1x, 2x and 4x schema size. Prints a Markdown table.
 *
 *   deno run -A scripts/bench_fidelity.ts [--runs 3]
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { realisticTool } from "../fixtures/realistic_tools.ts";
import { RULE_KIND_IDS } from "../src/clients/rules/registry.ts";
import { extractorsFor, prepareRules } from "../src/clients/rules/registry.ts";
import { builtinPresets } from "../src/clients/presets.ts";
import { PROFILES } from "../src/profiles.ts";
import { GOALS } from "./bench_goals.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "3" } },
  strict: true,
});
const RUNS = Number(values.runs);

/** A `--client-file` that replaces every built-in preset with itself minus its schema rules. */
async function withoutSchemaRules(): Promise<string> {
  const data = JSON.parse(await Deno.readTextFile(join(ROOT, "src", "clients", "clients.json")));
  for (const preset of Object.values(data.clients) as { rules: { id: string }[] }[]) {
    preset.rules = preset.rules.filter((rule) => !rule.id.startsWith("schema-"));
  }
  const path = await Deno.makeTempFile({ prefix: "mcpeval-bench-", suffix: ".json" });
  await Deno.writeTextFile(path, JSON.stringify(data));
  return path;
}

const SERVER = [
  DENO,
  "run",
  "--quiet",
  "--allow-env",
  join(ROOT, "fixtures", "hostile.ts"),
  "tools-10000-realistic",
];
/** As many profiles as the five and every preset (`--client all`). */
const PROFILE_COUNT = PROFILES.length + builtinPresets().size;

const run = (...extra: string[]) => [
  "run",
  "--quiet",
  "-A",
  join(ROOT, "tests", "_measure.ts"),
  "guidance",
  "--server",
  "bench",
  "--format",
  "json",
  "--settle-ms",
  "0",
  ...PROFILES.flatMap((profile) => ["--profile", profile]),
  "--client",
  "all",
  ...extra,
  "--",
  ...SERVER,
];

/** The floor: the same server processes, five at once as at the default `--concurrency`, fed
 * the same messages (every page) without mcpeval. */
const floor = [
  "run",
  "--quiet",
  "--allow-run",
  join(ROOT, "scripts", "raw_clients.ts"),
  "--profiles",
  Array.from({ length: PROFILE_COUNT }, (_, i) => PROFILES[i % PROFILES.length]).join(","),
  "--jobs",
  "5",
  "--",
  ...SERVER,
];

async function once(args: string[]): Promise<{ ms: number; mib: number }> {
  const started = performance.now();
  const output = await new Deno.Command(DENO, { args, cwd: ROOT, stdout: "null", stderr: "piped" })
    .output();
  const ms = performance.now() - started;
  const stderr = new TextDecoder().decode(output.stderr);
  if (output.code !== 0) throw new Error(`exit ${output.code}\n${stderr.slice(0, 2000)}`);
  // Only a run through tests/_measure.ts reports its peak (not the floor's raw clients).
  const peak = /peak_rss_kib=(\d+)/.exec(stderr);
  return { ms, mib: peak ? Number(peak[1]) / 1024 : NaN };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function measure(args: string[]) {
  await once(args); // warm-up
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await once(args));
  return { ms: median(samples.map((s) => s.ms)), mib: median(samples.map((s) => s.mib)) };
}

const plain = await withoutSchemaRules();
const rows: string[] = [];
try {
  const withRules = await measure(run());
  const without = await measure(run("--client-file", plain));
  const floorMs = (await measure(floor)).ms;
  const profiles = PROFILE_COUNT;
  rows.push(
    "| case | median | peak RSS | goal |",
    "| --- | ---: | ---: | --- |",
    `| 9. 10,000 realistic tools (300 B-3 KB schemas), 5 profiles + \`--client all\` (${profiles} profiles) | ${
      Math.round(withRules.ms)
    } ms | ${Math.round(withRules.mib)} MiB | ${GOALS.everyPreset.goal} |`,
    `| 9. the same without schema rules (\`--client-file\` without them) | ${
      Math.round(without.ms)
    } ms | ${Math.round(without.mib)} MiB | |`,
    `| 9. floor: the same ${profiles} server processes, 5 at once, fed every page without mcpeval | ${
      Math.round(floorMs)
    } ms | | mcpeval = ${(withRules.ms / floorMs).toFixed(2)}x of it |`,
  );
} finally {
  await Deno.remove(plain);
}

// The schema analysis alone (every schema rule's fact), in process, at 1x, 2x and 4x size.
const rules = RULE_KIND_IDS.filter((id) => id.startsWith("schema-")).map((id) => ({ id }));
await prepareRules(rules);
const extractors = extractorsFor(rules);
rows.push(
  "",
  "| schema size | KB of schemas | facts of 2,000 tools | µs per KB |",
  "| --- | ---: | ---: | ---: |",
);
for (const scale of [1, 2, 4]) {
  const text = JSON.stringify(
    Array.from({ length: 2_000 }, (_, i) => realisticTool(`tool-${i}`, i, scale)),
  );
  const kb = text.length / 1024;
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const tools = JSON.parse(text) as Record<string, unknown>[];
    const started = performance.now();
    for (const tool of tools) for (const extractor of extractors) extractor.extract(tool);
    times.push(performance.now() - started);
  }
  const ms = median(times);
  rows.push(
    `| ${scale}x | ${Math.round(kb)} | ${ms.toFixed(1)} ms | ${(ms * 1000 / kb).toFixed(2)} |`,
  );
}
await Deno.stdout.write(new TextEncoder().encode(rows.join("\n") + "\n"));
