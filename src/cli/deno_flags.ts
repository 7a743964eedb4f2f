/**
 * Deno's own flags, recognised when they were given to mcpeval by mistake (placed after the
 * script instead of before it), so that the message can say where they go.
 *
 * @module
 */

/** Deno permission flags and the runtime flags people most often misplace, by name. */
const DENO_FLAG =
  /^(?:--(?:allow|deny)-(?:all|read|write|net|env|sys|run|ffi|import|hrtime|scripts)|-[ARWNESIP]|--no-prompt|--v8-flags|--unstable(?:-[a-z]+)*|--config|--import-map|--lock|--no-lock|--cached-only|--reload|--env-file|--location|--seed|--inspect(?:-brk|-wait)?|--watch|--no-check|--check)$/;

/**
 * The name of the Deno flag that `argument` is (its value, after `=`, dropped), or undefined
 * when it is not one. mcpeval's own `--allow-remote-http` is not a Deno flag.
 */
export function denoFlag(argument: string): string | undefined {
  const name = argument.split("=", 1)[0];
  return DENO_FLAG.test(name) ? name : undefined;
}

/** The one-line explanation for a Deno flag given after the script. */
export function misplacedDenoFlag(name: string): string {
  return `'${name}' is a Deno flag: put it before the script (deno run ${name} ... main.ts guidance ...), not after it`;
}
