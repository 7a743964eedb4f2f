/**
 * Live progress on a terminal's stderr: one line per profile (waiting, starting, and after a few
 * seconds without an answer that none came yet, settling, listing with the pages so far, done
 * with the tool count, or incomplete with the reason),
 * redrawn in place; on a terminal that cannot move the cursor (`TERM=dumb`), one line per change.
 * Off a terminal (`plain`), nothing for the first {@linkcode PLAIN_PROGRESS_AFTER_MS}; a run
 * still going then says so in one line, and from then on prints one line per profile that ends
 * (one server) or per server whose profiles all ended (a fleet).
 * Lines hold only profile labels, fixed words and numbers. Other text for stderr while progress
 * is shown (a server's lines with `--server-stderr inherit`) goes through
 * {@linkcode Progress.above}: the live lines are erased, the text written, and the lines drawn
 * again below it, so that a redraw never goes back over a line that was not its own.
 *
 * @module
 */
import type { DiscoveryEvent } from "../discovery/events.ts";
import type { RunPlan } from "../run/plan.ts";

/**
 * How progress is shown: redrawn in place, one line per change (a dumb terminal), or, off a
 * terminal, plain lines for long runs only.
 */
export type ProgressMode = "live" | "lines" | "plain";

/** Off a terminal, a run prints no progress until it has lasted this long. */
export const PLAIN_PROGRESS_AFTER_MS = 10_000;

/** How often the live lines are redrawn to move their clocks on. */
const TICK_MS = 250;

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

/** At most this many lines of a fleet's active profiles are shown at once. */
const MAX_ACTIVE_LINES = 12;

/** Progress for one run; `stop()` it before anything else is written. */
export class Progress {
  readonly #write: (text: string) => Promise<void>;
  readonly #mode: ProgressMode;
  readonly #columns: number;
  /** The server of a run of one; undefined for a fleet (its lines name their server). */
  readonly #server?: string;
  readonly #servers: number;
  readonly #started = performance.now();
  /** Each profile's state, by `server\0profile`, in run order. */
  readonly #states = new Map<string, ProfileState & { label: string }>();
  readonly #starting: ReadonlyMap<string, string>;
  readonly #slow: ReadonlyMap<string, string>;
  /** Per profile, the timer that marks a start without an answer. */
  readonly #slowTimers = new Map<string, ReturnType<typeof setTimeout>>();
  #drawn = 0;
  /** Text for {@linkcode Progress.above} not yet written, and the write that will take it. */
  #pending = "";
  #flushing?: Promise<void>;
  #writing: Promise<void> = Promise.resolve();
  #timer?: ReturnType<typeof setInterval>;
  /** `plain`: the timer that starts the lines, and whether they have started. */
  #plainTimer?: ReturnType<typeof setTimeout>;
  #plainOn = false;
  #stopped = false;

