/**
 * Bounded waiting: every wait in mcpeval goes through here.
 *
 * @module
 */
/**
 * Resolves after `ms`. Not `node:timers/promises`: importing a `node:` module makes Deno load its
 * Node compatibility layer at once (about 5 ms), before a run has spawned its server.
 */
export const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** What a {@linkcode Deadline} race returns when the deadline passes first. */
export const DEADLINE: unique symbol = Symbol("deadline");

/**
 * `promise`'s value when it has settled already, else {@linkcode DEADLINE}: a deadline that has
 * passed, without a timer (one of 0 ms still waits about 2 ms in Deno).
 */
export function ifSettled<T>(promise: Promise<T>): Promise<T | typeof DEADLINE> {
  return Promise.race([promise, Promise.resolve().then((): typeof DEADLINE => DEADLINE)]);
}

/**
 * One timer for a whole wait, however many promises are raced against it.
 *
 * @example
 * ```ts
 * using deadline = new Deadline(Date.now() + 1000);
 * const value = await deadline.race(fetch("http://127.0.0.1:1/"));
 * ```
 */
export class Deadline implements Disposable {
  readonly #expired: Promise<typeof DEADLINE>;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #at: number;
  #passed = false;
  #lag = 0;
  #graced = false;

  /** A deadline at `at`, a `Date.now()` value. */
  constructor(at: number) {
    let expire!: (value: typeof DEADLINE) => void;
    this.#expired = new Promise((resolve) => (expire = resolve));
    this.#at = at;
    this.#timer = setTimeout(() => {
      this.#passed = true;
      this.#lag = Math.max(0, Date.now() - this.#at);
      expire(DEADLINE);
    }, Math.max(0, at - Date.now()));
  }

  /** Waits for `promise`, or returns {@linkcode DEADLINE} once the deadline has passed. */
  race<T>(promise: Promise<T>): Promise<T | typeof DEADLINE> {
    if (this.#passed) return Promise.resolve(DEADLINE);
    return Promise.race([promise, this.#expired]);
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
