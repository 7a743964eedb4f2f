/**
 * Runs the real CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal
 * would: stdout and stderr are the terminal unless the shell line redirects them.
 */
import { join } from "node:path";
import { assertNoneLeft, childEnv, DENO, ProcessMarker, ROOT } from "./_cli.ts";

/** Whether `script` can give a test a pseudo-terminal here. */
export const HAS_SCRIPT: boolean = Deno.build.os === "linux" &&
  (() => {
    try {
      return new Deno.Command("script", { args: ["--version"] }).outputSync().success;
    } catch {
      return false;
    }
  })();

/**
 * Only what Deno needs to find itself, its cache and the network ({@linkcode childEnv}); no
 * NO_COLOR from the test runner.
 */
export function baseEnv(): Record<string, string> {
  return childEnv();
}

/** Quotes one word for `sh`. */
function quote(word: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** What a terminal run showed: everything the terminal received, and the exit code. */
export interface TerminalResult {
  /** stdout and stderr as the terminal got them (with `\r\n` line ends). */
  readonly screen: string;
  readonly code: number;
}

/**
 * Runs `mcpeval ARGS` on a fresh pseudo-terminal of `columns` columns, with Deno `permissions`,
 * the environment `env` only, and `redirect` (shell redirections such as `2>FILE`) appended.
 */
export async function onTerminal(
  args: readonly string[],
  { env = baseEnv(), permissions = [`--allow-run=${DENO}`], columns = 100, redirect = "" }: {
    env?: Record<string, string>;
    permissions?: readonly string[];
    columns?: number;
    redirect?: string;
  } = {},
): Promise<TerminalResult> {
  const line = [DENO, "run", "--quiet", ...permissions, join(ROOT, "main.ts"), ...args]
    .map(quote).join(" ");
  const marker = new ProcessMarker();
  const child = new Deno.Command("script", {
    args: ["-qec", `stty cols ${columns} rows 50; ${line} ${redirect}`, "/dev/null"],
    env: { ...env, ...marker.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Bounded: a run that waits on the terminal (a permission prompt, say) is killed after 60 s,
  // and what is left of it is reaped below.
  const bound = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const output = await child.output().finally(() => clearTimeout(bound));
  assertNoneLeft(await marker.reap(), "mcpeval on a terminal");
  return { screen: new TextDecoder().decode(output.stdout), code: output.code };
}
