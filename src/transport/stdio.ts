/**
 * The stdio transport: one server process, newline-delimited JSON-RPC on stdin and stdout,
 * stderr always drained, and a shutdown ladder that leaves no process behind.
 *
 * @module
 */
import {
  EXITED_STDOUT_MS,
  LATE_READ_GRACE_MS,
  MAX_MESSAGE_CONTAINERS,
  MAX_STDERR_LINE_BYTES,
  PIPE_RELEASE_MS,
  SHUTDOWN_GRACE_MS,
  SHUTDOWN_KILL_MS,
  SHUTDOWN_SWEEP_MS,
  SHUTDOWN_TERM_MS,
  STDOUT_EOF_EXIT_MS,
} from "../limits.ts";
import { type ConnectionLoss, isSignalName } from "../protocol/incomplete.ts";
import { isRequest, type JsonRpcMessage } from "../protocol/messages.ts";
import { lineReader, MessageTooLargeError } from "./lines.ts";
import { parseSharedBytes, useSharedParses } from "./shared_parse.ts";
import {
  type Closed,
  type Incoming,
  type Leftover,
  maxMessageBytes,
  type Transport,
  type TransportHooks,
  type TransportLimits,
} from "./transport.ts";
import { before, DEADLINE, delay } from "../time.ts";
import type { StdioTarget } from "../target.ts";

/** The server command could not be started. */
export class SpawnError extends Error {
  /**
   * `failure` says why: the command was not found, its working folder (`cwd`) does not exist,
   * starting it was not permitted (by the system, or by Deno's `--allow-run`), or anything else.
   */
  constructor(readonly failure: "not-found" | "cwd-not-found" | "permission-denied" | "other") {
    super(`Cannot start the server command: ${failure}`);
    this.name = "SpawnError";
  }
}

const isWindows = Deno.build.os === "windows";

let groupSignals: boolean | undefined;

/**
 * Whether mcpeval may signal a whole process group: Unix, and unscoped `--allow-run` (Deno
 * requires it for `Deno.kill`). Otherwise only the started process itself can be signalled.
 */
function canSignalGroups(): boolean {
  return groupSignals ??= !isWindows &&
    Deno.permissions.querySync({ name: "run" }).state === "granted";
}
const encoder = new TextEncoder();

/**
 * Starts the server process and returns its transport. Throws {@linkcode SpawnError} when the
 * command cannot be started. Its stderr is always read (so the server never blocks on a full
 * pipe): with `hooks.stderrLine` its lines go there, else they are dropped.
 * `limits` (tests only) shrinks the line bound.
 */
export function openStdio(
  target: StdioTarget,
  hooks: TransportHooks = {},
  limits: TransportLimits = {},
): Transport {
  const { stderrLine } = hooks;
  const spawn = (command: string) =>
    new Deno.Command(command, {
      args: [...target.args],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      // Set over the inherited environment, never instead of it.
      ...(target.env ? { env: { ...target.env } } : {}),
      ...(target.cwd !== undefined ? { cwd: target.cwd } : {}),
      // Its own process group on Unix, so wrappers and their children can be ended together.
      detached: !isWindows,
    }).spawn();
  let child: Deno.ChildProcess;
  try {
    try {
      child = spawn(target.command);
    } catch (error) {
      // Windows finds only .exe by itself; npm's shims (npx, pnpm, ...) are .cmd files.
      if (!(error instanceof Deno.errors.NotFound) || !isBareWindowsName(target.command)) {
        throw error;
      }
      child = spawn(`${target.command}.cmd`);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new SpawnError(missingFolder(target.cwd, error) ? "cwd-not-found" : "not-found");
    }
    if (error instanceof Deno.errors.PermissionDenied) throw new SpawnError("permission-denied");
    if (error instanceof Deno.errors.NotCapable) throw new SpawnError("permission-denied");
    throw new SpawnError("other");
  }
  const stderr = stderrLine ? lineWriter(stderrLine) : new WritableStream<Uint8Array>();
  return new StdioTransport(child, stderr, maxMessageBytes(limits));
}

