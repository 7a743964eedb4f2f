/**
 * A stdio server's stderr where the user sees it, never in a report or a file. With
 * `--server-stderr inherit`, each line is prefixed with its server and profile, and a line that
 * another profile of the same server already printed is not printed again. On a terminal
 * (without `--quiet`) and `discard`, the last lines of each profile are kept, and when a server
 * exited before answering, those of one profile are shown once, after a fixed lead-in that says
 * they are the server's own output (unless the report on stdout, on a terminal too, shows them). Every line is shown with its controls, escape sequences and
 * invisible format characters escaped ({@linkcode terminalSafe}), never as the server wrote it;
 * a line the server did not end is held until it ends (or the server exits), so it cannot be
 * completed later into something else.
 *
 * @module
 */
import {
  MAX_STDERR_REMEMBERED_LINES,
  MAX_STDERR_TAIL_LINE_CHARS,
  MAX_STDERR_TAIL_LINES,
} from "../limits.ts";
import { terminalSafe } from "../printable.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { RunEvent } from "../run/run.ts";
import type { ServerStderr, Target } from "../target.ts";
import type { CliContext } from "./context.ts";

/** A server of the run: its label and where it is. */
export interface ServerOfRun {
  readonly server: string;
  readonly target: Target;
}

/** How one profile ended, as far as its stderr is concerned (a report's profile). */
export interface ProfileEnd {
  readonly profile: ProfileLabel;
  readonly complete: boolean;
  readonly incomplete?: { readonly detail?: { readonly cause: string } } | null;
}

/** What discovery of one server gave, as far as its stderr is concerned. */
export interface ServerResult {
  readonly name: string;
  /** Its profiles as reported; undefined when its command could not be started. */
  readonly outcomes?: readonly ProfileEnd[];
}

/** The stderr of every stdio server of one run. */
export class ServerOutput {
  readonly #context: CliContext;
  readonly #tails: boolean;
  /** Per stdio server, its `--server-stderr` mode. */
  readonly #modes: ReadonlyMap<string, ServerStderr>;
  /** Inherit: per server, each printed line and the profile that printed it first. */
  readonly #printed = new Map<string, Map<string, ProfileLabel>>();
  /** How many lines `#printed` holds, over all servers. */
  #remembered = 0;
  /** Tails: per server and profile, its last lines. */
  readonly #last = new Map<string, Map<ProfileLabel, string[]>>();
  readonly #sink: (text: string) => Promise<void>;
  #writing: Promise<void> = Promise.resolve();

  /**
   * The stderr of `servers`. `quiet`: `--quiet` (no tail, as no progress). `reportShowsTail`:
   * the report on stdout shows the tail (no tail here either when stdout is a terminal). `write`: where
   * inherited lines go (above the live progress, when it is shown); the context's stderr by
   * default.
   */
  constructor(
    context: CliContext,
    servers: readonly ServerOfRun[],
    quiet: boolean,
    write?: (text: string) => Promise<void>,
    reportShowsTail = false,
  ) {
    this.#context = context;
    // A report on the same terminal that shows the tail itself: it is not shown twice.
    this.#tails = context.stderrTerminal !== undefined && !quiet &&
      !(context.stdoutTerminal === true && reportShowsTail);
    this.#modes = new Map(
      servers.flatMap(({ server, target }) =>
        target.kind === "stdio" ? [[server, target.stderr] as const] : []
      ),
    );
    this.#sink = write ?? context.stderr;
  }

  /** The `--server-stderr` modes whose lines the run should give as events (`stderrEvents`). */
  get heard(): ReadonlySet<ServerStderr> {
    return new Set<ServerStderr>(this.#tails ? ["inherit", "discard"] : ["inherit"]);
  }

  /** Takes one event of the run: a `stderr` line is shown or kept; any other is not for here. */
  readonly observe = (event: RunEvent): void => {
    if (event.kind !== "stderr") return;
    const { server, profile, line } = event;
    const mode = this.#modes.get(server);
    if (mode === "inherit") this.#inherit(server, profile, line);
    else if (mode === "discard" && this.#tails) this.#keep(server, profile, line);
  };

  #keep(server: string, profile: ProfileLabel, line: string): void {
    if (line.trim() === "") return;
    const profiles = this.#last.get(server) ?? new Map<ProfileLabel, string[]>();
    this.#last.set(server, profiles);
    const lines = profiles.get(profile) ?? [];
    profiles.set(profile, lines);
    // Enough to show MAX_STDERR_TAIL_LINE_CHARS characters and to know there were more.
    const limit = 2 * MAX_STDERR_TAIL_LINE_CHARS + 2;
    lines.push(line.length > limit ? line.slice(0, limit) : line);
    if (lines.length > MAX_STDERR_TAIL_LINES) lines.shift();
  }

  #inherit(server: string, profile: ProfileLabel, line: string): void {
    const printed = this.#printed.get(server) ?? new Map<string, ProfileLabel>();
    this.#printed.set(server, printed);
    const first = printed.get(line);
    if (first !== undefined && first !== profile) return;
    if (first === undefined && this.#remembered < MAX_STDERR_REMEMBERED_LINES) {
      printed.set(line, profile);
      this.#remembered++;
    }
    this.#write(`[${server} ${profile}] ${terminalSafe(line)}\n`);
  }

  #write(text: string): void {
    const sink = this.#sink;
    this.#writing = this.#writing.then(() => sink(text)).catch(() => {});
  }

  /**
   * Once discovery ended: every inherited line written; then, on a terminal, for each server
   * that exited before answering, the last lines of its first such profile that wrote any.
   */
  async finish(results: Iterable<ServerResult>): Promise<void> {
    await this.#writing;
    for (const { name, outcomes } of results) {
      const kept = this.#last.get(name);
      if (!kept || !outcomes) continue;
      const failed = outcomes.find((outcome) =>
        exitedBeforeAnswering(outcome) && (kept.get(outcome.profile)?.length ?? 0) > 0
      );
      if (!failed) continue;
      const lines = kept.get(failed.profile)!;
      await this.#context.stderr(
        `mcpeval: server ${name} exited before answering (profile ${failed.profile}); the last lines it wrote to stderr, its own output, not mcpeval's:\n${
          lines.map((line) => `  | ${escaped(line)}\n`).join("")
        }`,
      );
    }
  }
}

/** Whether a profile ended because its server process exited (or was killed) before answering. */
function exitedBeforeAnswering(outcome: ProfileEnd): boolean {
  if (outcome.complete) return false;
  const cause = outcome.incomplete?.detail?.cause;
  return cause === "exited-before-initialize" || cause === "signal-before-initialize";
}

/**
 * A server's line as it may be shown on a terminal: escaped ({@linkcode terminalSafe}), at most
 * {@linkcode MAX_STDERR_TAIL_LINE_CHARS} characters (then `...`).
 */
function escaped(line: string): string {
  const visible = terminalSafe(line);
  const characters = Array.from(visible);
  return characters.length <= MAX_STDERR_TAIL_LINE_CHARS
    ? visible
    : characters.slice(0, MAX_STDERR_TAIL_LINE_CHARS).join("") + "...";
}
