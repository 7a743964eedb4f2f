/**
 * Linear-time extraction of CommonMark inline code spans, giving the same set of contents as
 * commonmark.js 0.31.2 (the set of `literal`s of its `code` nodes).
 *
 * This is a port of the parts of commonmark.js that decide which characters reach the inline
 * parser and which backticks can open or close a code span:
 *
 * - the block parser (blocks.js) line by line: containers (block quotes, lists, items), leaves
 *   (paragraphs, ATX and setext headings, thematic breaks, fenced and indented code, HTML blocks
 *   1-7), lazy continuation lines, tabs and partially consumed tabs, NUL replacement;
 * - link reference definitions at the start of paragraphs (when a paragraph closes, and before a
 *   setext underline, as commonmark.js does); only the set of defined labels matters here;
 * - the inline parser (inlines.js), reduced to the constructs that consume backticks or change
 *   what later constructs consume: code spans, backslash escapes, autolinks, raw HTML, and
 *   links and images (an inline link's destination and title, or a reference label, swallows
 *   the backticks in it: `[a](`b`)` has no code span), with the bracket stack and the
 *   "no links in links" deactivation. Emphasis, entities and line breaks consume no backticks
 *   and are skipped.
 *
 * Every place where commonmark.js rescans an unbounded stretch of text is replaced by a
 * precomputed table, a monotone cache or a one-pass scan: closing backtick strings (per-length
 * lists of backtick runs with forward-only cursors), ends of HTML comments, processing
 * instructions, CDATA and declarations (a remembered next occurrence), link destinations with
 * balanced parentheses (a next-smaller-depth table per whitespace-free stretch), thematic breaks
 * (one pass per line), blank lines under deeply nested list items (a stack of the blocks a blank
 * line stops at), leading indentation under many containers (findNextNonspace remembered per
 * line), the "no links in links" deactivation (a stack height), and reference definitions
 * (offsets instead of re-slicing). Reference labels (at most 1001 characters), link titles and
 * `<…>` destinations are scanned directly: a title starts after whitespace, so titles opened by
 * the same kind of quote never overlap, and a `<…>` destination stops at the next `<`. So time
 * and memory are linear in the input length.
 *
 * No difference from commonmark.js in the set of code span contents is known. Where
 * commonmark.js does not answer in practice, this still does: its link title regex takes 2^k
 * steps on k escaped quotes in an unclosed title (`[a](b "` then `\"` k times), and large
 * hostile inputs (19 MB of `[a`) exhaust its memory.
 *
 * @module
 */

// Character codes.
const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const DQUOTE = 34;
const HASH = 35;
const SQUOTE = 39;
const SLASH = 47;
const LPAREN = 40;
const RPAREN = 41;
const STAR = 42;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const COLON = 58;
const LT = 60;
const EQUALS = 61;
const GT = 62;
const QUESTION = 63;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const UNDERSCORE = 95;
const BACKTICK = 96;
const TILDE = 126;

// Block types.
const DOCUMENT = 0;
const LIST = 1;
const BLOCK_QUOTE = 2;
const ITEM = 3;
const HEADING = 4;
const THEMATIC_BREAK = 5;
const CODE_BLOCK = 6;
const HTML_BLOCK = 7;
const PARAGRAPH = 8;

// Regular expressions taken from commonmark.js (common.js, blocks.js, inlines.js), made sticky
// (and stripped of `^`) so they match at an index without slicing the subject. Those kept for
// their exact semantics (open and closing tags, autolinks, HTML block starts) backtrack at most
// linearly in the text one attempt covers: every choice point fails on its next character. An
// autolink or closing-tag attempt stops at the next `<`, and an open-tag attempt can only pass
// a `<` inside a quoted value; two attempts alive at the same position are never both outside
// a value nor both inside the same kind of quotes, so at most three overlap.
const TAGNAME = "[A-Za-z][A-Za-z0-9-]*";
const ATTRIBUTENAME = "[a-zA-Z_:][a-zA-Z0-9:._-]*";
const UNQUOTEDVALUE = "[^\"'=<>`\\x00-\\x20]+";
const SINGLEQUOTEDVALUE = "'[^']*'";
const DOUBLEQUOTEDVALUE = '"[^"]*"';
const ATTRIBUTEVALUE = "(?:" + UNQUOTEDVALUE + "|" + SINGLEQUOTEDVALUE + "|" +
  DOUBLEQUOTEDVALUE + ")";
const ATTRIBUTEVALUESPEC = "(?:\\s*=\\s*" + ATTRIBUTEVALUE + ")";
const ATTRIBUTE = "(?:\\s+" + ATTRIBUTENAME + ATTRIBUTEVALUESPEC + "?)";
const OPENTAG = "<" + TAGNAME + ATTRIBUTE + "*\\s*/?>";
const CLOSETAG = "</" + TAGNAME + "\\s*[>]";

const reOpenTag = new RegExp(OPENTAG, "y");
const reCloseTag = new RegExp(CLOSETAG, "y");
const reEmailAutolink =
  /<[a-zA-Z0-9.!#$%&'*+\/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*>/y;
// deno-lint-ignore no-control-regex
const reAutolink = /<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>/iy;

const reHtmlBlockOpen: RegExp[] = [
  /./, // unused: types are 1-7
  /<(?:script|pre|textarea|style)(?:\s|>|$)/iy,
  /<!--/y,
  /<[?]/y,
  /<![A-Za-z]/y,
  /<!\[CDATA\[/y,
  /<[/]?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[123456]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|section|search|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|[/]?[>]|$)/iy,
  new RegExp("(?:" + OPENTAG + "|" + CLOSETAG + ")\\s*$", "iy"),
];
const reHtmlBlockClose: RegExp[] = [
  /./, // unused
  /<\/(?:script|pre|textarea|style)>/i,
  /-->/,
  /\?>/,
  />/,
  /\]\]>/,
];

