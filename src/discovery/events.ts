/**
 * What discovery tells its observer while it runs: each profile's progress, the processes it
 * could not stop and, where asked for, the lines a stdio server writes to stderr. Events carry
 * only profile labels, fixed words and numbers, except a `stderr` event's line, which is the
 * server's own text as it wrote it (its receiver escapes it before showing it anywhere).
 *
 * @module
 */
import type { ProfileLabel } from "../profiles.ts";
import type { IncompleteReason } from "../protocol/incomplete.ts";
import type { Leftover } from "../transport/transport.ts";

/** One thing that happened to one profile. */
export type DiscoveryEvent =
  /** Its connection is being opened and the server initialized. */
  | { readonly kind: "starting"; readonly profile: ProfileLabel }
  /** It waits out the settle window of `ms` milliseconds. */
  | { readonly kind: "settling"; readonly profile: ProfileLabel; readonly ms: number }
  /** A `tools/list` request is out; `pages` pages were accepted before it. */
  | { readonly kind: "listing"; readonly profile: ProfileLabel; readonly pages: number }
  /** Discovery completed with `tools` tools. */
  | { readonly kind: "done"; readonly profile: ProfileLabel; readonly tools: number }
  /** Discovery stopped. */
  | {
    readonly kind: "incomplete";
    readonly profile: ProfileLabel;
    readonly reason: IncompleteReason;
  }
  /** Closing its connection left a server process behind. */
  | { readonly kind: "leftover"; readonly profile: ProfileLabel; readonly leftover: Leftover }
  /**
   * Its stdio server wrote a line to stderr (without its line end, cut into pieces of at most
   * `MAX_STDERR_LINE_BYTES` bytes; `continues`: the line goes on in the next piece): raw server
   * text, never shown before it is masked and escaped.
   */
  | {
    readonly kind: "stderr";
    readonly profile: ProfileLabel;
    readonly line: string;
    readonly continues?: true;
  };

/** Receives discovery events as they happen; it must not throw or block. */
export type DiscoveryObserver = (event: DiscoveryEvent) => void;
