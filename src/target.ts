/**
 * Where a server is: the targets discovery can reach, as validated data.
 *
 * @module
 */

/**
 * What to do with a stdio server's stderr. It is always read, so the server never blocks, and
 * never reaches a report: `discard` drops it; `tail` shows the last lines of a profile that
 * ended because its server went away or did not answer, once, on mcpeval's stderr; `inherit`
 * shows every line there, prefixed. Whatever is shown is masked and escaped first.
 */
export type ServerStderr = "discard" | "tail" | "inherit";

/** The values of `--server-stderr`. */
export const SERVER_STDERR_MODES: readonly ServerStderr[] = ["discard", "tail", "inherit"];

/**
 * The mode of a run that names none: `tail` where its stderr is a terminal and progress is
 * shown (not `--quiet`), else `discard` (a CI log may be public).
 */
export function defaultServerStderr(terminal: boolean, quiet: boolean): ServerStderr {
  return terminal && !quiet ? "tail" : "discard";
}

/** An environment variable's name as mcpeval reads one: a letter or `_`, then letters, digits, `_`. */
export const ENV_NAME_PART = "[A-Za-z_][A-Za-z0-9_]*";

/** Whether a whole text is an environment variable's name ({@linkcode ENV_NAME_PART}). */
export const ENV_NAME: RegExp = new RegExp(`^${ENV_NAME_PART}$`);

/** The transports, by the name a report gives them (each target's `kind`). */
export const TRANSPORTS = ["stdio", "streamable-http"] as const satisfies readonly Target["kind"][];

/** A server started as a subprocess and spoken to over stdio. */
export interface StdioTarget {
  /** Selects the stdio transport. */
  readonly kind: "stdio";
  /** The program to start: a path, or a name looked up on PATH. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** What happens to the server's stderr. */
  readonly stderr: ServerStderr;
  /** Variables set for the server, over the environment it inherits. */
  readonly env?: Readonly<Record<string, string>>;
  /** The folder the server starts in; default mcpeval's own. */
  readonly cwd?: string;
}

/**
 * The programs that may download what they run before it can answer (a cold package cache):
 * package runners, container engines that pull an image, and Deno. A name is the program's file
 * name without a directory or a Windows extension.
 *
 * Deno counts whatever its arguments (`deno run server.ts`, `deno task start`, `deno serve`,
 * `deno x`, `dx`, a bare `deno server.ts`): every form that runs code resolves a module graph
 * first, and a local script may import `npm:`, `jsr:` or URL modules, directly, through a module
 * it imports or through a `deno.json` import map; in a project with a lockfile, the first npm
 * import installs every npm package the lockfile holds (this repository's demo: 169). The command
 * line cannot tell whether that graph is cached (only resolving it can, and that is the
 * download), so every Deno start counts: a warm one costs the other profiles one `initialize`
 * round trip, a cold one started five times races the timeout.
 */
const DOWNLOADING_PROGRAMS: ReadonlySet<string> = new Set([
  "npx",
  "pnpx",
  "bunx",
  "uvx",
  "pipx",
  "dnx",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "uv",
  "docker",
  "podman",
  "deno",
  "dx",
]);

/**
 * Whether a first start of `target` may spend its time downloading (`npx -y`, `uvx`, `docker
 * run`, any `deno` start): its profiles then start one first, the others once it is warm. A
 * wrapper (`sh -c`, `env`) hides the program and is not recognised.
 */
export function mayDownload(target: StdioTarget): boolean {
  const program = target.command.split(/[\\/]/).at(-1)!.replace(/\.(cmd|exe|bat|ps1)$/i, "");
  return DOWNLOADING_PROGRAMS.has(program);
}

/** A Streamable HTTP endpoint. */
export interface HttpTarget {
  /** Selects the Streamable HTTP transport. */
  readonly kind: "streamable-http";
  /** The MCP endpoint: `http:` or `https:`, without credentials. */
  readonly url: URL;
  /** Extra request headers: name and value, sent with every request. */
  readonly headers: readonly (readonly [string, string])[];
}

/** Where the server is. */
export type Target = StdioTarget | HttpTarget;

/** The transport names a report records. */
export type TransportKind = Target["kind"];
