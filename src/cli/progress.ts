/**
 * Live progress on a terminal's stderr: one line per profile (waiting, starting, and after a few
 * seconds without an answer that none came yet, settling, listing with the pages so far, done
 * with the tool count, or incomplete with the reason),
 * redrawn in place; on a terminal that cannot move the cursor (`TERM=dumb`), one line per change.
 * Lines hold only profile labels, fixed words and numbers.
 *
 * @module
 */
import type { DiscoveryEvent } from "../discovery/events.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { TransportKind } from "../target.ts";

/** How progress is shown: redrawn in place, or one line per change. */
export type ProgressMode = "live" | "lines";

/** How often the live lines are redrawn to move their clocks on. */
const TICK_MS = 250;

/** Events closer together than this are drawn together. */
const COALESCE_MS = 40;

/**
 * How long a profile may be starting before its line says that no answer came yet: a first
 * `npx` run downloads the package for seconds before the server can answer `initialize`.
 */
export const STARTING_SLOW_MS = 3000;

const ESC = "\x1b[";

interface ProfileState {
  readonly kind: DiscoveryEvent["kind"] | "waiting";
  readonly status: string;
  /** `performance.now()` when the status began. */
  readonly since: number;
}

/** Progress for one run; `stop()` it before anything else is written. */
export class Progress {
  readonly #write: (text: string) => Promise<void>;
  readonly #mode: ProgressMode;
  readonly #columns: number;
  readonly #server: string;
  readonly #started = performance.now();
  readonly #states = new Map<ProfileLabel, ProfileState>();
  readonly #starting: string;
  readonly #slow: string;
  /** Per profile, the timer that marks a start without an answer. */
  readonly #slowTimers = new Map<ProfileLabel, ReturnType<typeof setTimeout>>();
  #drawn = 0;
  #writing: Promise<void> = Promise.resolve();
  #timer?: ReturnType<typeof setInterval>;
  #pending?: ReturnType<typeof setTimeout>;
  #stopped = false;

  /**
   * Starts showing progress for `profiles` of `server`; `columns` is the terminal's width (lines
   * are cut to fit it, so that redrawing in place never breaks on a wrapped line).
   */
  constructor(
    server: string,
    transport: TransportKind,
    profiles: readonly ProfileLabel[],
    write: (text: string) => Promise<void>,
    mode: ProgressMode,
    columns: number,
  ) {
    this.#server = server;
    this.#starting = transport === "stdio"
      ? "starting the server, initializing"
      : "connecting, initializing";
    // Short on a live line (it shows the clock, and must fit 80 columns with a client profile);
    // one line per change says how long and why.
    this.#slow = transport === "stdio"
      ? (mode === "live"
        ? "starting the server, no answer yet"
        : `starting the server, no answer after ${
          STARTING_SLOW_MS / 1000
        } s (npx or uvx may still be downloading it)`)
      : (mode === "live"
        ? "connecting, no answer yet"
        : `connecting, no answer after ${STARTING_SLOW_MS / 1000} s`);
    this.#write = write;
    this.#mode = mode;
    this.#columns = Math.max(20, columns);
    for (const profile of profiles) {
      this.#states.set(profile, { kind: "waiting", status: "waiting", since: this.#started });
    }
    if (mode === "live") {
      this.#draw();
      this.#timer = setInterval(() => this.#draw(), TICK_MS);
    } else {
      this.#emit(`mcpeval: discovering ${this.#server}, ${profiles.length} profile(s)\n`);
    }
  }

  /** Takes one discovery event (never throws, never waits). */
  readonly observe = (event: DiscoveryEvent): void => {
    if (this.#stopped || event.kind === "leftover") return;
    const status = event.kind === "starting" ? this.#starting : statusOf(event);
    const previous = this.#states.get(event.profile);
    const kindChanged = previous?.kind !== event.kind;
    this.#states.set(event.profile, {
      kind: event.kind,
      status,
      // A new page keeps the clock of the listing.
      since: kindChanged || !previous ? performance.now() : previous.since,
    });
    clearTimeout(this.#slowTimers.get(event.profile));
    if (event.kind === "starting") {
      this.#slowTimers.set(
        event.profile,
        setTimeout(() => this.#startingSlowly(event.profile), STARTING_SLOW_MS),
      );
    }
    if (this.#mode === "live") {
      this.#pending ??= setTimeout(() => {
        this.#pending = undefined;
        this.#draw();
      }, COALESCE_MS);
    } else if (kindChanged) this.#emit(`mcpeval: ${event.profile}: ${status}\n`);
  };

  /** A profile still starting after {@linkcode STARTING_SLOW_MS}: its line says so at once. */
  #startingSlowly(profile: ProfileLabel): void {
    const state = this.#states.get(profile);
    if (this.#stopped || state?.kind !== "starting") return;
    this.#states.set(profile, { ...state, status: this.#slow });
    if (this.#mode === "live") this.#draw();
    else this.#emit(`mcpeval: ${profile}: ${this.#slow}\n`);
  }

  /**
   * Stops updating. `clear`: erase the live lines (the report follows on the same terminal);
   * otherwise they stay, in their final state.
   */
  async stop(clear: boolean): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#pending);
    for (const timer of this.#slowTimers.values()) clearTimeout(timer);
    if (this.#mode === "live") {
      // Every profile's last state is drawn, even for a moment.
      this.#draw(true);
      if (clear) this.#emit(`${ESC}${this.#drawn}F${ESC}0J`);
    }
    await this.#writing;
  }

  /** Redraws every line in place. */
  #draw(final = false): void {
    if (this.#stopped && !final) return;
    const now = performance.now();
    const width = Math.max(...[...this.#states.keys()].map((profile) => profile.length));
    const lines = [
      `mcpeval: discovering ${this.#server} (${seconds(now - this.#started)})`,
      ...[...this.#states].map(([profile, state]) =>
        `  ${profile.padEnd(width)}  ${state.status}${
          RUNNING.has(state.kind) ? ` (${seconds(now - state.since)})` : ""
        }`
      ),
    ].map((line) => line.slice(0, this.#columns - 1));
    const up = this.#drawn > 0 ? `${ESC}${this.#drawn}F` : "";
    this.#drawn = lines.length;
    this.#emit(up + lines.map((line) => `${ESC}2K${line}\n`).join(""));
  }

  #emit(text: string): void {
    if (text === "") return;
    this.#writing = this.#writing.then(() => this.#write(text)).catch(() => {});
  }
}

/** The words for one event. */
function statusOf(event: Exclude<DiscoveryEvent, { kind: "leftover" }>): string {
  switch (event.kind) {
    case "starting":
      return "starting";
    case "settling":
      return `settling, ${event.ms} ms window`;
    case "listing":
      return `listing tools, ${event.pages} page${event.pages === 1 ? "" : "s"} so far`;
    case "done":
      return `done, ${event.tools} tool${event.tools === 1 ? "" : "s"}`;
    case "incomplete":
      return `incomplete, ${event.reason}`;
  }
}

/** The states still under way, which show their clock. */
const RUNNING: ReadonlySet<string> = new Set(["starting", "settling", "listing"]);

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
