/**
 * The benchmark rows of `--observe` (issue 40), run by scripts/bench.ts with its own measuring
 * (`deno task bench --observe-only` runs only these): Claude Code at its newest observed version, its
 * cache warm, once through mcpeval (`--observe`, the demo server behind the discovery-only
 * proxy), against the same client's headless run alone with the demo server in its config
 * (scripts/headless_client.ts: the same stand-in, temporary HOME and run scope, no mcpeval); at
 * the settle window 0 (what the proxy adds) and at the default 1500 ms (the proxy holds the
 * client's first `tools/list` for it). Needs the npm registry once, to fill the cache.
 *
 * @module
 */
import { GOALS } from "./bench_goals.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchTools } from "./bench_shards.ts";
import { newestObserved } from "../src/clients/presets.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();
const CLIENT = "claude-code";

/** Measures the `--observe` cases and adds their rows. */
export async function observeBench({ measure, once, row, ms, ratio }: BenchTools): Promise<void> {
  const version = newestObserved(CLIENT)!;
  const demo = [DENO, "run", "--quiet", join(ROOT, "fixtures", "demo", "server.ts")];
  const observe = (settle: string) => [
    DENO,
    "run",
    "--quiet",
    "--allow-run",
    "--allow-env",
    "--allow-read",
    "--allow-write",
    "--allow-net=127.0.0.1",
    join(ROOT, "main.ts"),
    "guidance",
    "--observe",
    `${CLIENT}@${version}`,
    "--settle-ms",
    settle,
    "--",
    ...demo,
  ];
  // Installs the client into the lab's cache, once (the cases then find it warm).
  await once(observe("0"));
  // The headless run's server gets the Deno cache it is warm in (the client clears the env).
  const info = await new Deno.Command(DENO, { args: ["info", "--json"], stdout: "piped" }).output();
  const denoDir: string = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
  const r = await measure({
    observe0: { command: observe("0") },
    observe1500: { command: observe("1500") },
    headless: {
      command: [
        "env",
        `DENO_DIR=${denoDir}`,
        DENO,
        "run",
        "--quiet",
        "-A",
        join(ROOT, "scripts", "headless_client.ts"),
        CLIENT,
        version,
        "--",
        ...demo,
      ],
    },
  });
  row(
    `10. \`--observe ${CLIENT}@${version}\` on the demo server, warm cache, settle 0`,
    ms(r.observe0.ms),
    `${ratio(r.observe0.ms, r.headless.ms)} of the client's headless run alone`,
    GOALS.observe.goal,
  );
  row(
    "10. the same at the default settle window (1500 ms, the first `tools/list` held for it)",
    ms(r.observe1500.ms),
    `${ratio(r.observe1500.ms, r.headless.ms)} of the client's headless run alone`,
    "",
  );
  row(
    `10. floor: ${CLIENT} ${version} headless alone, the demo server in its config (\`scripts/headless_client.ts\`)`,
    ms(r.headless.ms),
    "1.00x",
    "",
  );
}
