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

const LF = 0x0a;
const CR = 0x0d;

/**
 * A TransformStream that splits bytes on `\n`, strips one trailing `\r`, and errors with
 * {@linkcode MessageTooLargeError} when a line (without its ending) exceeds `maxBytes`.
 * Empty lines are passed on; partial lines across chunks are joined.
 */
export function lineSplitter(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let pieces: Uint8Array[] = [];
  let buffered = 0;

  const emit = (controller: TransformStreamDefaultController<Uint8Array>, tail: Uint8Array) => {
    let line = pieces.length === 0 ? tail : concat([...pieces, tail], buffered + tail.length);
    pieces = [];
    buffered = 0;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > maxBytes) throw new MessageTooLargeError();
    controller.enqueue(line);
  };

  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      let newline = chunk.indexOf(LF, start);
      while (newline !== -1) {
        emit(controller, chunk.subarray(start, newline));
        start = newline + 1;
        newline = chunk.indexOf(LF, start);
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        // One byte of slack: the line may still end in "\r\n".
        if (buffered + rest.length > maxBytes + 1) throw new MessageTooLargeError();
        pieces.push(rest.slice());
        buffered += rest.length;
      }
    },
    flush(controller) {
      if (buffered > 0) emit(controller, new Uint8Array());
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
