/**
 * The one writer of a stdio server's own words (its stderr), for the command line and the
 * library alike. They never reach a report or a file: only mcpeval's stderr, and only with
 * `--server-stderr tail` (the default on a terminal) or `inherit`.
 *
 * - `inherit`: each line as it comes, after the prefix `[SERVER PROFILE] `; a line that another
 *   profile of the same server already printed is not printed again.
 * - `tail`: once discovery ended, for each server with a profile that ended because its server
 *   went away or did not answer (`transport-lost`, `timeout`), the last lines of the first such
 *   profile, once, after a fixed lead-in that says whose words follow.
 * - `discard`: nothing; with `pointer`, one line per such server names `--server-stderr tail`.
 *
 * Every line shown is masked first (every value mcpeval passed to the servers, every URL's
 * user-info: {@linkcode masker}), then escaped, cut and neutralised ({@linkcode serverLine}):
 * nothing a server writes moves a terminal's cursor or reads as a CI runner's command. A line
 * longer than one piece (`MAX_STDERR_LINE_BYTES`) is shown as its first piece, then `...`.
 *
 * @module
 */
import {
  MAX_STDERR_REMEMBERED_LINES,
  MAX_STDERR_TAIL_LINE_CHARS,
  MAX_STDERR_TAIL_LINES,
} from "../limits.ts";
import { type Masker, masker, serverLine } from "../printable.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { IncompleteReason } from "../protocol/incomplete.ts";
import type { ServerStderr, Target } from "../target.ts";
import type { RunEvent } from "./run.ts";

/** A server of the run: its label and where it is. */
export interface ServerOfRun {
  readonly server: string;
  readonly target: Target;
}

/** How one profile ended, as far as its stderr is concerned (a report's profile). */
export interface ProfileEnd {
  readonly profile: ProfileLabel;
  readonly complete: boolean;
  readonly incomplete?: { readonly reason: string } | null;
}

/** What discovery of one server gave, as far as its stderr is concerned. */
export interface ServerResult {
  readonly name: string;
  /** Its profiles as reported; undefined when its command could not be started. */
  readonly outcomes?: readonly ProfileEnd[];
}

/** What the writer needs: the run's servers, the values to mask, where to write. */
export interface ServerStderrOptions {
  readonly servers: readonly ServerOfRun[];
  /** Every value mcpeval passed to a server of the run (env values, resolved variables, headers). */
  readonly masked: Iterable<string>;
  /** Writes whole lines on mcpeval's stderr. */
  readonly write: (text: string) => Promise<void>;
  /** With `discard`: name `--server-stderr tail` for each server whose words would say why. */
  readonly pointer?: boolean;
}

/** The reasons for which a server's last stderr lines may say why: it went away, or hung. */
const TOLD_REASONS: ReadonlySet<string> = new Set<IncompleteReason>(["transport-lost", "timeout"]);

/** Every phrase the writer prints around a server's words. */
const PHRASES = {
  lead:
    "the last lines it wrote to stderr follow, its own words (masked and escaped), not mcpeval's",
  silent: "it wrote nothing to stderr",
  pointer: "--server-stderr tail shows the last lines it wrote to stderr (never in a report)",
} as const;

/** Enough of a line to show `MAX_STDERR_TAIL_LINE_CHARS` characters and to know there were more. */
const KEPT_CHARS = 2 * MAX_STDERR_TAIL_LINE_CHARS + 2;

/** The stderr of every stdio server of one run. */
export class ServerStderrWriter {
  /** Per stdio server, its `--server-stderr` mode. */
  readonly #modes: ReadonlyMap<string, ServerStderr>;
  readonly #mask: Masker;
  readonly #sink: (text: string) => Promise<void>;
  readonly #pointer: boolean;
  /** Per server and profile: whether the next piece goes on with a line already taken. */
  readonly #continuing = new Set<string>();
  /** Inherit: per server, each printed line and the profile that printed it first. */
  readonly #printed = new Map<string, Map<string, ProfileLabel>>();
  /** How many lines `#printed` holds, over all servers. */
  #remembered = 0;
  /** Tail: per server and profile, its last lines (masked, not yet escaped). */
  readonly #last = new Map<string, Map<ProfileLabel, string[]>>();
  #writing: Promise<void> = Promise.resolve();

