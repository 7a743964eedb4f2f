/**
 * Builds the self-contained `mcpeval` executables with `deno compile`, one per target, into
 * `dist/`, and writes `dist/SHA256SUMS`.
 *
 *   deno task compile                     # all six targets
 *   deno task compile --target x86_64-unknown-linux-gnu
 *
 * Baked permissions (see README, "Distribution"): --allow-run (the server command is only known
 * at run time; unscoped, it also lets mcpeval end a wrapper's whole process group), --allow-net
 * (the --url host is only known at run time; mcpeval's own policy still refuses non-loopback
 * plain HTTP), --allow-env (for --header NAME=ENV_VAR). No read, write, ffi or sys permission.
 * `--no-prompt` makes a missing permission an error, never a question. V8 flags: see
 * BAKED_V8_FLAGS.
 */
import { parseArgs } from "node:util";

/** Every target `deno compile` supports. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
] as const;

/** The permissions baked into the binaries. */
export const BAKED_PERMISSIONS = ["--allow-run", "--allow-net", "--allow-env"] as const;

/**
 * V8 flags baked into the binaries: a 2 MB young generation keeps the peak memory of huge
 * catalogs low (5 profiles x 10,000 large tools: about 190 MiB instead of 265 MiB, measured
 * with `deno task bench`, at no measurable cost in time).
 */
export const BAKED_V8_FLAGS = "--v8-flags=--max-semi-space-size=2";

/** The output name of one target's binary. */
export function binaryName(target: string): string {
  return `mcpeval-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The arguments to `deno` that compile `main.ts` for `target` into `outDir`, flags baked in.
 * `main.ts` has no `--include`: its own modules' dynamic imports are string literals, which
 * `deno compile` follows by itself (the committed observation `--observe` reads is a template of
 * a fixed folder; the binary, without read permission, never runs `--observe`), and its npm
 * packages are imported by literal names and are in the lockfile's npm snapshot, which
 * `deno compile` embeds whole (without `--exclude-unused-npm`).
 *
 * @example
 * ```ts
 * compileArgs("x86_64-pc-windows-msvc", "dist");
 * // ["compile", "--v8-flags=--max-semi-space-size=2", "--no-prompt", "--allow-run", "--allow-net",
 * //  "--allow-env", "--target", "x86_64-pc-windows-msvc",
 * //  "--output", "dist/mcpeval-x86_64-pc-windows-msvc.exe", "main.ts"]
 * ```
 */
export function compileArgs(target: string, outDir: string): string[] {
  return [
    "compile",
    BAKED_V8_FLAGS,
    "--no-prompt",
    ...BAKED_PERMISSIONS,
    "--target",
    target,
    "--output",
    outputPath(target, outDir),
    "main.ts",
  ];
}

function outputPath(target: string, outDir: string): string {
  return `${outDir}/${binaryName(target)}`;
}

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      target: { type: "string", multiple: true },
      out: { type: "string", default: "dist" },
    },
    strict: true,
  });
  const targets = values.target ?? [...TARGETS];
  await Deno.mkdir(values.out, { recursive: true });
  const sums: string[] = [];
  for (const target of targets) {
    const output = outputPath(target, values.out);
    const { code } = await new Deno.Command("deno", { args: compileArgs(target, values.out) })
      .spawn().status;
    if (code !== 0) {
      await Deno.stderr.write(new TextEncoder().encode(`compile: ${target} failed\n`));
      Deno.exit(1);
    }
    sums.push(`${await sha256(output)}  ${binaryName(target)}`);
  }
  await Deno.writeTextFile(`${values.out}/SHA256SUMS`, sums.join("\n") + "\n");
}
