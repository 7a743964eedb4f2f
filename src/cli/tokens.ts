/**
 * The command line as tokens, exactly as `parseArgs` of `node:util` gives them with
 * `{ strict: false, allowPositionals: true, tokens: true }` (`tests/tokens_test.ts` compares the
 * two on many command lines). Hand-written because importing `node:util` makes Deno load its Node
 * compatibility layer (about 5 ms, measured) before the server is spawned: on a minimal server
 * that was a tenth of a whole run. The first timer of the run still loads it, but later, while
 * the server starts.
 *
 * @module
 */

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
  const longOf = (short: string) =>
    Object.entries(options).find(([, option]) =>
      Object.hasOwn(option, "short") && option.short === short
    )
      ?.[0] ?? short;
  const takesValue = (name: string) =>
    Object.hasOwn(options, name) && options[name].type === "string";
  const tokens: ArgsToken[] = [];
  const remaining = [...args];
  let index = -1;
  let groupCount = 0;
  /** `-f` or `--name` alone: the next argument is its value when it takes one. */
  const lone = (name: string, rawName: string, next: string | undefined) => {
    const value = takesValue(name) && next !== undefined ? remaining.shift() : undefined;
    const inlineValue = value === undefined ? undefined : false;
    tokens.push({ kind: "option", index, name, rawName, value, inlineValue });
    if (value !== undefined) ++index;
  };
  while (remaining.length > 0) {
    const arg = remaining.shift()!;
    const next = remaining[0];
    if (groupCount > 0) groupCount--;
    else index++;
    if (arg === "--") {
      // Everything after it is a positional.
      tokens.push({ kind: "option-terminator", index });
      for (const rest of remaining) {
        tokens.push({ kind: "positional", index: ++index, value: rest });
      }
      break;
    }
    const short = arg.length >= 2 && arg[0] === "-" && arg[1] !== "-";
    if (short && arg.length === 2) {
      lone(longOf(arg[1]), arg, next);
      continue;
    }
    if (short && !takesValue(longOf(arg[1]))) {
      // -abc: -a -b -c, the rest of it the value of the first letter that takes one.
      const expanded: string[] = [];
      for (let at = 1; at < arg.length; at++) {
        const letter = arg[at];
        if (!takesValue(longOf(letter)) || at === arg.length - 1) {
          expanded.push(`-${letter}`);
        } else {
          expanded.push(`-${letter}${arg.slice(at + 1)}`);
          break;
        }
      }
      remaining.unshift(...expanded);
      groupCount = expanded.length;
      continue;
    }
    if (short) {
      // -fVALUE
      const name = longOf(arg[1]);
      const value = arg.slice(2);
      tokens.push({ kind: "option", index, name, rawName: `-${arg[1]}`, value, inlineValue: true });
      continue;
    }
    if (arg.length > 2 && arg.startsWith("--")) {
      // `=` from the fourth character on makes `--name=value`; the name ends at the first `=`.
      if (arg.indexOf("=", 3) === -1) {
        lone(arg.slice(2), arg, next);
      } else {
        const equals = arg.indexOf("=");
        const name = arg.slice(2, equals);
        const value = arg.slice(equals + 1);
        tokens.push({
          kind: "option",
          index,
          name,
          rawName: `--${name}`,
          value,
          inlineValue: true,
        });
      }
      continue;
    }
    tokens.push({ kind: "positional", index, value: arg });
  }
  return tokens;
}
