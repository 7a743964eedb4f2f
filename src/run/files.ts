/**
 * Reading a file input (`--config` and the env files it names, `--baseline`, `--client-file`):
 * regular files only, opened without blocking, bounded in bytes and in time, and one fixed set
 * of phrases for what went wrong, whichever input it was.
 *
 * @module
 */
import { FILE_READ_DEADLINE_MS } from "../limits.ts";
import { before, DEADLINE } from "../time.ts";
import { FileTooLargeError } from "../errors.ts";
import type { RunEffects } from "./effects.ts";

/**
 * The file is a FIFO, a device or a socket: opening it may block until someone writes, and its
 * content has no end. Only regular files (and `-`, standard input) are read.
 */
export class NotRegularFileError extends Error {
  constructor() {
    super("not a regular file");
    this.name = "NotRegularFileError";
  }
}

/** Reading the file did not end within the deadline (an open pipe, a hung mount). */
export class ReadDeadlineError extends Error {
  /** The deadline, in milliseconds. */
  readonly deadlineMs: number;

  /** `deadlineMs` is the deadline that passed. */
  constructor(deadlineMs: number) {
    super(`not read within ${deadlineMs} ms`);
    this.name = "ReadDeadlineError";
    this.deadlineMs = deadlineMs;
  }
}

/**
 * Reads a UTF-8 text file (`-`: standard input), at most `maxBytes` bytes of it (past that a
 * {@linkcode FileTooLargeError}) and within `deadlineMs` (else a {@linkcode ReadDeadlineError}).
 * A FIFO, device or socket is refused before it is opened ({@linkcode NotRegularFileError}), a
 * folder with `IsADirectory`, text that is not UTF-8 with `InvalidData`.
 */
export async function readTextFile(
  path: string,
  maxBytes = Infinity,
  deadlineMs: number = FILE_READ_DEADLINE_MS,
): Promise<string> {
  const at = Date.now() + deadlineMs;
  let file: Deno.FsFile | undefined;
  const reading = (async () => {
    if (path === "-") return await readBounded(Deno.stdin, maxBytes);
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    regularOnly(await Deno.stat(path));
    file = await Deno.open(path, { read: true });
    // The path may have been replaced in between: check what was opened.
    const info = await file.stat();
    regularOnly(info);
    return await readBounded(file, maxBytes, info.size);
  })();
  try {
    const text = await before(at, reading);
    if (text === DEADLINE) {
      reading.catch(() => {}); // a read still pending ends with the process
      throw new ReadDeadlineError(deadlineMs);
    }
    return text;
  } finally {
    try {
      file?.close();
    } catch {
      // Already closed.
    }
  }
}

function regularOnly(info: Deno.FileInfo): void {
  if (info.isDirectory) throw new Deno.errors.IsADirectory("a folder");
  if (!info.isFile) throw new NotRegularFileError();
}

/**
 * Reads into one buffer (sized from `sizeHint`, the file's size when known, and grown by
 * doubling past it) and decodes it once: the bytes are held once, never as chunks plus a copy.
 */
async function readBounded(
  reader: { read(buffer: Uint8Array): Promise<number | null> },
  maxBytes: number,
  sizeHint = 0,
): Promise<string> {
  // One byte past the bound (or the size) shows that more came.
  const first = Math.max(1, Math.min(sizeHint + 1, maxBytes + 1));
  let bytes = new Uint8Array(Math.min(Math.max(first, 1 << 16), maxBytes + 1));
  let total = 0;
  for (;;) {
    if (total === bytes.length) {
      const grown = new Uint8Array(Math.min(bytes.length * 2, maxBytes + 1));
      if (grown.length === bytes.length) throw new FileTooLargeError(maxBytes);
      grown.set(bytes);
      bytes = grown;
    }
    const read = await reader.read(bytes.subarray(total));
    if (read === null) break;
    total += read;
    if (total > maxBytes) throw new FileTooLargeError(maxBytes);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, total));
  } catch {
    throw new Deno.errors.InvalidData("not UTF-8");
  }
}

/**
 * Why a file input could not be read, as fixed words (never the error's message, which holds
 * the path, nor its class name): the same phrase for every file input. `maxBytes` is the bound
 * the read was given (a `RangeError` that is not a {@linkcode FileTooLargeError} names it).
 */
export function readProblem(error: unknown, maxBytes: number): string {
  if (error instanceof RangeError) {
    return `it is larger than ${
      error instanceof FileTooLargeError ? error.maxBytes : maxBytes
    } bytes`;
  }
  if (error instanceof NotRegularFileError) {
    return "it is not a regular file: a FIFO, device or socket is not read";
  }
  if (error instanceof ReadDeadlineError) {
    return `it was not read within ${error.deadlineMs / 1000} s`;
  }
  if (error instanceof Deno.errors.NotFound) return "it does not exist";
  if (error instanceof Deno.errors.InvalidData) return "it is not UTF-8 text";
  return pathProblem(error) ?? "it could not be read";
}

/**
 * What reading and writing a file share: fixed words for a path that cannot be used (permission,
 * a folder, a loop), or undefined for any other error.
 */
export function pathProblem(error: unknown): string | undefined {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.NotCapable) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder";
  if (error instanceof Deno.errors.NotADirectory) return "a part of its path is not a folder";
  if (error instanceof Deno.errors.FilesystemLoop) return "its path loops through symbolic links";
  return undefined;
}

/**
 * An environment variable of this process, read only when `--allow-env` already covers it:
 * otherwise `NotCapable` is thrown, and Deno never prompts (a prompt would hang a run on a
 * terminal, and the answer is the permission the run was given).
 */
export function envVariable(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    throw new Deno.errors.NotCapable("env access not granted");
  }
  return Deno.env.get(name);
}

/** The effects of a run in this process: Deno's environment, permissions and file system. */
export function denoRunEffects(): RunEffects {
  return {
    env: envVariable,
    permission: async (descriptor) => (await Deno.permissions.query(descriptor)).state,
    readTextFile,
    cwd: () => Deno.cwd(),
    openTransport: async (target, version, hooks) =>
      (await import("../transport/open.ts")).openTransport(target, version, hooks),
  };
}
