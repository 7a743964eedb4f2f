/**
 * Reference detection on hostile instructions: for each pathological family at 1x, 2x and 4x
 * sizes (4x = 1 MiB), the time and peak memory of `inlineCodeSpans` (src/analysis/code_spans.ts)
 * and of commonmark.js (`npm:commonmark`, what src/analysis/code_spans.ts uses), each case in its
 * own subprocess; commonmark.js is killed after --cap seconds. Prints a Markdown table.
 *
 *   deno run --allow-run --allow-read scripts/bench_references.ts [--cap 5] [--base 262144]
 *     [--family NAME]...
 *
 * Peak memory is the subprocess's peak resident set (VmHWM in /proc/self/status) less its
 * resident set just before the call, with the input already built; where /proc is missing it
 * falls back to Deno.memoryUsage().rss after the call.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// @ts-types="@types/commonmark"
import { Parser } from "commonmark";
import { inlineCodeSpans } from "../src/analysis/code_spans.ts";

/** A hostile input of about `size` characters. */
const FAMILIES: Record<string, (size: number) => string> = {
  "nested brackets `[[[…`": (size) => "[".repeat(size),
  "unclosed links `[a](b`": (size) => "[a](b".repeat(size / 5),
  "images `![[]()`": (size) => "![[]()".repeat(size / 6),
  // After text, so the line is a paragraph rather than an HTML block.
  "HTML comments `a <!--`": (size) => "a " + "<!--".repeat(size / 4),
  "declarations `a <!X`": (size) => "a " + "<!X".repeat(size / 3),
  "nested lists `- - - a`": (size) => "- ".repeat(size / 2) + "a",
  "backtick runs 1, 2, 3, …": (size) => {
    const parts: string[] = [];
    for (let k = 1, total = 0; total < size; total += k + 2, k++) parts.push("`".repeat(k), "a ");
    return parts.join("");
  },
  "link reference definitions": (size) => {
    const parts: string[] = [];
    for (let i = 0, total = 0; total < size; i++) {
      const line = `[l${i}]: /u${i} "t"\n`;
      parts.push(line);
      total += line.length;
    }
    return parts.join("");
  },
  "`[a` ×N": (size) => "[a".repeat(size / 2),
  // Beyond the list: quadratic spots of commonmark.js found while porting it.
  "deep list + blank lines": (size) => "- ".repeat(size / 4) + "a" + "\n".repeat(size / 2),
  'unclosed titles `[a](b "`': (size) => '[a](b "'.repeat(size / 7),
  // commonmark.js's reLinkTitle backtracks over both readings of each `\"`: 2^k steps.
  'escaped quotes `[a](b "\\"\\"…`': (size) => '[a](b "' + '\\"'.repeat(size / 2),
};

const IMPLEMENTATIONS: Record<string, (markdown: string) => Set<string>> = {
  linear: inlineCodeSpans,
  "commonmark.js": (markdown) => {
    const spans = new Set<string>();
    const walker = new Parser().parse(markdown).walker();
    for (let event = walker.next(); event !== null; event = walker.next()) {
      if (event.entering && event.node.type === "code" && event.node.literal !== null) {
        spans.add(event.node.literal);
      }
    }
    return spans;
  },
};

const encoder = new TextEncoder();
const print = (text: string) => Deno.stdout.writeSync(encoder.encode(text));

