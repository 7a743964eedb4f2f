/**
 * Reference detection: the CommonMark inline code spans of a server's instructions.
 *
 * @module
 */
// @ts-types="@types/commonmark"
import { Parser } from "commonmark";

/**
 * The contents of every inline code span in `markdown`, as CommonMark defines them (code blocks,
 * fenced or indented, are not inline code spans).
 *
 * @example
 * ```ts
 * inlineCodeSpans("Call `echo` first.\n\n    `not-inline`"); // Set { "echo" }
 * ```
 */
export function inlineCodeSpans(markdown: string): Set<string> {
  const spans = new Set<string>();
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event !== null; event = walker.next()) {
    if (event.entering && event.node.type === "code" && event.node.literal !== null) {
      spans.add(event.node.literal);
    }
  }
  return spans;
}
