/**
 * Reading the files a run is given (`--config` and its env files, `--baseline`,
 * `--client-file`) from the real file system, bounded in bytes.
 *
 * @module
 */
import { FileTooLargeError } from "../errors.ts";
import type { RunEffects } from "./effects.ts";

/**
 * Reads a UTF-8 text file (`-`: standard input), at most `maxBytes` bytes of it: past that it
 * throws {@linkcode FileTooLargeError}.
 */
export async function readTextFile(path: string, maxBytes = Infinity): Promise<string> {
  if (path === "-") return await readBounded(Deno.stdin, maxBytes);
  using file = await Deno.open(path, { read: true });
  if ((await file.stat()).isDirectory) throw new Deno.errors.IsADirectory("a folder");
  return await readBounded(file, maxBytes);
}

async function readBounded(
  reader: { read(buffer: Uint8Array): Promise<number | null> },
  maxBytes: number,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(1 << 20);
  for (let read; (read = await reader.read(buffer)) !== null;) {
    total += read;
    if (total > maxBytes) throw new FileTooLargeError(maxBytes);
    chunks.push(buffer.slice(0, read));
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Deno.errors.InvalidData("not UTF-8");
  }
}

/** The effects of a run in this process: Deno's environment, permissions and file system. */
export function denoRunEffects(): RunEffects {
  return {
    env: (name) => Deno.env.get(name),
    permission: async (descriptor) => (await Deno.permissions.query(descriptor)).state,
    readTextFile,
    cwd: () => Deno.cwd(),
    openTransport: async (target, version) =>
      (await import("../transport/open.ts")).openTransport(target, version),
  };
}
