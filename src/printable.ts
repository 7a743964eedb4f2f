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

/**
 * Every character of server text that a terminal would act on or hide: C0 and C1 controls
 * (escape sequences, `\r`, backspace), format characters (bidirectional overrides and isolates,
 * U+061C, zero-width characters, U+FEFF, tags) and the line and paragraph separators.
 */
const UNSAFE_FOR_TERMINAL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Server text (a stderr line) as it may be shown on a terminal: every control, format and
 * separator character (Unicode categories Cc, Cf, Zl, Zp) escaped as `\xHH`, `\uHHHH` or
 * `\u{HHHHH}`, so that nothing the server wrote moves the cursor, changes the terminal or
 * reorders what is shown; every other character as it is. The one place where server text is
 * made safe for a terminal.
 *
 * @example
 * ```ts
 * terminalSafe("npm \x1b[31merror\u202e"); // "npm \\x1b[31merror\\u202e"
 * ```
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, (char) => {
    const code = char.codePointAt(0)!;
    const hex = code.toString(16);
    return code <= 0xff
      ? `\\x${hex.padStart(2, "0")}`
      : code <= 0xffff
      ? `\\u${hex.padStart(4, "0")}`
      : `\\u{${hex}}`;
  });
}
