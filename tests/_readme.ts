/** The README's commands as a test runs them: its shell lines, and its install line installed. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, DENO, type ProcessMarker, ROOT } from "./_cli.ts";

/** The README, as committed. */
export const README: string = await Deno.readTextFile(join(ROOT, "README.md"));

/** The shell commands of the README's code blocks, continuation lines joined. */
export function commands(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  return blocks.flatMap((block) =>
    block.replaceAll(/\\\n\s*/g, "").split("\n").map((line) => line.replace(/\s+#.*$/, "").trim())
  ).filter((line) => line !== "" && !line.startsWith("#"));
}

/** Splits a README command into words (none of them is quoted). */
export const words = (line: string) => line.split(/\s+/);

/** What an installed `mcpeval` printed. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options for {@linkcode installReadmeLine}. */
export interface InstallOptions {
  /** Variables set for the install and for every run, over what they get otherwise. */
  readonly env?: Record<string, string>;
  /** Ends a run (SIGTERM) after this many milliseconds (default: no bound). */
  readonly boundMs?: number;
  /** The README's second install line, for `--observe` (`--allow-read` unscoped). */
  readonly observe?: boolean;
}

/**
 * Installs the README's clone install line (its flags as written) into `root`, and returns a
 * runner of `mcpeval ...` lines in folder `cwd` (default the clone) with the command on PATH.
 */
export async function installReadmeLine(
  root: string,
  marker: ProcessMarker,
  { env: extra = {}, boundMs, observe = false }: InstallOptions = {},
): Promise<(line: string, cwd?: string) => Promise<Run>> {
  const install = commands().find((line) =>
    line.startsWith("deno install -g") &&
    line.endsWith(observe ? " --allow-read main.ts" : "main.ts")
  );
  assert.ok(install, "the README shows how to install from a clone");
  const [, , ...flags] = words(install);
  const installed = await new Deno.Command(DENO, {
    args: ["install", "-g", "--root", root, ...flags],
    cwd: ROOT,
    env: extra,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(installed.code, 0, new TextDecoder().decode(installed.stderr));
  // The shim calls `deno` by name, as it would on a person's PATH.
  const env = {
    ...marker.env,
    NO_COLOR: "1",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    ...childEnv(),
    PATH: `${join(root, "bin")}:${DENO.replace(/\/[^/]+$/, "")}:${Deno.env.get("PATH")}`,
    ...extra,
  };
  return async (line, cwd = ROOT) => {
    const [command, ...args] = words(line);
    assert.equal(command, "mcpeval");
    const output = await new Deno.Command(command, {
      args,
      cwd,
      env,
      clearEnv: true,
      stdin: "null",
      signal: boundMs === undefined ? undefined : AbortSignal.timeout(boundMs),
    })
      .output();
    return {
      code: output.code,
      stdout: new TextDecoder().decode(output.stdout),
      stderr: new TextDecoder().decode(output.stderr),
    };
  };
}
