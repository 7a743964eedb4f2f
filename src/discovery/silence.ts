/**
 * A silent server, told once per run of profiles: when every profile of the first wave timed
 * out and the server sent nothing on any connection (no message, no HTTP answer), the profiles
 * after the wave are not started: each would wait out its own timeout, one wave after another.
 * Anything the server sends, and any profile that ends otherwise than by a timeout, ends the
 * watch at once, so a slow but living server loses nothing (and waits for nothing: the watch is
 * decided long before its first wave ends). What a server writes to stderr is not an answer.
 *
 * @module
 */

/** The watch over one server's profiles; the first wave is given by its positions in the queue. */
export class SilenceWatch {
  readonly #waveStart: number;
  readonly #waveEnd: number;
  #pending: number;
  #settled = false;
  #silent = false;
  #resolve: (silent: boolean) => void = () => {};
  /** Resolves once decided: true when the server was silent, false as soon as it is not. */
  readonly verdict: Promise<boolean>;

  /**
   * The profiles at queue positions `waveStart` (inclusive) to `waveEnd` (exclusive) are the
   * first wave. An empty wave decides at once: not silent.
   */
  constructor(waveStart: number, waveEnd: number) {
    this.#waveStart = waveStart;
    this.#waveEnd = waveEnd;
    this.#pending = Math.max(0, waveEnd - waveStart);
    this.verdict = new Promise((resolve) => this.#resolve = resolve);
    if (this.#pending === 0) this.#decide(false);
  }

  /** Whether the profile at queue position `index` is past the first wave (it waits for the verdict). */
  past(index: number): boolean {
    return index >= this.#waveEnd;
  }

  /** Whether the verdict is in and says silent. */
  get silent(): boolean {
    return this.#silent;
  }

  /** The server sent something on some connection. */
  heard(): void {
    this.#decide(false);
  }

  /** The profile at queue position `index` ended; `timedOut`: by its timeout. */
  ended(index: number, timedOut: boolean): void {
    if (!timedOut) return this.#decide(false);
    if (index < this.#waveStart || index >= this.#waveEnd) return;
    this.#pending -= 1;
    if (this.#pending === 0) this.#decide(true);
  }

  /** The run is over (aborted, or a command could not start): nobody waits any longer. */
  release(): void {
    this.#decide(false);
  }

  #decide(silent: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#silent = silent;
    this.#resolve(silent);
  }
}
