/**
 * Where a registry's members are spelled out, read from text alone (pure), for
 * `tests/seams_test.ts` and `scripts/change_cost.ts`: the lists of their ids in code (on one line,
 * or one id per line as `deno fmt` writes a long list), branches on one member, the docs tables
 * that list them, and which tests read a module or a doc.
 */
import { reached } from "./_graph.ts";

/** A string literal of code, with where it starts. */
interface Literal {
  readonly text: string;
  readonly at: number;
}

/** The code of a TypeScript text with its comments blanked (same length, strings kept). */
export function withoutComments(text: string): string {
  return text.replaceAll(
    /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (match, literal: string | undefined) => literal ?? match.replaceAll(/[^\n]/g, " "),
  );
}

/** The string literals of code (comments blanked first). */
function literals(code: string): Literal[] {
  return [...code.matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)].map((
    match,
  ) => ({ text: match[0], at: match.index }));
}

/** The ids `text` names, each as a whole word (quoted, or in a message). */
export function named(text: string, ids: readonly string[]): string[] {
  return ids.filter((id) => new RegExp(`(?<![\\w.-])${RegExp.escape(id)}(?![\\w-])`).test(text));
}

/**
 * The groups of a code text in which a list of ids would stand: each line, each bracketed span
 * (a list written one id per line, a `switch` of cases), and each run of lines that go on a
 * union (`| "a"`). Each group is its string literals, quotes kept.
 */
function groups(code: string): string[][] {
  const found: string[][] = [];
  const strings = literals(code);
  const between = (from: number, to: number) =>
    strings.filter((literal) => literal.at >= from && literal.at < to).map((l) => l.text);
  let offset = 0;
  const lines = code.split("\n");
  const starts = lines.map((line) => {
    const at = offset;
    offset += line.length + 1;
    return at;
  });
  lines.forEach((line, index) => found.push(between(starts[index], starts[index] + line.length)));
  // Runs of union members, one per line (`deno fmt` writes a long union so).
  for (let index = 0; index < lines.length;) {
    const first = index;
    while (index < lines.length && /^\s*\|/.test(lines[index])) index++;
    if (index > first + 1) {
      found.push(between(starts[first], starts[index - 1] + lines[index - 1].length));
    }
    index = Math.max(index, first + 1);
  }
  // Bracketed spans over more than one line, brackets in strings skipped.
  const quoted = new Uint8Array(code.length);
  for (const literal of strings) quoted.fill(1, literal.at, literal.at + literal.text.length);
  const open: number[] = [];
  for (let at = 0; at < code.length; at++) {
    if (quoted[at]) continue;
    const char = code[at];
    if (char === "[" || char === "(" || char === "{") open.push(at);
    else if (char === "]" || char === ")" || char === "}") {
      const from = open.pop();
      if (from !== undefined && code.lastIndexOf("\n", at) > from) found.push(between(from, at));
    }
  }
  return found;
}

/**
 * Whether `code` spells out `ids` (at least three): one group of it (a line, a bracketed span, a
 * run of union members) whose literals are ids, one each, for every id but at most one and for
 * at least half of its literals (a list, a union, a `switch`; not a table of test cases that
 * names an id beside other data), or one literal that names them (a message).
 */
export function listsIds(code: string, ids: readonly string[]): boolean {
  if (ids.length < 3) return false;
  const enough = ids.length - 1;
  return groups(code).some((group) => {
    const exact = new Set(group.filter((text) => ids.includes(text.slice(1, -1))));
    return (exact.size >= enough && exact.size * 2 >= group.length) ||
      group.some((text) => named(text, ids).length >= enough);
  });
}

/**
 * The members `code` branches on: compared with `===` or `!==`, or a `case` (a second place
 * that a new member would need).
 */
export function branchesOn(code: string, ids: readonly string[]): string[] {
  return ids.filter((id) => {
    const quoted = `["'\`]${RegExp.escape(id)}["'\`]`;
    return new RegExp(`(===|!==)\\s*${quoted}|${quoted}\\s*(===|!==)|\\bcase\\s+${quoted}`).test(
      code,
    );
  });
}

/**
 * Whether a Markdown text has a table of `ids` (at least three): a table whose header names every
 * one of them but at most one in its cells after the first (a column each), or whose rows name
 * them in their first cells (a row each).
 */
export function docListsIds(text: string, ids: readonly string[]): boolean {
  if (ids.length < 3) return false;
  const tables = text.split("\n").reduce<string[][][]>((found, line, index, lines) => {
    if (!line.startsWith("|")) return found;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
    if (index === 0 || !lines[index - 1].startsWith("|")) found.push([]);
    found.at(-1)!.push(cells);
    return found;
  }, []);
  return tables.some(([header, , ...rows]) => {
    const columns = new Set(header.slice(1).flatMap((cell) => named(cell, ids)));
    const firsts = new Set(rows.flatMap(([first]) => named(first ?? "", ids)));
    return Math.max(columns.size, firsts.size) >= ids.length - 1;
  });
}

/**
 * The tests that read `module` (reach it by code imports, in `edges`) or read the doc `doc` (name
 * it in their code: a doc's file name, or every doc when they name the `docs` folder).
 */
export function readersOf(
  tests: ReadonlyMap<string, string>,
  edges: ReadonlyMap<string, ReadonlySet<string>>,
  { modules = [], docs = [] }: {
    readonly modules?: readonly string[];
    readonly docs?: readonly string[];
  },
): string[] {
  return [...tests].filter(([path, text]) => {
    const code = withoutComments(text);
    const reach = reached(edges, path);
    if (modules.some((module) => reach.has(module))) return true;
    return docs.some((doc) => readsDoc(code, doc));
  }).map(([path]) => path);
}

/** Whether test code reads `doc` by its name (`"ci.md"`, `"docs/ci.md"`) or every doc. */
export function readsDoc(code: string, doc: string, every = true): boolean {
  const name = doc.slice(doc.lastIndexOf("/") + 1);
  const strings = literals(code).map((literal) => literal.text.slice(1, -1));
  return strings.some((text) => text === name || text.endsWith(`/${name}`)) ||
    (every && strings.includes("docs") && /Deno\.readDir/.test(code));
}
