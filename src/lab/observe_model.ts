/**
 * What an observed client's model received, read from the requests the stand-in recorded: each
 * listed tool whose marker (the start of its description, as the proxy handed it on) occurs in
 * a request, whatever the client named it, declared or only named in the text (a client that
 * defers tools behind a search); a tool without a string description by its name, as served or
 * as clients rewrite it (`mcp__server__name`); and how many of the first characters of each
 * server's instructions reached the model verbatim. Pure; the requests never leave memory.
 *
 * @module
 */
import type { ModelApi } from "./driver.ts";
import { declaredTools } from "./observe.ts";
import type { HandedTool } from "./proxy.ts";
import type { Recorded } from "./stand_in.ts";
import { MIN_SHOWN_INSTRUCTIONS_CHARS } from "../limits.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One server as its client was given it. */
export interface ServerGiven {
  /** Its listed tools, as handed on (each with its marker, or none). */
  readonly handed: readonly HandedTool[];
  /** Its instructions, when it has any. */
  readonly instructions?: string;
}

/** What the model received of one server. */
export interface ServerReceived {
  /** The keys of the listed tools the model received. */
  readonly received: Set<string>;
  /** How many of the instructions' first characters reached it (undefined: no instructions). */
  readonly instructionsShown?: number;
}

/** Every string a JSON value holds (keys excluded). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const item of value) stringsOf(item, out); }
  else if (isObject(value)) { for (const item of Object.values(value)) stringsOf(item, out); }
  return out;
}

/** Letters, digits, `_` and `-` kept; anything else `_` (how clients clean a name). */
const cleaned = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

/** Whether a model-facing name is `name`, as served or qualified and cleaned the usual ways. */
function namedAs(modelName: string, name: string): boolean {
  if (modelName === name) return true;
  const clean = cleaned(name);
  return modelName === clean ||
    ["__", "_", "-", "."].some((separator) => modelName.endsWith(`${separator}${clean}`));
}

/**
 * What the model received of each server of `given`, from the requests of one run; `pattern`
 * finds the markers of every server (its one group is the marker).
 */
export function modelReceived(
  api: ModelApi,
  requests: readonly Recorded[],
  given: readonly ServerGiven[],
  pattern: RegExp,
): ServerReceived[] {
  const strings = requests.flatMap((request) => stringsOf(request.body));
  const found = new Set<string>();
  for (const text of strings) {
    for (const match of text.matchAll(new RegExp(pattern.source, "g"))) found.add(match[0]);
  }
  // Declared names without any marker: the candidates for the tools that carry none.
  const unmarked = requests.flatMap((request) => declaredTools(api, request.body))
    .filter((declared) => !new RegExp(pattern.source).test(declared.description))
    .map((declared) => declared.name);
  return given.map((server) => {
    const received = new Set<string>();
    for (const tool of server.handed) {
      const sent = tool.marker === null
        ? unmarked.some((name) => namedAs(name, tool.name))
        : found.has(tool.marker);
      if (sent) received.add(tool.key);
    }
    return {
      received,
      ...(server.instructions === undefined
        ? {}
        : { instructionsShown: shownPrefix(server.instructions, strings) }),
    };
  });
}

/**
 * How many of the first characters of `text` occur verbatim in one of `strings`: the longest
 * such prefix, if it has at least {@linkcode MIN_SHOWN_INSTRUCTIONS_CHARS} characters (or is the
 * whole text), else 0 (a short prefix occurs anywhere by chance).
 */
export function shownPrefix(text: string, strings: readonly string[]): number {
  const occurs = (length: number) => {
    const prefix = text.slice(0, length);
    return strings.some((value) => value.includes(prefix));
  };
  if (text.length === 0) return 0;
  if (occurs(text.length)) return text.length;
  const least = Math.min(MIN_SHOWN_INSTRUCTIONS_CHARS, text.length);
  if (!occurs(least)) return 0;
  // Occurring is monotone in the prefix's length: the longest is found by halving.
  let low = least;
  let high = text.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (occurs(middle)) low = middle;
    else high = middle;
  }
  return low;
}
