/**
 * A stdio server's last stderr lines as a report carries them: the server's own words, never
 * mixed with mcpeval's phrases, escaped (anything but printable ASCII as `\u{…}`) and bounded
 * (lines, characters per line, bytes in all). The one place that names the escaping.
 *
 * @module
 */
import {
  MAX_REPORT_STDERR_TAIL_BYTES,
  MAX_STDERR_TAIL_LINE_CHARS,
  MAX_STDERR_TAIL_LINES,
} from "../limits.ts";
import { escaped } from "../printable.ts";

/** One line as a report shows it: printable ASCII only, cut (then `...`). */
function escapedLine(line: string): string {
  // `escaped` quotes its result; the report's field says what the lines are instead.
  return escaped(line, MAX_STDERR_TAIL_LINE_CHARS).slice(1, -1);
}

/** The lines a report carries for `tail` (raw), the newest kept within the bounds. */
export function reportedTail(tail: readonly string[]): string[] {
  const lines = tail.slice(-MAX_STDERR_TAIL_LINES).map(escapedLine);
  let bytes = lines.reduce((sum, line) => sum + line.length, 0);
  while (lines.length > 0 && bytes > MAX_REPORT_STDERR_TAIL_BYTES) bytes -= lines.shift()!.length;
  return lines;
}

/** The lead-in of a shown tail: says whose words follow. */
export const STDERR_TAIL_LEAD =
  "the last lines the server wrote to stderr, its own output, not mcpeval's";