  /** The writer of `options.servers`' stderr. */
  constructor({ servers, masked, write, pointer = false }: ServerStderrOptions) {
    this.#modes = new Map(
      servers.flatMap(({ server, target }) =>
        target.kind === "stdio" ? [[server, target.stderr] as const] : []
      ),
    );
    this.#mask = masker(masked);
    this.#sink = write;
    this.#pointer = pointer;
  }

  /** The `--server-stderr` modes whose lines the run should give as events (`stderrEvents`). */
  get heard(): ReadonlySet<ServerStderr> {
    return new Set<ServerStderr>(["tail", "inherit"]);
  }

  /** Takes one event of the run: a `stderr` line is shown or kept; any other is not for here. */
  readonly observe = (event: RunEvent): void => {
    if (event.kind !== "stderr") return;
    const { server, profile, line } = event;
    const mode = this.#modes.get(server);
    if (mode !== "tail" && mode !== "inherit") return;
    const stream = `${server} ${profile}`;
    const continues = event.continues === true;
    // A piece that goes on with a line already taken: that line was shown as its first piece.
    if (this.#continuing.has(stream)) {
      if (!continues) this.#continuing.delete(stream);
      return;
    }
    if (continues) this.#continuing.add(stream);
    const masked = this.#mask(line, continues) + (continues ? "..." : "");
    if (mode === "inherit") this.#inherit(server, profile, masked);
    else this.#keep(server, profile, masked);
  };

  #keep(server: string, profile: ProfileLabel, line: string): void {
    if (line.trim() === "") return;
    const profiles = this.#last.get(server) ?? new Map<ProfileLabel, string[]>();
    this.#last.set(server, profiles);
    const lines = profiles.get(profile) ?? [];
    profiles.set(profile, lines);
    lines.push(line.length > KEPT_CHARS ? line.slice(0, KEPT_CHARS) : line);
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
    this.#write(`${prefixOf(server, profile)}${serverLine(line, Number.POSITIVE_INFINITY)}\n`);
  }

  #write(text: string): void {
    const sink = this.#sink;
    this.#writing = this.#writing.then(() => sink(text)).catch(() => {});
  }

  /**
   * Once discovery ended: every inherited line written; then, for each server whose profile
   * ended because the server went away or did not answer, the last lines of the first such
   * profile (`tail`), or the pointer (`discard`).
   */
  async finish(results: Iterable<ServerResult>): Promise<void> {
    await this.#writing;
    for (const { name, outcomes } of results) {
      const mode = this.#modes.get(name);
      if (!outcomes || (mode === "discard" && !this.#pointer) || mode === "inherit") continue;
      const told = outcomes.filter((outcome) =>
        !outcome.complete && TOLD_REASONS.has(outcome.incomplete?.reason ?? "")
      );
      if (told.length === 0 || mode === undefined) continue;
      const kept = this.#last.get(name);
      const failed = told.find((outcome) => (kept?.get(outcome.profile)?.length ?? 0) > 0) ??
        told[0];
      const about = `mcpeval: server ${name} (profile ${failed.profile}) ended incomplete (${
        failed.incomplete!.reason
      })`;
      if (mode === "discard") {
        await this.#sink(`${about}; ${PHRASES.pointer}\n`);
        continue;
      }
      const lines = kept?.get(failed.profile) ?? [];
      await this.#sink(
        lines.length === 0
          ? `${about}; ${PHRASES.silent}\n`
          : `${about}; ${PHRASES.lead}:\n${
            lines.map((line) =>
              `${prefixOf(name, failed.profile)}${serverLine(line, MAX_STDERR_TAIL_LINE_CHARS)}\n`
            ).join("")
          }`,
      );
    }
  }
}

/** The non-blank prefix of each shown line: whose words they are. */
function prefixOf(server: string, profile: ProfileLabel): string {
  return `[${server} ${profile}] `;
}