/**
 * Whether a spawn that found nothing failed for its working folder: Deno says so itself ("No
 * such cwd"), and where mcpeval may read the folder's place it looks (nothing is shown).
 */
function missingFolder(cwd: string | undefined, error: Error): boolean {
  if (cwd === undefined) return false;
  if (/\bcwd\b/.test(error.message)) return true;
  // Never a prompt: looked at only with read permission already granted.
  if (Deno.permissions.querySync({ name: "read", path: cwd }).state !== "granted") return false;
  try {
    Deno.statSync(cwd);
    return false;
  } catch (problem) {
    return problem instanceof Deno.errors.NotFound;
  }
}

/**
 * A sink that hands `onLine` each line written to it (without `\n` or `\r\n`), decoded as UTF-8
 * (invalid bytes replaced), cut into pieces of at most {@linkcode MAX_STDERR_LINE_BYTES} bytes
 * (`continues` on every piece but a line's last); an unfinished last line is handed over at the
 * end.
 */
function lineWriter(
  onLine: (line: string, continues: boolean) => void,
): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(MAX_STDERR_LINE_BYTES);
  let size = 0;
  const flush = (continues: boolean) => {
    let end = size;
    if (!continues && end > 0 && buffer[end - 1] === 0x0d) end--;
    size = 0;
    try {
      // A character cut between two pieces is decoded whole with the next.
      onLine(decoder.decode(buffer.subarray(0, end), { stream: continues }), continues);
    } catch {
      // A receiver's failure is not the server's.
    }
  };
  return new WritableStream({
    write(chunk) {
      for (let start = 0; start < chunk.length;) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline;
        const take = Math.min(end - start, MAX_STDERR_LINE_BYTES - size);
        buffer.set(chunk.subarray(start, start + take), size);
        size += take;
        start += take;
        if (start === newline) {
          start++;
          flush(false);
        } else if (size === MAX_STDERR_LINE_BYTES) {
          flush(true);
        }
      }
    },
    close() {
      if (size > 0) flush(false);
    },
  });
}

/** A Windows command name without a directory or an extension, such as `npx`. */
function isBareWindowsName(command: string): boolean {
  return isWindows && !/[\\/:.]/.test(command);
}

class StdioTransport implements Transport {
  readonly incoming: ReadableStream<Incoming>;
  readonly #child: Deno.ChildProcess;
  readonly #endSharedParses: () => void;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #messages: ClosableStream<Incoming>;
  /** Stops draining stderr: a leftover process may hold the pipe open for ever. */
  readonly #stopDraining = new AbortController();
  readonly #stderrDrained: Promise<void>;
  #exited = false;
  #closing?: Promise<Closed>;