const isSpaceOrTab = (c: number) => c === SPACE || c === TAB;

/** ASCII punctuation: commonmark.js's ESCAPABLE. */
const isEscapable = (c: number) =>
  (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
  (c >= 123 && c <= 126);

/** commonmark.js's reWhitespaceChar: `[ \t\n\x0b\x0c\x0d]`. */
const isLinkWhitespace = (c: number) => c === SPACE || (c >= 9 && c <= 13);

/** Characters JavaScript's `.` does not match (no `s` flag). */
const isLineTerminator = (c: number) => c === NEWLINE || c === CR || c === 0x2028 || c === 0x2029;

/** commonmark.js's reMaybeSpecial: `^[#`~*+_=<>0-9-]`. */
const maybeSpecial = (c: number) =>
  c === HASH || c === BACKTICK || c === TILDE || c === STAR || c === PLUS || c === UNDERSCORE ||
  c === EQUALS || c === LT || c === GT || c === MINUS || (c >= 48 && c <= 57);

/** commonmark.js's isBlank: no character outside `[ \t\f\v\r\n]`. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== 12 && c !== 11 && c !== CR && c !== NEWLINE) {
      return false;
    }
  }
  return true;
}

/** commonmark.js's normalizeReference. */
function normalizeLabel(label: string): string {
  return label.slice(1, label.length - 1).trim().replace(/[ \t\r\n]+/g, " ").toLowerCase()
    .toUpperCase();
}

const EMPTY = new Int32Array(0);

/**
 * Scanning helpers over one string (a paragraph's content or an inline subject) shared by link
 * reference definitions and inline links. Each answers what the corresponding commonmark.js
 * function would, returning the end position or -1.
 */
class Scanner {
  readonly s: string;
  readonly n: number;
  // The current stretch for raw link destinations: [segStart, segEnd) has no whitespace.
  private segStart = -1;
  private segEnd = -1;
  private depth = EMPTY;
  private drop = EMPTY;

  constructor(s: string) {
    this.s = s;
    this.n = s.length;
  }

  /** reSpnl: `^ *(?:\n *)?`. */
  spnl(p: number): number {
    const s = this.s;
    while (s.charCodeAt(p) === SPACE) p++;
    if (s.charCodeAt(p) === NEWLINE) {
      p++;
      while (s.charCodeAt(p) === SPACE) p++;
    }
    return p;
  }

  /** reLinkLabel (`^\[(?:[^\\\[\]]|\\.){0,1000}\]`, flag s) with the 1001-character cap. */
  linkLabel(p: number): number {
    const s = this.s;
    if (s.charCodeAt(p) !== LBRACKET) return 0;
    const limit = Math.min(this.n, p + 1001);
    let q = p + 1;
    while (q < limit) {
      const c = s.charCodeAt(q);
      if (c === RBRACKET) return q + 1 - p;
      if (c === LBRACKET) return 0;
      if (c === BACKSLASH) {
        if (q + 1 >= this.n) return 0;
        q += 2;
      } else {
        q++;
      }
    }
    return 0;
  }

  /** parseLinkDestination: the end of the destination at p, or -1. */
  destination(p: number): number {
    const s = this.s;
    if (s.charCodeAt(p) === LT) {
      // reLinkDestinationBraces: `<(?:[^<>\n\\\x00]|\\.)*>`.
      for (let q = p + 1; q < this.n;) {
        const c = s.charCodeAt(q);
        if (c === GT) return q + 1;
        if (c === LT || c === NEWLINE) return -1;
        if (c === BACKSLASH) {
          if (q + 1 >= this.n || isLineTerminator(s.charCodeAt(q + 1))) return -1;
          q += 2;
        } else {
          q++;
        }
      }
      return -1;
    }
    return this.rawDestination(p);
  }

  /**
   * The hand-rolled loop of parseLinkDestination: up to the first whitespace, or the first `)`
   * that would make the count of unescaped parentheses negative. A short destination is
   * scanned directly; past 64 characters, a table for the whole whitespace-free stretch answers
   * this and every later start in it (p never follows a backslash: it follows `(`, `:`, a space
   * or a newline, so escapes pair up from the start of each backslash run, whatever the start).
   */
  private rawDestination(p: number): number {
    const s = this.s;
    const n = this.n;
    if (p >= n) return -1;
    if (p < this.segStart || p >= this.segEnd) {
      let depth = 0;
      let q = p;
      for (const limit = Math.min(n, p + 64); q < limit; q++) {
        const c = s.charCodeAt(q);
        if (c === BACKSLASH && q + 1 < n && isEscapable(s.charCodeAt(q + 1))) {
          q++;
        } else if (c === LPAREN) {
          depth++;
        } else if (c === RPAREN) {
          if (depth === 0) return q; // may be p: an empty destination before `)`
          depth--;
        } else if (isLinkWhitespace(c)) {
          return q === p || depth !== 0 ? -1 : q;
        }
      }
      if (q >= n) return q === p || depth !== 0 ? -1 : n;
      this.buildSegment(p);
    }
    const k = p - this.segStart;
    const t = this.drop[k];
    if (t >= 0) return this.segStart + t - 1; // stops before the unbalanced `)` (maybe at p)
    const end = this.segEnd;
    if (end === p) return -1; // empty, and not followed by `)`
    if (this.depth[end - this.segStart] !== this.depth[k]) return -1; // unbalanced
    return end;
  }

  private buildSegment(p: number): void {
    const s = this.s;
    let end = p;
    while (end < this.n && !isLinkWhitespace(s.charCodeAt(end))) end++;
    const len = end - p;
    const depth = new Int32Array(len + 1);
    let d = 0;
    for (let q = p; q < end;) {
      const c = s.charCodeAt(q);
      if (c === BACKSLASH && q + 1 < this.n && isEscapable(s.charCodeAt(q + 1))) {
        depth[q - p + 1] = d;
        depth[q - p + 2] = d;
        q += 2;
        continue;
      }
      if (c === LPAREN) d++;
      else if (c === RPAREN) d--;
      depth[q - p + 1] = d;
      q++;
    }
    // drop[k]: the first t > k with depth[t] < depth[k] (a monotone stack, right to left).
    const drop = new Int32Array(len + 1);
    const stack = new Int32Array(len + 1);
    let top = 0;
    for (let k = len; k >= 0; k--) {
      while (top > 0 && depth[stack[top - 1]] >= depth[k]) top--;
      drop[k] = top > 0 ? stack[top - 1] : -1;
      stack[top++] = k;
    }
    this.segStart = p;
    this.segEnd = end;
    this.depth = depth;
    this.drop = drop;
  }

  /**
   * reLinkTitle at p: `"…"`, `'…'` or `(…)` where a backslash takes the next character along;
   * the end, or -1. Titles always start after whitespace, so two titles opened by the same kind
   * of quote never overlap and their scans add up to a linear total.
   */
  title(p: number): number {
    const s = this.s;
    const open = s.charCodeAt(p);
    let close: number;
    if (open === DQUOTE || open === SQUOTE) close = open;
    else if (open === LPAREN) close = RPAREN;
    else return -1;
    for (let q = p + 1; q < this.n;) {
      const c = s.charCodeAt(q);
      if (c === BACKSLASH) {
        if (q + 1 >= this.n) return -1;
        q += 2;
      } else if (c === close) {
        return q + 1;
      } else if (open === LPAREN && c === LPAREN) {
        return -1;
      } else {
        q++;
      }
    }
    return -1;
  }

  /** reSpaceAtEndOfLine: `^ *(?:\n|$)`; the end, or -1. */
  spaceAtEndOfLine(p: number): number {
    const s = this.s;
    while (s.charCodeAt(p) === SPACE) p++;
    if (p >= this.n) return p;
    if (s.charCodeAt(p) === NEWLINE) return p + 1;
    return -1;
  }

  /**
   * parseReference at `start`: adds the normalized label to `refs` and returns the number of
   * characters consumed, or returns 0.
   */
  reference(start: number, refs: Set<string>): number {
    const n = this.linkLabel(start);
    if (n === 0) return 0;
    let p = start + n;
    if (this.s.charCodeAt(p) !== COLON) return 0;
    p = this.spnl(p + 1);
    p = this.destination(p);
    if (p < 0) return 0;
    const beforeTitle = p;
    p = this.spnl(p);
    // undefined: no title tried; null: a title was tried and failed.
    let title: boolean | null | undefined = undefined;
    if (p !== beforeTitle) {
      const t = this.title(p);
      if (t >= 0) {
        title = true;
        p = t;
      } else {
        title = null;
      }
    }
    if (title === null) p = beforeTitle;
    let end = this.spaceAtEndOfLine(p);
    if (end < 0) {
      if (title === null) return 0;
      end = this.spaceAtEndOfLine(beforeTitle);
      if (end < 0) return 0;
    }
    const label = normalizeLabel(this.s.slice(start, start + n));
    if (label === "") return 0;
    refs.add(label);
    return end - start;
  }
}

/**
 * First occurrence of a fixed string at or after a position, remembering the last answer:
 * queries come at increasing positions, so every character is searched at most once.
 */
class NextOccurrence {
  private s = "";
  private from = -1;
  private found = -1;
  constructor(private readonly needle: string) {}
  reset(s: string): void {
    this.s = s;
    this.from = -1;
  }
  at(p: number): number {
    if (this.from >= 0 && p >= this.from && (this.found < 0 || p <= this.found)) {
      return this.found;
    }
    this.from = p;
    this.found = this.s.indexOf(this.needle, p);
    return this.found;
  }
}

/**
 * The inline parser of commonmark.js, reduced to what decides code spans, run on one subject (a
 * paragraph's or heading's trimmed content) at a time.
 */
class InlineParser {
  private s = "";
  private scanner: Scanner | null = null;
  // Maximal backtick strings by length, and for each length the next candidate closer. Openers
  // come at increasing positions, so the cursors only move forward.
  private runs = new Map<number, number[]>();
  private cursors = new Map<number, number>();
  private commentEnd = new NextOccurrence("-->");
  private instructionEnd = new NextOccurrence("?>");
  private cdataEnd = new NextOccurrence("]]>");
  private declarationEnd = new NextOccurrence(">");
  // The bracket stack: whether each `[` or `![` opener is an image.
  private bracketImage = new Uint8Array(16);
  private bracketCount = 0;
  // commonmark.js's `bracketAfter` is false only for the latest bracket pushed, while it is on
  // the stack: its position there and the index of its `[` (all a shortcut label needs).
  private lastPushed = -1;
  private lastPushedIndex = 0;
  private trackBrackets = false;
  // Non-image brackets below this stack height were deactivated by a later link.
  private activeFrom = 0;

  constructor(private readonly refs: Set<string>) {}

  /** Adds the content of each code span in `subject` to `out`. */
  parse(subject: string, out: Set<string>): void {
    const s = subject;
    const n = s.length;
    this.s = s;
    this.scanner = null;
    this.runs.clear();
    this.cursors.clear();
    this.commentEnd.reset(s);
    this.instructionEnd.reset(s);
    this.cdataEnd.reset(s);
    this.declarationEnd.reset(s);
    this.bracketCount = 0;
    this.lastPushed = -1;
    this.activeFrom = 0;
    // Without a `]`, no bracket is ever looked at.
    this.trackBrackets = s.includes("]");
    for (let i = s.indexOf("`"); i >= 0; i = s.indexOf("`", i)) {
      let j = i + 1;
      while (s.charCodeAt(j) === BACKTICK) j++;
      const list = this.runs.get(j - i);
      if (list) list.push(i);
      else this.runs.set(j - i, [i]);
      i = j;
    }

    let pos = 0;
    while (pos < n) {
      switch (s.charCodeAt(pos)) {
        case BACKTICK:
          pos = this.backticks(pos, out);
          break;
        case BACKSLASH: {
          const next = s.charCodeAt(pos + 1);
          pos += next === NEWLINE || isEscapable(next) ? 2 : 1;
          break;
        }
        case LT: {
          const e = this.autolinkOrHtml(pos);
          pos = e < 0 ? pos + 1 : e;
          break;
        }
        case LBRACKET:
          this.pushBracket(pos, false);
          pos++;
          break;
        case BANG:
          if (s.charCodeAt(pos + 1) === LBRACKET) {
            this.pushBracket(pos + 1, true);
            pos += 2;
          } else {
            pos++;
          }
          break;
        case RBRACKET:
          pos = this.closeBracket(pos);
          break;
        default:
          pos++;
      }
    }
  }

  /** parseBackticks at a backtick: the position to continue from. */
  private backticks(pos: number, out: Set<string>): number {
    const s = this.s;
    let e = pos + 1;
    while (s.charCodeAt(e) === BACKTICK) e++;
    const length = e - pos;
    const list = this.runs.get(length);
    if (!list) return e;
    let k = this.cursors.get(length) ?? 0;
    while (k < list.length && list[k] < e) k++;
    this.cursors.set(length, k);
    if (k === list.length) return e; // no closer: the backticks are literal
    const closer = list[k];
    let content = s.slice(e, closer);
    if (content.includes("\n")) content = content.replaceAll("\n", " ");
    if (
      content.length > 0 && content.charCodeAt(0) === SPACE &&
      content.charCodeAt(content.length - 1) === SPACE && /[^ ]/.test(content)
    ) {
      content = content.slice(1, content.length - 1);
    }
    out.add(content);
    return closer + length;
  }

  /** parseAutolink || parseHtmlTag at a `<`: the end, or -1. */
  private autolinkOrHtml(p: number): number {
    const s = this.s;
    reEmailAutolink.lastIndex = p;
    if (reEmailAutolink.test(s)) return reEmailAutolink.lastIndex;
    reAutolink.lastIndex = p;
    if (reAutolink.test(s)) return reAutolink.lastIndex;
    const c = s.charCodeAt(p + 1);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      reOpenTag.lastIndex = p;
      return reOpenTag.test(s) ? reOpenTag.lastIndex : -1;
    }
    if (c === SLASH) {
      reCloseTag.lastIndex = p;
      return reCloseTag.test(s) ? reCloseTag.lastIndex : -1;
    }
    if (c === QUESTION) { // <? … ?>
      const e = this.instructionEnd.at(p + 2);
      return e < 0 ? -1 : e + 2;
    }
    if (c !== BANG) return -1;
    if (s.startsWith("<!--", p)) {
      if (s.charCodeAt(p + 4) === GT) return p + 5; // <!-->
      if (s.startsWith("->", p + 4)) return p + 6; // <!--->
      const e = this.commentEnd.at(p + 4);
      return e < 0 ? -1 : e + 3;
    }
    const d = s.charCodeAt(p + 2);
    if ((d >= 65 && d <= 90) || (d >= 97 && d <= 122)) { // <!X … >
      const e = this.declarationEnd.at(p + 3);
      return e < 0 ? -1 : e + 1;
    }
    if (s.startsWith("<![CDATA[", p)) {
      const e = this.cdataEnd.at(p + 9);
      return e < 0 ? -1 : e + 3;
    }
    return -1;
  }

  private pushBracket(index: number, image: boolean): void {
    if (!this.trackBrackets) return;
    const count = this.bracketCount;
    if (count === this.bracketImage.length) {
      const more = new Uint8Array(count * 2);
      more.set(this.bracketImage);
      this.bracketImage = more;
    }
    this.bracketImage[count] = image ? 1 : 0;
    this.bracketCount = count + 1;
    this.lastPushed = count;
    this.lastPushedIndex = index;
  }

  private popBracket(): void {
    this.bracketCount--;
    if (this.lastPushed === this.bracketCount) this.lastPushed = -1;
    if (this.activeFrom > this.bracketCount) this.activeFrom = this.bracketCount;
  }

  /** parseCloseBracket at a `]`: the position to continue from. */
  private closeBracket(at: number): number {
    const s = this.s;
    const startpos = at + 1;
    if (this.bracketCount === 0) return startpos;
    const top = this.bracketCount - 1;
    const image = this.bracketImage[top] === 1;
    if (!image && top < this.activeFrom) {
      this.popBracket();
      return startpos;
    }
    const scan = this.scanner ??= new Scanner(s);
    let pos = startpos;
    let matched = false;
    if (s.charCodeAt(pos) === LPAREN) {
      let p = scan.spnl(pos + 1);
      p = scan.destination(p);
      if (p >= 0) {
        p = scan.spnl(p);
        if (p > 0 && isLinkWhitespace(s.charCodeAt(p - 1))) {
          const t = scan.title(p);
          if (t >= 0) p = t;
        }
        p = scan.spnl(p);
        if (s.charCodeAt(p) === RPAREN) {
          pos = p + 1;
          matched = true;
        }
      }
    }
    if (!matched) {
      const refs = this.refs;
      const length = scan.linkLabel(pos);
      let label: string | null = null;
      if (length > 2) label = s.slice(pos, pos + length);
      else if (top === this.lastPushed && refs.size > 0) {
        label = s.slice(this.lastPushedIndex, startpos);
      }
      if (length !== 0) pos += length;
      if (label !== null && refs.size > 0 && refs.has(normalizeLabel(label))) matched = true;
    }
    this.popBracket();
    if (!matched) return startpos;
    if (!image) this.activeFrom = this.bracketCount; // no links in links
    return pos;
  }
}

