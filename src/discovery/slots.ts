/**
 * A bound on live connections shared by every server of a run (`--jobs`): a connection takes a
 * slot before it opens and gives it back once it is closed; waiters are served in order.
 *
 * @module
 */

/** Gives a slot back. */
export type Release = () => void;

/** A counting semaphore whose waits end when a signal aborts. */
export class Slots {
  #free: number;
  readonly #waiting: ((release: Release | undefined) => void)[] = [];

  /** `count` slots, at least one. */
  constructor(count: number) {
    this.#free = Math.max(1, count);
  }

  /** Waits for a slot; resolves undefined, without a slot, once `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<Release | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve(this.#release());
    }
    return new Promise((resolve) => {
      const waiter = (release: Release | undefined) => {
        signal?.removeEventListener("abort", abort);
        resolve(release);
      };
      const abort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        resolve(undefined);
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #release(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next(this.#release());
      else this.#free += 1;
    };
  }
}