  /**
   * Starts showing progress for the checked servers of `plan` and their profiles; `columns` is
   * the terminal's width (lines are cut to fit it, so that redrawing in place never breaks on a
   * wrapped line). `plainAfterMs`: when plain lines start (tests give a small one).
   */
  constructor(
    plan: RunPlan,
    write: (text: string) => Promise<void>,
    mode: ProgressMode,
    columns: number,
    plainAfterMs: number = PLAIN_PROGRESS_AFTER_MS,
  ) {
    const checked = plan.servers.flatMap((server) => "request" in server ? [server] : []);
    this.#server = plan.fleet === undefined ? checked[0]?.name : undefined;
    this.#servers = checked.length;
    const stdio = (server: (typeof checked)[number]) => server.request.target.kind === "stdio";
    this.#starting = new Map(checked.map((server) => [
      server.name,
      stdio(server) ? "starting the server, initializing" : "connecting, initializing",
    ]));
    // Short on a live line (it shows the clock, and must fit 80 columns with a client profile);
    // one line per change says how long and why.
    this.#slow = new Map(checked.map((server) => [
      server.name,
      stdio(server)
        ? (mode === "live"
          ? "starting the server, no answer yet"
          : `starting the server, no answer after ${
            STARTING_SLOW_MS / 1000
          } s (npx or uvx may still be downloading it)`)
        : (mode === "live"
          ? "connecting, no answer yet"
          : `connecting, no answer after ${STARTING_SLOW_MS / 1000} s`),
    ]));
    this.#write = write;
    this.#mode = mode;
    this.#columns = Math.max(20, columns);
    for (const { name } of checked) {
      for (const profile of plan.settings.profiles) {
        this.#states.set(key(name, profile), {
          kind: "waiting",
          status: "waiting",
          since: this.#started,
          label: this.#server === undefined ? `${name} ${profile}` : profile,
        });
      }
    }
    if (mode === "live") {
      this.#draw();
      this.#timer = setInterval(() => this.#draw(), TICK_MS);
    } else if (mode === "plain") {
      this.#plainTimer = setTimeout(() => {
        this.#plainOn = true;
        this.#emit(
          `mcpeval: still discovering after ${seconds(plainAfterMs)}: ${
            countsOf([...this.#states.values()])
          }\n`,
        );
      }, plainAfterMs);
    } else if (this.#server !== undefined) {
      this.#emit(`mcpeval: discovering ${this.#server}, ${this.#states.size} profile(s)\n`);
    } else {
      this.#emit(`mcpeval: discovering ${this.#servers} server(s)\n`);
    }
  }

  /** Takes one discovery event of one server (never throws, never waits). */
  readonly observe = (event: DiscoveryEvent & { readonly server: string }): void => {
    if (this.#stopped || event.kind === "leftover" || event.kind === "stderr") return;
    const id = key(event.server, event.profile);
    const previous = this.#states.get(id);
    if (previous === undefined) return;
    const status = event.kind === "starting"
      ? this.#starting.get(event.server) ?? "starting"
      : statusOf(event);
    const kindChanged = previous.kind !== event.kind;
    this.#states.set(id, {
      kind: event.kind,
      status,
      // A new page keeps the clock of the listing.
      since: kindChanged ? performance.now() : previous.since,
      label: previous.label,
    });
    clearTimeout(this.#slowTimers.get(id));
    if (this.#mode === "plain") {
      if (this.#plainOn && (event.kind === "done" || event.kind === "incomplete")) {
        this.#plainLine(event.server, previous.label, status);
      }
      return;
    }
    if (event.kind === "starting") {
      const slow = this.#slow.get(event.server) ?? status;
      this.#slowTimers.set(id, setTimeout(() => this.#startingSlowly(id, slow), STARTING_SLOW_MS));
    }
    // Every change is drawn when it happens (a write is queued, never awaited), so each state is
    // shown however fast the next one follows; the timer only moves the clocks on.
    if (this.#mode === "live") this.#draw();
    else if (kindChanged) this.#emit(`mcpeval: ${previous.label}: ${status}\n`);
  };

  /** `plain`: the line for a profile that ended, or for its server once all of its did. */
  #plainLine(server: string, label: string, status: string): void {
    const states = [...this.#states.values()];
    const finished = (state: ProfileState) => state.kind === "done" || state.kind === "incomplete";
    if (this.#server !== undefined) {
      const done = states.filter(finished).length;
      this.#emit(`mcpeval: ${label}: ${status} (${done} of ${states.length} profiles finished)\n`);
      return;
    }
    const ofServer = [...this.#states].filter(([id]) => id.startsWith(key(server, "")))
      .map(([, state]) => state);
    if (!ofServer.every(finished)) return;
    const servers = new Map<string, boolean>();
    for (const [id, state] of this.#states) {
      const name = id.slice(0, id.indexOf("\u0000"));
      servers.set(name, (servers.get(name) ?? true) && finished(state));
    }
    const complete = ofServer.filter((state) => state.kind === "done").length;
    const ended = [...servers.values()].filter(Boolean).length;
    this.#emit(
      `mcpeval: server ${server} finished, ${complete} of ${ofServer.length} profiles complete (${ended} of ${servers.size} servers finished)\n`,
    );
  }

  /** A profile still starting after {@linkcode STARTING_SLOW_MS}: its line says so at once. */
  #startingSlowly(id: string, slow: string): void {
    const state = this.#states.get(id);
    if (this.#stopped || state?.kind !== "starting") return;
    this.#states.set(id, { ...state, status: slow });
    if (this.#mode === "live") this.#draw();
    else this.#emit(`mcpeval: ${state.label}: ${slow}\n`);
  }

  /**
   * Writes `text` (whole lines) on stderr above the live lines, which are drawn again below it;
   * on a dumb terminal, or once stopped, simply after what is there. Text given in the same
   * turn is written at once; resolves once it was.
   */
  above(text: string): Promise<void> {
    if (this.#mode !== "live" || this.#stopped) {
      this.#emit(text);
      return this.#writing;
    }
    this.#pending += text;
    this.#flushing ??= Promise.resolve().then(() => {
      this.#flushing = undefined;
      this.#flushAbove();
      return this.#writing;
    });
    return this.#flushing;
  }

  /** Erases the live lines, writes the pending text, and draws them again (unless stopped). */
  #flushAbove(): void {
    if (this.#pending === "") return;
    const text = this.#pending;
    this.#pending = "";
    this.#emit((this.#drawn > 0 ? `${ESC}${this.#drawn}F${ESC}0J` : "") + text);
    this.#drawn = 0;
    if (!this.#stopped) this.#draw();
  }

  /**
   * Stops updating. `clear`: erase the live lines (the report follows on the same terminal);
   * otherwise they stay, in their final state.
   */
  async stop(clear: boolean): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#plainTimer);
    for (const timer of this.#slowTimers.values()) clearTimeout(timer);
    if (this.#mode === "live") {
      this.#flushAbove();
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
    const states = [...this.#states.values()];
    // A run of one server shows every profile; a fleet the profiles under way.
    const shown = this.#server !== undefined
      ? states
      : states.filter((state) => RUNNING.has(state.kind));
    const width = Math.max(0, ...shown.map((state) => state.label.length));
    const clock = (ms: number) => seconds(ms);
    const header = this.#server !== undefined
      ? `mcpeval: discovering ${this.#server} (${clock(now - this.#started)})`
      : `mcpeval: discovering ${this.#servers} server${this.#servers === 1 ? "" : "s"} (${
        clock(now - this.#started)
      }): ${countsOf(states)}`;
    const lines = [
      header,
      ...shown.slice(0, this.#server !== undefined ? shown.length : MAX_ACTIVE_LINES).map((
        state,
      ) =>
        `  ${state.label.padEnd(width)}  ${state.status}${
          RUNNING.has(state.kind) ? ` (${clock(now - state.since)})` : ""
        }`
      ),
      ...(this.#server === undefined && shown.length > MAX_ACTIVE_LINES
        ? [`  and ${shown.length - MAX_ACTIVE_LINES} more under way`]
        : []),
    ].map((line) => line.slice(0, this.#columns - 1));
    // Back over the lines drawn last time; a shorter frame clears what is left below it.
    const up = this.#drawn > 0 ? `${ESC}${this.#drawn}F` : "";
    const shorter = lines.length < this.#drawn ? `${ESC}0J` : "";
    this.#drawn = lines.length;
    this.#emit(up + shorter + lines.map((line) => `${ESC}2K${line}\n`).join(""));
  }

  #emit(text: string): void {
    if (text === "") return;
    this.#writing = this.#writing.then(() => this.#write(text)).catch(() => {});
  }
}

function key(server: string, profile: string): string {
  return `${server}\u0000${profile}`;
}

/** A fleet's profiles by state, in fixed words. */
function countsOf(states: readonly ProfileState[]): string {
  const count = (test: (state: ProfileState) => boolean) => states.filter(test).length;
  const running = count((state) => RUNNING.has(state.kind));
  const done = count((state) => state.kind === "done" || state.kind === "incomplete");
  const waiting = count((state) => state.kind === "waiting");
  return `profiles ${done} finished, ${running} under way, ${waiting} waiting`;
}

/** The words for one event. */
function statusOf(event: Exclude<DiscoveryEvent, { kind: "leftover" | "stderr" }>): string {
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