/** Growable per-depth storage for the open blocks (the chain from the document to the tip). */
class Chain {
  type = new Uint8Array(16);
  hasChild = new Uint8Array(16);
  // List items: marker offset (< 4), padding (<= 15) and list kind (bullet or delimiter).
  markerOffset = new Uint8Array(16);
  padding = new Uint8Array(16);
  listKey = new Uint16Array(16);
  length = 0;

  push(type: number): number {
    if (this.length === this.type.length) {
      const size = this.length * 2;
      const grow = <T extends Uint8Array | Uint16Array>(a: T, b: T): T => (b.set(a), b);
      this.type = grow(this.type, new Uint8Array(size));
      this.hasChild = grow(this.hasChild, new Uint8Array(size));
      this.markerOffset = grow(this.markerOffset, new Uint8Array(size));
      this.padding = grow(this.padding, new Uint8Array(size));
      this.listKey = grow(this.listKey, new Uint16Array(size));
    }
    const i = this.length++;
    this.type[i] = type;
    this.hasChild[i] = 0;
    return i;
  }
}

const canContain = (parent: number, child: number) =>
  parent === LIST
    ? child === ITEM
    : (parent === DOCUMENT || parent === BLOCK_QUOTE || parent === ITEM) && child !== ITEM;

const acceptsLines = (t: number) => t === PARAGRAPH || t === CODE_BLOCK || t === HTML_BLOCK;

