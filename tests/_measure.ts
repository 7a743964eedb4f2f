/**
 * Runs the CLI in this process and then reports its peak resident set size (Linux) on stderr as
 * `peak_rss_kib=N`. Used by the memory test and the benchmark.
 *
 *   deno run -A tests/_measure.ts guidance ...
 */
import { processContext } from "../src/cli/process.ts";
import { run } from "../src/cli/run.ts";

const code = await run(Deno.args, processContext());
const status = Deno.readTextFileSync("/proc/self/status");
const peak = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
await Deno.stderr.write(new TextEncoder().encode(`peak_rss_kib=${peak}\n`));
Deno.exit(code);
