/**
 * Where a server is: the targets discovery can reach, as validated data.
 *
 * @module
 */

/** What to do with a stdio server's stderr. It is always read, so the server never blocks. */
export type ServerStderr = "discard" | "inherit";

/** The values of `--server-stderr`. */
export const SERVER_STDERR_MODES: readonly ServerStderr[] = ["discard", "inherit"];

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
 * package runners, and container engines that pull an image. A name is the program's file name
 * without a directory or a Windows extension.
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
]);

/** Deno runs a remote module only after downloading it: `npm:`, `jsr:` and URL specifiers. */
const REMOTE_SPECIFIER = /^(npm:|jsr:|https?:)/;

/**
 * Whether a first start of `target` may spend its time downloading (`npx -y`, `uvx`, `docker
 * run`, `deno run npm:...`): its profiles then start one first, the others once it is warm. A
 * wrapper (`sh -c`, `env`) hides the program and is not recognised.
 */
export function mayDownload(target: StdioTarget): boolean {
  const program = target.command.split(/[\\/]/).at(-1)!.replace(/\.(cmd|exe|bat|ps1)$/i, "");
  if (DOWNLOADING_PROGRAMS.has(program)) return true;
  return program === "deno" && target.args.some((arg) => REMOTE_SPECIFIER.test(arg));
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