/** The block parser of commonmark.js (blocks.js), keeping only what inline parsing needs. */
class BlockParser {
  readonly refs = new Set<string>();
  readonly spans = new Set<string>();
  private inline = new InlineParser(this.refs);
  /**
   * Inline subjects (trimmed contents of paragraphs and headings) that contain a backtick and a
   * `]`: a reference link in them may use a definition further down, so they wait for the end.
   */
  private deferred: string[] = [];

  private chain = new Chain();
  /** Indices of open blocks a blank line does not pass through (all but lists and items with
   * children), ascending. */
  private stops = new Int32Array(16);
  private stopCount = 0;

  // Data of the open leaf (always the tip).
  private fenced = false;
  private fenceChar = 0;
  private fenceLength = 0;
  private fenceOffset = 0;
  private htmlType = 0;
  private paragraph: string[] = [];
  private heading = "";

  // Line state, as in commonmark.js.
  private line = "";
  private lineNumber = 0;
  private offset = 0;
  private column = 0;
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private indented = false;
  private blank = false;
  private partiallyConsumedTab = false;
  private allClosed = true;
  private lastMatched = 0;

  // findNextNonspace is invariant while offset stays at or before its answer.
  private nnsLine = -1;
  private nnsPos = 0;
  private nnsCol = 0;
  // Per line and per character (`*`, `_`, `-`): last index of a character that cannot be in a
  // thematic break, and index of the third-to-last occurrence of the character.
  private breakLine = [-1, -1, -1];
  private breakBad = [0, 0, 0];
  private breakThird = [0, 0, 0];

