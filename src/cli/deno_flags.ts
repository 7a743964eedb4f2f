/**
 * Deno's own flags, recognised when they were given to mcpeval by mistake (placed after the
 * script instead of before it), so that the message can say where they go; and how mcpeval was
 * started, which decides where a missing permission flag goes.
 *
 * @module
 */

/** Deno permission flags and the runtime flags people most often misplace, by name. */
const DENO_FLAG =
  /^(?:--(?:allow|deny)-(?:all|read|write|net|env|sys|run|ffi|import|hrtime|scripts)|-[ARWNESIP]|--no-prompt|--v8-flags|--unstable(?:-[a-z]+)*|--config|--import-map|--lock|--no-lock|--cached-only|--reload|--env-file|--location|--seed|--inspect(?:-brk|-wait)?|--watch|--no-check|--check)$/;

/**
 * How mcpeval was started: `deno run main.ts` from a clone, the command the README's `deno
 * install` line put on PATH (marked by its `--location`), from JSR (`deno run` or installed: the
 * two look the same from inside), or a compiled binary (its flags are baked in).
 */
export type Launch = "deno-run" | "installed" | "jsr" | "compiled";

/**
 * The name of the Deno flag that `argument` is (its value, after `=`, dropped), or undefined
 * when it is not one. mcpeval's own `--allow-remote-http` is not a Deno flag.
 */
export function denoFlag(argument: string): string | undefined {
  const name = argument.split("=", 1)[0];
  return DENO_FLAG.test(name) ? name : undefined;
}

/**
 * The `--location` that the README's install lines give the installed command: Deno passes it
 * to the script, so the command knows it was installed whatever folder it runs in (its shim runs
 * `deno run FLAGS file:///…/main.ts`, the very script `deno run main.ts` runs). mcpeval fetches
 * nothing relative to it (`.invalid` never resolves).
 */
export const INSTALLED_LOCATION = "https://mcpeval.invalid/installed";

/**
 * How a script at `mainModule` was started, given `location` (Deno's `--location`, undefined
 * without one): a compiled binary, from JSR, the installed command (the README's install line
 * marks it with {@linkcode INSTALLED_LOCATION}), else `deno run`. Pure; the current folder plays
 * no part.
 *
 * @example
 * ```ts
 * launchOf("file:///src/mcpeval/main.ts", undefined); // "deno-run"
 * launchOf("file:///src/mcpeval/main.ts", INSTALLED_LOCATION); // "installed"
 * ```
 */
export function launchOf(mainModule: string, location: string | undefined): Launch {
  if (/\/deno-compile-[^/]*\//.test(mainModule)) return "compiled";
  if (!mainModule.startsWith("file:")) return "jsr";
  return location === INSTALLED_LOCATION ? "installed" : "deno-run";
}

let launch: Launch | undefined;

/** How this process was started (see {@linkcode launchOf}); never prompts for a permission. */
export function currentLaunch(): Launch {
  if (launch) return launch;
  let location: string | undefined;
  try {
    // Without --location, Deno throws on reading it.
    location = globalThis.location?.href;
  } catch {
    location = undefined;
  }
  return launch = launchOf(Deno.mainModule, location);
}

/** The README's `deno install` line for how mcpeval was started, `flags` added to its own. */
function installLine(launch: Launch, flags: string): string {
  // The install lines read the folder they run in: a file elsewhere is read as well.
  const added = flags.replace(/(^| )--allow-read=/, "$1--allow-read=.,");
  return launch === "jsr"
    ? `deno install -g -f -n mcpeval ... ${added} jsr:@mcpeval/guidance`
    : `deno install -g -f -n mcpeval --config deno.json --location=${INSTALLED_LOCATION} ... ${added} main.ts`;
}

/**
 * Where Deno flags go for how mcpeval was started, as a clause that follows a message naming
 * `flags`: nothing for `deno run main.ts` (the message already says "add"), a reinstall for
 * the installed command, both for a JSR run (which may be either); nothing when `started` is
 * not known.
 */
export function whereFlagsGo(flags: string, started: Launch | undefined): string {
  switch (started) {
    case "installed":
      return `; the installed mcpeval command takes Deno flags only from its install line: reinstall it with ${
        flags.includes(" ") ? "them" : "the flag"
      } added (from the clone: ${installLine(started, flags)})`;
    case "jsr":
      return ` (with deno run: before the script; for the installed mcpeval command, reinstall it: ${
        installLine(started, flags)
      })`;
    default:
      return "";
  }
}

/** The one-line explanation for a Deno flag given after the script. */
export function misplacedDenoFlag(name: string, started?: Launch): string {
  if (started === "installed" || started === "jsr") {
    return `'${name}' is a Deno flag, and mcpeval's arguments cannot carry it${
      whereFlagsGo(name, started)
    }`;
  }
  return `'${name}' is a Deno flag: put it before the script (deno run ${name} ... main.ts guidance ...), not after it`;
}
