/**
 * No tracked file names the npm registry's host: scripts read it from `npm config get registry`,
 * evidence cites a package as `npm:NAME@VERSION`. The host is npm's own setting, so this test
 * reads it there too; without npm, a registry URL, or a git checkout it says so and skips.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_cli.ts";

/** The output of `command args` in the clone, or undefined when it cannot run or fails. */
async function output(command: string, ...args: string[]): Promise<Uint8Array | undefined> {
  try {
    const result = await new Deno.Command(command, {
      args,
      cwd: ROOT,
      stdin: "null",
      stderr: "null",
    }).output();
    return result.success ? result.stdout : undefined;
  } catch {
    return undefined;
  }
}

/** The registry's host name, or why the test cannot run. */
async function registryHost(): Promise<string | { skip: string }> {
  const out = await output("npm", "config", "get", "registry");
  if (out === undefined) return { skip: "npm is not installed" };
  const url = URL.parse(new TextDecoder().decode(out).trim());
  if (url === null) return { skip: "npm config get registry gave no URL" };
  // A local registry (a loopback name or an address) is no public host to keep out.
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(url.hostname) || /^[\d.]+$/.test(url.hostname)) {
    return { skip: `the registry is local (${url.hostname})` };
  }
  return url.hostname;
}

const host = await registryHost();
const files = await output("git", "ls-files", "-z");
const skip = typeof host === "object"
  ? host.skip
  : files === undefined
  ? "git ls-files cannot list the tracked files here"
  : undefined;
if (skip !== undefined) {
  await Deno.stderr.write(
    new TextEncoder().encode(`SKIPPED no tracked file names the npm registry's host: ${skip}\n`),
  );
}

Deno.test({
  name: "no tracked file names the npm registry's host (npm config get registry)",
  ignore: skip !== undefined,
  fn: async () => {
    const name = (host as string).toLowerCase();
    const paths = new TextDecoder().decode(files).split("\0").filter((path) => path !== "");
    assert.ok(paths.length > 100, `${paths.length} tracked files`);
    const decoder = new TextDecoder();
    const naming: string[] = [];
    for (const path of paths) {
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(join(ROOT, path));
      } catch {
        continue; // deleted in the work tree, not yet in the index
      }
      if (decoder.decode(bytes).toLowerCase().includes(name)) naming.push(path);
    }
    assert.deepEqual(naming, [], `files naming the registry's host`);
  },
});