  constructor() {
    this.chain.push(DOCUMENT);
  }

  private get tipType(): number {
    return this.chain.type[this.chain.length - 1];
  }

  parse(input: string): void {
    if (input.includes("\0")) input = input.replaceAll("\0", "\uFFFD");
    const n = input.length;
    let start = 0;
    for (;;) {
      let end = start;
      while (end < n) {
        const c = input.charCodeAt(end);
        if (c === NEWLINE || c === CR) break;
        end++;
      }
      if (end >= n) {
        // The last line; a final "\n" leaves an empty one, which commonmark.js ignores.
        if (!(start === n && n > 0 && input.charCodeAt(n - 1) === NEWLINE)) {
          this.incorporateLine(input.slice(start, end));
        }
        break;
      }
      this.incorporateLine(input.slice(start, end));
      start = end + (input.charCodeAt(end) === CR && input.charCodeAt(end + 1) === NEWLINE ? 2 : 1);
    }
    while (this.chain.length > 0) this.finalizeTip();
    for (const subject of this.deferred) this.inline.parse(subject, this.spans);
    this.deferred = [];
  }

  // --- commonmark.js parser methods ---

  private advanceOffset(count: number, columns: boolean): void {
    const ln = this.line;
    while (count > 0 && this.offset < ln.length) {
      if (ln.charCodeAt(this.offset) === TAB) {
        const charsToTab = 4 - (this.column % 4);
        if (columns) {
          this.partiallyConsumedTab = charsToTab > count;
          const charsToAdvance = charsToTab > count ? count : charsToTab;
          this.column += charsToAdvance;
          this.offset += this.partiallyConsumedTab ? 0 : 1;
          count -= charsToAdvance;
        } else {
          this.partiallyConsumedTab = false;
          this.column += charsToTab;
          this.offset += 1;
          count -= 1;
        }
      } else {
        this.partiallyConsumedTab = false;
        this.offset += 1;
        this.column += 1;
        count -= 1;
      }
    }
  }

  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  private findNextNonspace(): void {
    if (this.nnsLine !== this.lineNumber || this.offset > this.nnsPos) {
      const ln = this.line;
      let i = this.offset;
      let cols = this.column;
      for (; i < ln.length; i++) {
        const c = ln.charCodeAt(i);
        if (c === SPACE) cols++;
        else if (c === TAB) cols += 4 - (cols % 4);
        else break;
      }
      this.nnsLine = this.lineNumber;
      this.nnsPos = i;
      this.nnsCol = cols;
    }
    this.blank = this.nnsPos >= this.line.length;
    this.nextNonspace = this.nnsPos;
    this.nextNonspaceColumn = this.nnsCol;
    this.indent = this.nnsCol - this.column;
    this.indented = this.indent >= 4;
  }

