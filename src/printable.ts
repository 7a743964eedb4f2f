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

/** The fixed mark that stands, in a server's shown words, for a value mcpeval passed to it. */
export const MASK = "<masked>";

/**
 * A value shorter than this is not masked: it carries too little to be a secret, and masking it
 * (an env value `1`, `dev`) would blank every place the same characters stand in every line.
 */
export const MIN_MASKED_CHARS = 4;

/** A URL's user-info (`scheme://user:password@`), kept up to its scheme. */
const USER_INFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#@]+@/g;

/**
 * Replaces values in server text with {@linkcode MASK}: `cut` says the text was cut off after
 * its end, so that a value it ends in the middle of is masked too.
 */
export type Masker = (text: string, cut?: boolean) => string;

/**
 * A {@linkcode Masker} of `values` (the longest first; those shorter than
 * {@linkcode MIN_MASKED_CHARS} are left) and of every URL's user-info.
 *
 * @example
 * ```ts
 * const mask = masker(["s3cret-token"]);
 * mask("auth s3cret-token for postgres://admin:pw@db/x"); // "auth <masked> for postgres://<masked>@db/x"
 * mask("auth s3cr", true); // "auth <masked>"
 * ```
 */
export function masker(values: Iterable<string>): Masker {
  const kept = [...new Set(values)].filter((value) => value.length >= MIN_MASKED_CHARS)
    .sort((a, b) => b.length - a.length);
  const pattern = kept.length === 0 ? undefined : new RegExp(
    kept.map((value) => value.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")).join("|"),
    "g",
  );
  return (text, cut = false) => {
    let masked = (pattern ? text.replace(pattern, MASK) : text).replace(USER_INFO, `$1${MASK}@`);
    if (cut) {
      // The longest start of a value that the text ends with.
      for (const value of kept) {
        for (let length = value.length - 1; length >= MIN_MASKED_CHARS; length--) {
          if (masked.endsWith(value.slice(0, length))) {
            masked = masked.slice(0, masked.length - length) + MASK;
            break;
          }
        }
      }
    }
    return masked;
  };
}

/**
 * The sequences that a CI runner reads as a command anywhere in a line of a step's output:
 * GitHub's `##[name]`, Azure Pipelines' `##vso[` and TeamCity's `##teamcity[`. (GitHub's
 * `::name` counts only at the start of a line, after blanks: a shown line never starts with
 * server text.)
 */
const CI_COMMAND = /#(?=\[|vso\[|teamcity\[)/gi;

/**
 * Server text, masked already ({@linkcode masker}), as one line of mcpeval's stderr: every
 * character a terminal would act on escaped ({@linkcode terminalSafe}), cut at `max` characters
 * (then `...`), and every `#` that would start a CI runner's command escaped as `\x23`. Never
 * wrapped; the caller puts a non-blank prefix of its own before it.
 *
 * @example
 * ```ts
 * serverLine("##[error]x \x1b[2J", 200); // "#\\x23[error]x \\x1b[2J"
 * ```
 */
export function serverLine(masked: string, max: number): string {
  const characters = Array.from(terminalSafe(masked));
  const cut = characters.length <= max
    ? characters.join("")
    : characters.slice(0, max).join("") + "...";
  return cut.replace(CI_COMMAND, "\\x23");
}