/** Resident set size and its peak, in bytes, from /proc/self/status (undefined elsewhere). */
function residentSet(): { rss: number; peak: number } | undefined {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rss: kib("VmRSS") * 1024, peak: kib("VmHWM") * 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Child mode: runs one case `runs` times (and more, up to 50, until the runs add up to 500 ms),
 * printing `{ ms, bytes, length, spans }` per run.
 */
function runCase(family: string, size: number, implementation: string, runs: number): void {
  const make = FAMILIES[family];
  const run = IMPLEMENTATIONS[implementation];
  run(make(1024)); // load and compile the code paths on a small input
  const markdown = make(size);
  const before = residentSet();
  const rssBefore = before?.rss ?? Deno.memoryUsage().rss;
  let total = 0;
  for (let i = 0; i < runs || (runs > 1 && total < 500 && i < 50); i++) {
    const started = performance.now();
    const spans = run(markdown);
    const ms = performance.now() - started;
    total += ms;
    const bytes = (residentSet()?.peak ?? Deno.memoryUsage().rss) - rssBefore;
    print(JSON.stringify({ ms, bytes, length: markdown.length, spans: spans.size }) + "\n");
  }
}

type Result = { ms: number; bytes: number; length: number } | "timeout" | "skipped";

/** Parent mode: one subprocess per case, killed after `capSeconds`. */
async function measure(
  family: string,
  size: number,
  implementation: string,
  capSeconds: number,
  runs: number,
): Promise<Result> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--v8-flags=--max-old-space-size=4096",
      fileURLToPath(import.meta.url),
      "--child",
      JSON.stringify([family, size, implementation, runs]),
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, capSeconds * 1000);
  const output = await child.output();
  clearTimeout(timer);
  if (timedOut) return "timeout";
  if (!output.success) {
    throw new Error(
      `${implementation} on ${family} x${size}: exit ${output.code}\n` +
        new TextDecoder().decode(output.stderr).slice(0, 2000),
    );
  }
  const samples = new TextDecoder().decode(output.stdout).trim().split("\n").map((line) =>
    JSON.parse(line) as { ms: number; bytes: number; length: number }
  );
  // The fastest run (the least disturbed by the rest of a shared machine); the memory of the
  // first run (the peak cannot go down afterwards).
  return { ...samples[0], ms: Math.min(...samples.map((sample) => sample.ms)) };
}

const { values } = parseArgs({
  args: Deno.args,
  options: {
    child: { type: "string" },
    cap: { type: "string", default: "5" },
    base: { type: "string", default: String(256 * 1024) },
    family: { type: "string", multiple: true },
  },
  strict: true,
});

if (values.child !== undefined) {
  const [family, size, implementation, runs] = JSON.parse(values.child);
  runCase(family, size, implementation, runs);
} else {
  const cap = Number(values.cap);
  const base = Number(values.base);
  const families = values.family ?? Object.keys(FAMILIES);
  for (const family of families) {
    if (!(family in FAMILIES)) {
      throw new Error(`unknown family ${family}: ${Object.keys(FAMILIES)}`);
    }
  }
  const cell = (result: Result) =>
    result === "timeout"
      ? `> ${cap} s (killed)`
      : result === "skipped"
      ? `(not run)`
      : `${result.ms.toFixed(result.ms < 10 ? 1 : 0)} ms, ` +
        `${(result.bytes / 2 ** 20).toFixed(1)} MiB`;
  const ratio = (a: Result, b: Result) =>
    typeof a === "string" || typeof b === "string"
      ? "–"
      : (b.ms / Math.max(a.ms, 0.001)).toFixed(1);
  print(
    `| family | input (1x / 2x / 4x) | linear 1x | linear 2x | linear 4x | linear 4x/1x time | ` +
      `commonmark.js 1x | commonmark.js 2x | commonmark.js 4x |\n` +
      `| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n`,
  );
  for (const family of families) {
    const sizes = [base, 2 * base, 4 * base];
    const linear: Result[] = [];
    const reference: Result[] = [];
    for (const size of sizes) linear.push(await measure(family, size, "linear", 120, 5));
    for (const size of sizes) {
      // Once commonmark.js exceeds the cap, larger sizes would too.
      const previous = reference.at(-1);
      reference.push(
        previous === "timeout" || previous === "skipped"
          ? "skipped"
          : await measure(family, size, "commonmark.js", cap, 1),
      );
    }
    const lengths = linear.map((r) =>
      typeof r === "string" ? "?" : `${Math.round(r.length / 1024)}`
    );
    print(
      `| ${family} | ${lengths.join(" / ")} KiB | ${linear.map(cell).join(" | ")} | ` +
        `${ratio(linear[0], linear[2])} | ${reference.map(cell).join(" | ")} |\n`,
    );
  }
  print(
    `\nTime is the call alone (linear: the fastest of at least 5 runs, more until they add up ` +
      `to 500 ms, at most 50; commonmark.js: 1 run); memory is the ` +
      `peak resident set added during the first call. ` +
      `commonmark.js is killed after ${cap} s; "(not run)": a smaller size already was.\n`,
  );
}