  private peek(pos: number): number {
    return pos < this.line.length ? this.line.charCodeAt(pos) : -1;
  }

  private addLine(): void {
    let prefix = "";
    if (this.partiallyConsumedTab) {
      this.offset += 1;
      prefix = " ".repeat(4 - (this.column % 4));
    }
    if (this.tipType === PARAGRAPH) this.paragraph.push(prefix + this.line.slice(this.offset));
  }

  private addChild(type: number): number {
    const chain = this.chain;
    while (!canContain(chain.type[chain.length - 1], type)) this.finalizeTip();
    const parent = chain.length - 1;
    if (!chain.hasChild[parent]) {
      chain.hasChild[parent] = 1;
      // An item with a child lets blank lines through.
      if (
        chain.type[parent] === ITEM && this.stopCount > 0 &&
        this.stops[this.stopCount - 1] === parent
      ) {
        this.stopCount--;
      }
    }
    const i = chain.push(type);
    if (type !== LIST) {
      if (this.stopCount === this.stops.length) {
        const more = new Int32Array(this.stops.length * 2);
        more.set(this.stops);
        this.stops = more;
      }
      this.stops[this.stopCount++] = i;
    }
    if (type === PARAGRAPH) this.paragraph = [];
    return i;
  }

  private finalizeTip(): void {
    const chain = this.chain;
    const i = chain.length - 1;
    const type = chain.type[i];
    if (type === PARAGRAPH) this.finishParagraph();
    else if (type === HEADING) this.inlineContent(this.heading);
    chain.length = i;
    if (this.stopCount > 0 && this.stops[this.stopCount - 1] === i) this.stopCount--;
  }

  private closeUnmatchedBlocks(): void {
    if (!this.allClosed) {
      while (this.chain.length - 1 > this.lastMatched) this.finalizeTip();
      this.allClosed = true;
    }
  }

  private paragraphContent(): string {
    return this.paragraph.length === 0 ? "" : this.paragraph.join("\n") + "\n";
  }

  /** Strips the reference definitions at the start of `content`; returns the rest. */
  private stripReferences(content: string): [string, boolean] {
    if (content.charCodeAt(0) !== LBRACKET) return [content, false];
    const scanner = new Scanner(content);
    let p = 0;
    for (;;) {
      if (content.charCodeAt(p) !== LBRACKET) break;
      const consumed = scanner.reference(p, this.refs);
      if (consumed === 0) break;
      p += consumed;
    }
    return [p === 0 ? content : content.slice(p), p > 0];
  }

  /** What the document's finalize (removeLinkReferenceDefinitions) does with a paragraph. */
  private finishParagraph(): void {
    const [rest, hadReferences] = this.stripReferences(this.paragraphContent());
    this.paragraph = [];
    if (hadReferences && isBlank(rest)) return;
    this.inlineContent(rest);
  }

  /** Parses a paragraph's or heading's content for code spans, now or at the end. */
  private inlineContent(content: string): void {
    if (!content.includes("`")) return; // no code span without a backtick
    if (content.includes("]")) this.deferred.push(content.trim());
    else this.inline.parse(content.trim(), this.spans);
  }

  // --- continuation of open blocks ---

  /** blocks[type].continue: 0 matched, 1 not matched, 2 line done. */
  private continueBlock(i: number): number {
    const chain = this.chain;
    switch (chain.type[i]) {
      case LIST:
        return 0;
      case BLOCK_QUOTE:
        if (!this.indented && this.peek(this.nextNonspace) === GT) {
          this.advanceNextNonspace();
          this.advanceOffset(1, false);
          if (isSpaceOrTab(this.peek(this.offset))) this.advanceOffset(1, true);
          return 0;
        }
        return 1;
      case ITEM:
        if (this.blank) {
          if (!chain.hasChild[i]) return 1;
          this.advanceNextNonspace();
        } else if (this.indent >= chain.markerOffset[i] + chain.padding[i]) {
          this.advanceOffset(chain.markerOffset[i] + chain.padding[i], true);
        } else {
          return 1;
        }
        return 0;
      case CODE_BLOCK:
        if (this.fenced) {
          if (
            this.indent <= 3 && this.peek(this.nextNonspace) === this.fenceChar &&
            this.closingFence(this.nextNonspace) >= this.fenceLength
          ) {
            this.finalizeTip();
            return 2;
          }
          for (let k = this.fenceOffset; k > 0 && isSpaceOrTab(this.peek(this.offset)); k--) {
            this.advanceOffset(1, true);
          }
          return 0;
        }
        if (this.indent >= 4) this.advanceOffset(4, true);
        else if (this.blank) this.advanceNextNonspace();
        else return 1;
        return 0;
      case HTML_BLOCK:
        return this.blank && (this.htmlType === 6 || this.htmlType === 7) ? 1 : 0;
      case PARAGRAPH:
        return this.blank ? 1 : 0;
      default: // heading, thematic break
        return 1;
    }
  }

  /** reClosingCodeFence at p: the length of the fence, or 0. */
  private closingFence(p: number): number {
    const ln = this.line;
    const c = ln.charCodeAt(p);
    if (c !== BACKTICK && c !== TILDE) return 0;
    let e = p;
    while (ln.charCodeAt(e) === c) e++;
    if (e - p < 3) return 0;
    for (let q = e; q < ln.length; q++) if (!isSpaceOrTab(ln.charCodeAt(q))) return 0;
    return e - p;
  }

