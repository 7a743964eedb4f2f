/**
 * Bounded newline framing for stdio: bytes in, one line (without its line ending) out.
 *
 * @module
 */

/** Raised through the stream when one line exceeds the message size limit. */
export class MessageTooLargeError extends Error {
  constructor() {
    super("Message exceeds the size limit");
    this.name = "MessageTooLargeError";
  }
}

import { ContainerCounter } from "../protocol/messages.ts";
import { acquireLargeMessageSlot, LARGE_MESSAGE_BYTES, type LargeMessageSlot } from "./large.ts";

const LF = 0x0a;
const CR = 0x0d;

/**
 * A line's buffer up to this size is kept for the next line: the pages of a large catalog are
 * then assembled without a new allocation each (which fragmented the allocator's memory).
 */
const KEPT_BUFFER_BYTES = 1024 * 1024;

/**
 * A TransformStream that splits bytes on `\n`, strips one trailing `\r`, and hands each line
 * (without its ending) to `take`, passing on what it returns (unless undefined). The line given
 * is a view of a buffer the stream reuses: it is valid until `take`'s promise settles, and `take`
 * copies what must outlive that. Lines are taken one at a time, in order.
 *
 * Errors with {@linkcode MessageTooLargeError} when a line exceeds `maxBytes`, or, with
 * `maxContainers`, as soon as a line opens more JSON objects and arrays than that. Up to
 * `queued` results wait for their reader before the stream stops reading.
 */
export function lineReader<T>(
  maxBytes: number,
  maxContainers: number | undefined,
  take: (line: Uint8Array) => T | undefined | Promise<T | undefined>,
  queued = 0,
): TransformStream<Uint8Array, T> {
  // The unfinished line: `buffer[0, length)`.
  let buffer = new Uint8Array(0);
  let length = 0;
  let slot: LargeMessageSlot | undefined;
  let cancelled = false;
  const releaseSlot = () => {
    slot?.release();
    slot = undefined;
  };
  const counter = maxContainers === undefined ? undefined : new ContainerCounter(maxContainers);
  // Whether the line so far was fed to the counter. A line of at most `maxContainers` bytes
  // cannot open more containers than that, so it is counted only once it grows past them.
  let counting = false;
  /** Counts a line's containers as its bytes arrive, so a hostile line is never held whole. */
  const count = (chunk: Uint8Array, start: number, end: number) => {
    if (counter === undefined) return;
    if (!counting) {
      if (length + end - start <= counter.max) return;
      counting = true;
      counter.feed(buffer, 0, length);
    }
    if (!counter.feed(chunk, start, end)) throw new MessageTooLargeError();
  };
  const append = (chunk: Uint8Array, start: number, end: number) => {
    const needed = length + end - start;
    if (needed > buffer.length) {
      const grown = new Uint8Array(Math.max(needed, Math.min(2 * buffer.length, maxBytes + 1)));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(chunk.subarray(start, end), length);
    length = needed;
  };

  const emit = async (
    controller: TransformStreamDefaultController<T>,
    chunk: Uint8Array,
    start: number,
    end: number,
  ) => {
    let line: Uint8Array;
    if (length === 0) {
      line = chunk.subarray(start, end);
    } else {
      append(chunk, start, end);
      line = buffer.subarray(0, length);
    }
    length = 0;
    counter?.reset();
    counting = false;
    try {
      if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
      if (line.length > maxBytes) throw new MessageTooLargeError();
      const taken = await take(line);
      if (taken !== undefined) controller.enqueue(taken);
    } finally {
      releaseSlot();
      if (buffer.length > KEPT_BUFFER_BYTES) buffer = new Uint8Array(0);
    }
  };

  return new TransformStream(
    {
      async transform(chunk, controller) {
        let start = 0;
        let newline = chunk.indexOf(LF, start);
        while (newline !== -1) {
          count(chunk, start, newline);
          await emit(controller, chunk, start, newline);
          start = newline + 1;
          newline = chunk.indexOf(LF, start);
        }
        if (start < chunk.length) {
          // One byte of slack: the line may still end in "\r\n".
          if (length + chunk.length - start > maxBytes + 1) throw new MessageTooLargeError();
          count(chunk, start, chunk.length);
          // Past this size a line waits for the one large-line slot of the process: huge lines
          // of all profiles are then held (and taken) one at a time, which bounds peak memory.
          if (slot === undefined && length + chunk.length - start > LARGE_MESSAGE_BYTES) {
            slot = await acquireLargeMessageSlot();
            // Cancelled while waiting: hand the slot on at once.
            if (cancelled) return releaseSlot();
          }
          append(chunk, start, chunk.length);
        }
      },
      async flush(controller) {
        if (length > 0) await emit(controller, new Uint8Array(), 0, 0);
        releaseSlot();
      },
      cancel() {
        cancelled = true;
        releaseSlot();
      },
    },
    undefined,
    { highWaterMark: queued },
  );
}
