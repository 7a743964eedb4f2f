/**
 * What of a user's input may be shown.
 *
 * @module
 */

/**
 * `value` if it can be shown on one line as it is (printable ASCII, at most 200 characters),
 * else undefined: a value with line breaks or control characters is never echoed.
 */
export function shown(value: string): string | undefined {
  return /^[\x20-\x7e]{1,200}$/.test(value) ? value : undefined;
}

/**
 * `value` quoted for one line of a message: every character outside printable ASCII (line
 * breaks, escapes, bidirectional controls, any non-ASCII) as `\u{…}`, a quote or backslash
 * escaped, cut at `max` characters.
 *
 * @example
 * ```ts
 * escaped("nodir/x.json"); // '"nodir/x.json"'
 * escaped("a\x1b[31m"); // '"a\\u{1b}[31m"'
 * ```
 */
export function escaped(value: string, max = 200): string {
  const chars = [...value];
  const text = chars.slice(0, max).map((char) =>
    /^[\x20-\x7e]$/.test(char)
      ? (char === '"' || char === "\\" ? `\\${char}` : char)
      : `\\u{${char.codePointAt(0)!.toString(16)}}`
  ).join("");
  return `"${text}${chars.length > max ? "..." : ""}"`;
}
