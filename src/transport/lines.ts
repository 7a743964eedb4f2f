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
 * A TransformStream that splits bytes on `\n`, strips one trailing `\r`, and errors with
 * {@linkcode MessageTooLargeError} when a line (without its ending) exceeds `maxBytes`.
 * Empty lines are passed on; partial lines across chunks are joined. With `maxContainers`, a
 * line that opens more JSON objects and arrays errors the same way as soon as it does.
 */
export function lineSplitter(
  maxBytes: number,
  maxContainers?: number,
): TransformStream<Uint8Array, Uint8Array> {
  let pieces: Uint8Array[] = [];
  let buffered = 0;
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
      if (buffered + end - start <= counter.max) return;
      counting = true;
      for (const piece of pieces) counter.feed(piece);
    }
    if (!counter.feed(chunk, start, end)) throw new MessageTooLargeError();
  };

  const emit = (controller: TransformStreamDefaultController<Uint8Array>, tail: Uint8Array) => {
    let line = pieces.length === 0 ? tail : concat([...pieces, tail], buffered + tail.length);
    pieces = [];
    buffered = 0;
    counter?.reset();
    counting = false;
    releaseSlot();
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > maxBytes) throw new MessageTooLargeError();
    controller.enqueue(line);
  };

  return new TransformStream({
    async transform(chunk, controller) {
      let start = 0;
      let newline = chunk.indexOf(LF, start);
      while (newline !== -1) {
        count(chunk, start, newline);
        emit(controller, chunk.subarray(start, newline));
        start = newline + 1;
        newline = chunk.indexOf(LF, start);
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        // One byte of slack: the line may still end in "\r\n".
        if (buffered + rest.length > maxBytes + 1) throw new MessageTooLargeError();
        count(chunk, start, chunk.length);
        // Past this size a line waits for the one large-line slot of the process: huge lines
        // of all profiles are then held (and parsed) one at a time, which bounds peak memory.
        if (slot === undefined && buffered + rest.length > LARGE_MESSAGE_BYTES) {
          slot = await acquireLargeMessageSlot();
          // Cancelled while waiting: hand the slot on at once.
          if (cancelled) return releaseSlot();
        }
        pieces.push(rest);
        buffered += rest.length;
      }
    },
    flush(controller) {
      if (buffered > 0) emit(controller, new Uint8Array());
      releaseSlot();
    },
    cancel() {
      cancelled = true;
      releaseSlot();
    },
  });
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
