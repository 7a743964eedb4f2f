/**
 * Bounded waiting: every wait in mcpeval goes through here.
 *
 * @module
 */
/** Resolves after `ms`. */
export const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** What a {@linkcode Deadline} race returns when the deadline passes first. */
export const DEADLINE: unique symbol = Symbol("deadline");

/**
 * One timer for a whole wait, however many promises are raced against it. A deadline that has
 * passed when it is made has no timer (one of 0 ms still waits about 2 ms in Deno): it gives
 * what has settled already and waits for nothing.
 *
 * @example
 * ```ts
 * using deadline = new Deadline(Date.now() + 1000);
 * const value = await deadline.race(fetch("http://127.0.0.1:1/"));
 * ```
 */
export class Deadline implements Disposable {
  readonly #expired: Promise<typeof DEADLINE> | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #at: number;
  #passed = false;
  #lag = 0;
  #graced = false;

  /** A deadline at `at`, a `Date.now()` value. */
  constructor(at: number) {
    this.#at = at;
    const ms = at - Date.now();
    if (ms <= 0) return;
    let expire!: (value: typeof DEADLINE) => void;
    this.#expired = new Promise((resolve) => (expire = resolve));
    this.#timer = setTimeout(() => {
      this.#passed = true;
      this.#lag = Math.max(0, Date.now() - this.#at);
      expire(DEADLINE);
    }, ms);
  }

  /** Waits for `promise`, or returns {@linkcode DEADLINE} once the deadline has passed. */
  race<T>(promise: Promise<T>): Promise<T | typeof DEADLINE> {
    if (this.#passed) return Promise.resolve(DEADLINE);
    // Passed when made: what has settled already (its reaction runs before the second one).
    const expired = this.#expired ?? Promise.resolve().then((): typeof DEADLINE => DEADLINE);
    return Promise.race([promise, expired]);
  }

  /**
   * How late the deadline was noticed, in milliseconds: more than a few when the process was
   * busy (a long synchronous parse), so what arrived meanwhile was not read yet.
   */
  get lag(): number {
    return this.#lag;
  }

  /**
   * Whether the one late-read grace of this deadline may still be taken; true once only, so
   * that a deadline is extended at most once.
   */
  takeGrace(): boolean {
    if (this.#graced) return false;
    return this.#graced = true;
  }

  /** Stops the timer. */
  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
  }
}

/** Waits for `promise` until `at`; returns {@linkcode DEADLINE} if the deadline comes first. */
export async function before<T>(at: number, promise: Promise<T>): Promise<T | typeof DEADLINE> {
  using deadline = new Deadline(at);
  return await deadline.race(promise);
}