  /** `stderr` receives the server's stderr; stdout lines are at most `maxLineBytes`. */
  constructor(
    child: Deno.ChildProcess,
    stderr: WritableStream<Uint8Array>,
    maxLineBytes: number,
  ) {
    this.#child = child;
    this.#endSharedParses = useSharedParses();
    this.#writer = child.stdin.getWriter();
    this.#writer.closed.catch(() => {});
    child.status.then(() => (this.#exited = true));
    this.#stderrDrained = child.stderr.pipeTo(stderr, { signal: this.#stopDraining.signal })
      .catch(() => {});
    this.#messages = closableFailuresAsItems(
      child.stdout.pipeThrough(messageReader(maxLineBytes)),
      async () => ({
        kind: "failure",
        incomplete: { reason: "transport-lost", loss: await this.#loss() },
      }),
      child.status,
    );
    this.incoming = this.#messages.stream;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    try {
      await this.#writer.write(encoder.encode(JSON.stringify(message) + "\n"));
    } catch {
      // The process went away; `incoming` reports the loss when stdout ends.
    }
  }

  close(): Promise<Closed> {
    return this.#closing ??= this.#shutdown();
  }

  /** Once stdout ended: how the process ended, or that it still runs without its stdout. */
  async #loss(): Promise<ConnectionLoss> {
    const status = await before(Date.now() + STDOUT_EOF_EXIT_MS, this.#child.status);
    if (typeof status !== "object") return { kind: "stdout-closed" };
    if (isSignalName(status.signal)) return { kind: "signal", signal: status.signal };
    return { kind: "exited", exitCode: status.code };
  }

  async #shutdown(): Promise<Closed> {
    // Not awaited: a server that stops reading stdin would hold a pending write for ever.
    this.#writer.close().catch(() => {});
    // A request the server sends now can never be answered: it gets SIGTERM at once.
    const unanswerable = this.#nextServerRequest();
    let leftover: Leftover | undefined;
    if (!(await this.#exitsWithin(SHUTDOWN_GRACE_MS, unanswerable))) {
      this.#signal("SIGTERM");
      if (!(await this.#exitsWithin(SHUTDOWN_TERM_MS))) {
        this.#signal("SIGKILL");
        if (!(await this.#exitsWithin(SHUTDOWN_KILL_MS))) {
          leftover = { pid: this.#child.pid, cause: "not-stopped" };
        }
      }
    }
    if (!leftover) {
      await this.#sweepProcessGroup();
      // Once the server and its group are gone, its pipes end, unless a process that
      // mcpeval could not signal still holds them.
      this.#messages.drain();
      const released = await before(
        Date.now() + PIPE_RELEASE_MS,
        Promise.all([this.#messages.sourceEnded, this.#stderrDrained]),
      );
      if (released === DEADLINE) {
        leftover = { pid: this.#child.pid, cause: canSignalGroups() ? "escaped" : "group" };
      }
    }
    // Whoever still holds the pipes no longer matters to discovery.
    await this.#messages.close();
    this.#stopDraining.abort();
    await this.#stderrDrained;
    this.#endSharedParses();
    return leftover ? { leftover } : {};
  }

  /** Whether the server exits within `ms`; false at once when `cutShort` resolves first. */
  async #exitsWithin(ms: number, cutShort?: Promise<void>): Promise<boolean> {
    if (this.#exited) return true;
    const exited = this.#child.status.then(() => true);
    const outcome = await before(
      Date.now() + ms,
      cutShort ? Promise.race([exited, cutShort.then(() => false)]) : exited,
    );
    return outcome === true;
  }

  /**
   * Resolves when the server sends a request after the session let go of `incoming` (it can no
   * longer be answered); never resolves otherwise. The read ends when shutdown ends the stream.
   */
  #nextServerRequest(): Promise<void> {
    if (this.incoming.locked) return new Promise(() => {});
    const reader = this.incoming.getReader();
    return new Promise((resolve) => {
      const read = async () => {
        while (true) {
          const { done, value } = await reader.read();
          if (done || value.kind !== "message") return;
          if (isRequest(value.message)) return resolve();
        }
      };
      read().catch(() => {});
    });
  }

  /** Signals the server's process group where permitted, else the server process itself. */
  #signal(signal: "SIGTERM" | "SIGKILL"): void {
    if (canSignalGroups()) {
      try {
        Deno.kill(-this.#child.pid, signal);
        return;
      } catch {
        // The group is gone; the child may still be a zombie awaiting `status`.
      }
    }
    try {
      this.#child.kill(signal);
    } catch {
      // Already gone.
    }
  }

  /** Ends processes the server left behind in its group (a wrapper's children, for example). */
  async #sweepProcessGroup(): Promise<void> {
    if (!canSignalGroups()) return;
    try {
      Deno.kill(-this.#child.pid, "SIGTERM");
    } catch {
      return; // The group is empty.
    }
    await delay(SHUTDOWN_SWEEP_MS);
    try {
      Deno.kill(-this.#child.pid, "SIGKILL");
    } catch {
      // Everything left on SIGTERM.
    }
  }
}

/**
 * Bytes in, messages out, a line each (bounded in bytes and, as they arrive, in structure); the
 * first bad line or an oversize line ends the stream.
 */
function messageReader(maxBytes: number): TransformStream<Uint8Array, Incoming> {
  let failed = false;
  return lineReader<Incoming>(maxBytes, MAX_MESSAGE_CONTAINERS, async (line) => {
    if (failed || line.length === 0) return undefined;
    // The reader counted the line's structure as its bytes arrived.
    const message = await parseSharedBytes(line, true);
    if (typeof message !== "string") return { kind: "message", message };
    failed = true;
    return { kind: "failure", incomplete: { reason: message } };
  }, 16);
}

/** A stream that can be ended from outside even while a reader holds it. */
interface ClosableStream<T> {
  readonly stream: ReadableStream<T>;
  /** Resolves when the source has ended by itself (or broke). */
  readonly sourceEnded: Promise<void>;
  /** Reads the source to its end, dropping what it holds, whether or not anyone reads `stream`. */
  drain(): void;
  /** Ends the stream (a pending read resolves as done) and cancels its source. */
  close(): Promise<void>;
}

/** What a read of the message source gives once the server exited and its stdout stayed quiet. */
const ABANDONED: unique symbol = Symbol("abandoned");

const WOKEN: unique symbol = Symbol("woken");

/**
 * Reads of a source that end when its process exited and the source stayed quiet: a read waits
 * while the process runs; once it exited, at most {@linkcode EXITED_STDOUT_MS} (and a last
 * {@linkcode LATE_READ_GRACE_MS}, in case mcpeval was busy when that passed). After that, a
 * process the server started holds its stdout, and nothing more is coming from the server.
 *
 * One listener on `exited` wakes the read in progress: nothing per read is attached to the
 * long-lived promise (which would keep every message read alive until the process exits).
 */
function abandonedAfterExit(exited: Promise<unknown>) {
  let gone = false;
  let wake: (() => void) | undefined;
  exited.then(() => {
    gone = true;
    wake?.();
  }, () => {});
  return async <T>(next: Promise<T>): Promise<T | typeof ABANDONED> => {
    if (!gone) {
      const woken = new Promise<typeof WOKEN>((resolve) => (wake = () => resolve(WOKEN)));
      const first = await Promise.race([next, woken]);
      wake = undefined;
      if (first !== WOKEN) return first;
    }
    let outcome = await before(Date.now() + EXITED_STDOUT_MS, next);
    if (outcome === DEADLINE) outcome = await before(Date.now() + LATE_READ_GRACE_MS, next);
    return outcome === DEADLINE ? ABANDONED : outcome;
  };
}

/**
 * Wraps the message pipeline: a stream error becomes a final failure item, so `incoming` itself
 * never errors, and shutdown can end it whether or not the session still reads it. When the
 * source ends by itself, or stays open after the server exited (`exited`: its stdout is held by
 * a process it started), `lost` gives the final failure item.
 */
function closableFailuresAsItems(
  source: ReadableStream<Incoming>,
  lost: () => Promise<Incoming>,
  exited: Promise<unknown>,
): ClosableStream<Incoming> {
  const reader = source.getReader();
  const unlessAbandoned = abandonedAfterExit(exited);
  let sourceDone!: () => void;
  const sourceEnded = new Promise<void>((resolve) => (sourceDone = resolve));
  const read = async () => {
    try {
      const result = await reader.read();
      if (result.done) sourceDone();
      return result;
    } catch (error) {
      sourceDone();
      throw error;
    }
  };
  let controller!: ReadableStreamDefaultController<Incoming>;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    controller.close();
  };
  const stream = new ReadableStream<Incoming>({
    start(c) {
      controller = c;
    },
    async pull() {
      try {
        const next = await unlessAbandoned(read());
        if (ended) return;
        if (next !== ABANDONED && !next.done) {
          const { value } = next;
          controller.enqueue(value);
          // The first failure is the last item.
          if (value.kind === "failure") end();
          return;
        }
        const failure = await lost();
        if (ended) return;
        controller.enqueue(failure);
        end();
      } catch (error) {
        if (ended) return;
        const reason = error instanceof MessageTooLargeError
          ? "message-too-large"
          : "transport-lost";
        controller.enqueue({ kind: "failure", incomplete: { reason } });
        end();
      }
    },
    cancel(reason) {
      ended = true;
      return reader.cancel(reason);
    },
  });
  let draining = false;
  return {
    stream,
    sourceEnded,
    drain: () => {
      if (draining) return;
      draining = true;
      (async () => {
        while (!(await read()).done);
      })().catch(() => {});
    },
    close: async () => {
      end();
      sourceDone();
      await reader.cancel().catch(() => {});
    },
  };
}
