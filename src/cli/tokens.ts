/**
 * The command line as tokens: `parseArgs` of `node:util` with
 * `{ strict: false, allowPositionals: true, tokens: true }`. The parsers (`args.ts`, `merge.ts`)
 * read the tokens themselves, so that each mistake gets its own one-line message.
 *
 * @module
 */
import { parseArgs } from "node:util";

/** How one option is read: a string takes a value, a boolean none; `short` is its letter. */
export interface TokenOption {
  readonly type: "string" | "boolean";
  readonly short?: string;
}

/** One token of the command line, as `parseArgs` gives it. */
export type ArgsToken =
  | {
    readonly kind: "option";
    readonly index: number;
    readonly name: string;
    readonly rawName: string;
    readonly value: string | undefined;
    readonly inlineValue: boolean | undefined;
  }
  | { readonly kind: "positional"; readonly index: number; readonly value: string }
  | { readonly kind: "option-terminator"; readonly index: number };

/** The tokens of `args`, read with `options`. */
export function argsTokens(
  args: readonly string[],
  options: Readonly<Record<string, TokenOption>>,
): ArgsToken[] {
  return parseArgs({
    args: [...args],
    options: options as Record<string, TokenOption>,
    strict: false,
    allowPositionals: true,
    tokens: true,
  }).tokens as ArgsToken[];
}