  /** The smallest index in `stops` that is >= i, or the chain's length. */
  private firstStopFrom(i: number): number {
    let lo = 0;
    let hi = this.stopCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.stops[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.stopCount ? this.stops[lo] : this.chain.length;
  }

  // --- the line ---

  private incorporateLine(ln: string): void {
    const chain = this.chain;
    this.lineNumber++;
    this.line = ln;
    this.offset = 0;
    this.column = 0;
    this.blank = false;
    this.partiallyConsumedTab = false;
    const oldtip = chain.length - 1;

    let container = 0;
    while (container + 1 < chain.length) {
      const next = container + 1;
      this.findNextNonspace();
      if (this.blank) {
        // Lists and items with children let a blank line through without looking at it (an
        // item moves the offset to the end of the line); skip to the first block that does not.
        const stop = this.firstStopFrom(next);
        if (stop > next) {
          if (stop - next > 1 || chain.type[next] === ITEM) this.advanceNextNonspace();
          container = stop - 1;
          continue;
        }
      }
      const result = this.continueBlock(next);
      if (result === 2) return;
      if (result === 1) break;
      container = next;
    }

    this.allClosed = container === oldtip;
    this.lastMatched = container;

    let matchedLeaf = chain.type[container] !== PARAGRAPH && acceptsLines(chain.type[container]);
    while (!matchedLeaf) {
      this.findNextNonspace();
      if (!this.indented && !maybeSpecial(this.peek(this.nextNonspace))) {
        this.advanceNextNonspace();
        break;
      }
      const result = this.blockStart(chain.type[container]);
      if (result === 0) {
        this.advanceNextNonspace();
        break;
      }
      container = chain.length - 1;
      if (result === 2) matchedLeaf = true;
    }

    if (!this.allClosed && !this.blank && this.tipType === PARAGRAPH) {
      this.addLine(); // lazy paragraph continuation
      return;
    }
    this.closeUnmatchedBlocks();
    const t = chain.type[container];
    if (acceptsLines(t)) {
      this.addLine();
      if (
        t === HTML_BLOCK && this.htmlType >= 1 && this.htmlType <= 5 &&
        reHtmlBlockClose[this.htmlType].test(ln.slice(this.offset))
      ) {
        this.finalizeTip();
      }
    } else if (this.offset < ln.length && !this.blank) {
      this.addChild(PARAGRAPH);
      this.advanceNextNonspace();
      this.addLine();
    }
  }

  /** The block starts of commonmark.js, in order: 0 none, 1 container, 2 leaf. */
  private blockStart(containerType: number): number {
    const ln = this.line;
    const nns = this.nextNonspace;
    const c = this.peek(nns);

    if (!this.indented) {
      // Block quote.
      if (c === GT) {
        this.advanceNextNonspace();
        this.advanceOffset(1, false);
        if (isSpaceOrTab(this.peek(this.offset))) this.advanceOffset(1, true);
        this.closeUnmatchedBlocks();
        this.addChild(BLOCK_QUOTE);
        return 1;
      }

      // ATX heading: `^#{1,6}(?:[ \t]+|$)`.
      if (c === HASH) {
        let h = nns;
        while (h < ln.length && ln.charCodeAt(h) === HASH && h - nns < 7) h++;
        const level = h - nns;
        if (level <= 6 && (h === ln.length || isSpaceOrTab(ln.charCodeAt(h)))) {
          while (h < ln.length && isSpaceOrTab(ln.charCodeAt(h))) h++;
          this.advanceNextNonspace();
          this.advanceOffset(h - nns, false);
          this.closeUnmatchedBlocks();
          this.addChild(HEADING);
          this.heading = stripClosingSequence(ln.slice(this.offset));
          this.advanceOffset(ln.length - this.offset, false);
          return 2;
        }
      }

      // Fenced code: `^`{3,}(?!.*`)|^~{3,}`.
      if (c === BACKTICK || c === TILDE) {
        let e = nns;
        while (ln.charCodeAt(e) === c) e++;
        let fence = e - nns >= 3;
        if (fence && c === BACKTICK) {
          for (let q = e; q < ln.length; q++) {
            const d = ln.charCodeAt(q);
            if (d === BACKTICK) {
              fence = false;
              break;
            }
            if (isLineTerminator(d)) break;
          }
        }
        if (fence) {
          const length = e - nns;
          this.closeUnmatchedBlocks();
          this.addChild(CODE_BLOCK);
          this.fenced = true;
          this.fenceLength = length;
          this.fenceChar = c;
          this.fenceOffset = this.indent;
          this.advanceNextNonspace();
          this.advanceOffset(length, false);
          return 2;
        }
      }

      // HTML block.
      if (c === LT) {
        for (let type = 1; type <= 7; type++) {
          const re = reHtmlBlockOpen[type];
          re.lastIndex = nns;
          if (
            re.test(ln) &&
            (type < 7 ||
              (containerType !== PARAGRAPH &&
                !(!this.allClosed && !this.blank && this.tipType === PARAGRAPH)))
          ) {
            this.closeUnmatchedBlocks();
            this.addChild(HTML_BLOCK);
            this.htmlType = type;
            return 2;
          }
        }
      }

      // Setext heading: `^(?:=+|-+)[ \t]*$` under a paragraph.
      if (containerType === PARAGRAPH && (c === EQUALS || c === MINUS) && this.setextLine(nns)) {
        this.closeUnmatchedBlocks();
        const [rest] = this.stripReferences(this.paragraphContent());
        if (rest.length > 0) {
          this.chain.type[this.chain.length - 1] = HEADING;
          this.heading = rest;
          this.paragraph = [];
          this.advanceOffset(ln.length - this.offset, false);
          return 2;
        }
        this.paragraph = [];
      }

      // Thematic break.
      if ((c === STAR || c === UNDERSCORE || c === MINUS) && this.thematicBreak(nns, c)) {
        this.closeUnmatchedBlocks();
        this.addChild(THEMATIC_BREAK);
        this.advanceOffset(ln.length - this.offset, false);
        return 2;
      }
    }

    // List item.
    if ((!this.indented || containerType === LIST) && this.listMarker(containerType)) {
      this.closeUnmatchedBlocks();
      const chain = this.chain;
      const tip = chain.length - 1;
      if (chain.type[tip] !== LIST || chain.listKey[tip] !== this.markerKey) {
        const list = this.addChild(LIST);
        chain.listKey[list] = this.markerKey;
      }
      const item = this.addChild(ITEM);
      chain.listKey[item] = this.markerKey;
      chain.markerOffset[item] = this.markerOffsetFound;
      chain.padding[item] = this.paddingFound;
      return 1;
    }

    // Indented code.
    if (this.indented && this.tipType !== PARAGRAPH && !this.blank) {
      this.advanceOffset(4, true);
      this.closeUnmatchedBlocks();
      this.addChild(CODE_BLOCK);
      this.fenced = false;
      return 2;
    }
    return 0;
  }

  private setextLine(p: number): boolean {
    const ln = this.line;
    const c = ln.charCodeAt(p);
    let q = p;
    while (ln.charCodeAt(q) === c) q++;
    for (; q < ln.length; q++) if (!isSpaceOrTab(ln.charCodeAt(q))) return false;
    return true;
  }

  /** reThematicBreak on the line from p, in constant time after one pass per line. */
  private thematicBreak(p: number, c: number): boolean {
    const k = c === STAR ? 0 : c === UNDERSCORE ? 1 : 2;
    if (this.breakLine[k] !== this.lineNumber) {
      const ln = this.line;
      let bad = -1;
      let seen = 0;
      let third = -1;
      for (let q = ln.length - 1; q >= 0; q--) {
        const d = ln.charCodeAt(q);
        if (d === c) {
          if (++seen === 3) third = q;
        } else if (!isSpaceOrTab(d) && bad < 0) {
          bad = q;
        }
      }
      this.breakLine[k] = this.lineNumber;
      this.breakBad[k] = bad;
      this.breakThird[k] = third;
    }
    return p > this.breakBad[k] && p <= this.breakThird[k];
  }

  private markerKey = 0;
  private markerOffsetFound = 0;
  private paddingFound = 0;

  /** parseListMarker: on success advances past the marker and sets markerKey/offset/padding. */
  private listMarker(containerType: number): boolean {
    if (this.indent >= 4) return false;
    const ln = this.line;
    const nns = this.nextNonspace;
    const c = this.peek(nns);
    let length: number;
    if (c === STAR || c === PLUS || c === MINUS) {
      length = 1;
      this.markerKey = c;
    } else {
      let e = nns;
      while (e < ln.length && e - nns < 10) {
        const d = ln.charCodeAt(e);
        if (d < 48 || d > 57) break;
        e++;
      }
      const digits = e - nns;
      const delimiter = this.peek(e);
      if (
        digits < 1 || digits > 9 || (delimiter !== DOT && delimiter !== RPAREN) ||
        (containerType === PARAGRAPH && Number(ln.slice(nns, e)) !== 1)
      ) {
        return false;
      }
      length = digits + 1;
      this.markerKey = 256 + delimiter;
    }
    const after = this.peek(nns + length);
    if (!(after === -1 || after === TAB || after === SPACE)) return false;
    if (containerType === PARAGRAPH && isBlank(ln.slice(nns + length))) return false;

    this.markerOffsetFound = this.indent;
    this.advanceNextNonspace();
    this.advanceOffset(length, true);
    const spacesStartCol = this.column;
    const spacesStartOffset = this.offset;
    let next: number;
    do {
      this.advanceOffset(1, true);
      next = this.peek(this.offset);
    } while (this.column - spacesStartCol < 5 && isSpaceOrTab(next));
    const blankItem = this.peek(this.offset) === -1;
    const spacesAfterMarker = this.column - spacesStartCol;
    if (spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem) {
      this.paddingFound = length + 1;
      this.column = spacesStartCol;
      this.offset = spacesStartOffset;
      if (isSpaceOrTab(this.peek(this.offset))) this.advanceOffset(1, true);
    } else {
      this.paddingFound = length + spacesAfterMarker;
    }
    return true;
  }
}

/**
 * An ATX heading's content without its closing sequence: commonmark.js's
 * `.replace(/^[ \t]*#+[ \t]*$/, "").replace(/[ \t]+#+[ \t]*$/, "")`, in one backward pass.
 */
function stripClosingSequence(content: string): string {
  let e = content.length;
  while (e > 0 && isSpaceOrTab(content.charCodeAt(e - 1))) e--;
  let h = e;
  while (h > 0 && content.charCodeAt(h - 1) === HASH) h--;
  if (h === e) return content; // no trailing #s
  let w = h;
  while (w > 0 && isSpaceOrTab(content.charCodeAt(w - 1))) w--;
  if (w === 0) return ""; // only #s (and spaces/tabs)
  if (w === h) return content; // the #s follow a non-space character
  return content.slice(0, w);
}

/**
 * The contents of every inline code span in `markdown`, as CommonMark (commonmark.js 0.31.2)
 * parses it: code blocks, fenced or indented, are not inline code spans. Linear time and memory
 * in the length of `markdown`.
 *
 * @example
 * ```ts
 * inlineCodeSpans("Call `echo` first.\n\n    `not-inline`"); // Set { "echo" }
 * ```
 */
export function inlineCodeSpans(markdown: string): Set<string> {
  const parser = new BlockParser();
  parser.parse(markdown);
  return parser.spans;
}
