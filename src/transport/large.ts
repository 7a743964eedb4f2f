/**
 * The process-wide slot for large messages: a stdio line or HTTP body past
 * {@linkcode LARGE_MESSAGE_BYTES} is buffered (and then parsed) only while it holds the slot, so
 * the huge messages of all profiles are held one at a time and peak memory stays bounded.
 *
 * @module
 */

/** A message larger than this many bytes is buffered only while it holds the slot. */
export const LARGE_MESSAGE_BYTES = 8 * 1024 * 1024;

/** The right to buffer one large line; released when the line is done or the stream ends. */
export interface LargeMessageSlot {
  release(): void;
}

let slotHeld = false;
const slotWaiters: (() => void)[] = [];

/** Waits for the process-wide large-message slot (first come, first served). */
export function acquireLargeMessageSlot(): Promise<LargeMessageSlot> {
  const grant = (): LargeMessageSlot => {
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        const next = slotWaiters.shift();
        if (next) next();
        else slotHeld = false;
      },
    };
  };
  if (!slotHeld) {
    slotHeld = true;
    return Promise.resolve(grant());
  }
  return new Promise((resolve) => slotWaiters.push(() => resolve(grant())));
}
