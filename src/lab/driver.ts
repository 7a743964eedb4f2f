/**
 * What a client driver is: how one real client is installed from the npm registry, configured
 * with the probe servers in a temporary HOME, pointed at the model stand-in, and run headless.
 * One module per client in `src/lab/clients/`, one row in `src/lab/clients/mod.ts`.
 *
 * @module
 */

/** One probe server as a client's config names it (a stdio command). */
export interface ServerSpec {
  /** The server label. */
  readonly label: string;
  /** The executable (an absolute path). */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Environment the server needs (the client may pass it no other). */
  readonly env: Readonly<Record<string, string>>;
}

/** What a driver is given to prepare one run. */
export interface RunContext {
  /** The temporary HOME (empty; the driver writes the client's config here). */
  readonly home: string;
  /** The working directory the client runs in (empty, inside the temporary folder). */
  readonly work: string;
  /** The stand-in's base URL (`http://127.0.0.1:PORT`, no path). */
  readonly model: string;
  /** The probe servers to configure, in order. */
  readonly servers: readonly ServerSpec[];
  /** The installed package's folder (`.../node_modules/PKG`). */
  readonly packageDir: string;
  /** The client's version being run (a driver may say how an older one is run). */
  readonly version: string;
  /**
   * Run the client with its own defaults where the driver changes one that decides what the
   * model is shown ({@linkcode Driver.labSetting}): the lab observes both.
   */
  readonly defaults?: boolean;
}

/** How to run the client once. */
export interface Invocation {
  /** The executable, relative to the install prefix (`node_modules/.bin/NAME`). */
  readonly bin: string;
  /** Arguments (the headless prompt included). */
  readonly args: readonly string[];
  /** Environment beyond the lab's common one (HOME, PATH, telemetry off). */
  readonly env: Readonly<Record<string, string>>;
}

/** The model API a client speaks. */
export type ModelApi = "anthropic" | "responses" | "chat" | "gemini";

/** One client driver. */
export interface Driver {
  /** The lab's id for the client: the preset's name. */
  readonly id: string;
  /** The npm package. */
  readonly package: string;
  /**
   * The version the lab runs by default (`runClient`), and `mcpeval lab --client ID` of a client
   * not observed yet (once observed, ID is its newest observed version, as everywhere).
   */
  readonly version: string;
  /** Versions `--all` observes beside the monthly ones (named by a report or an issue). */
  readonly alsoObserve?: readonly string[];
  /**
   * Versions this driver cannot run headless as it runs the others, each with why (a changed
   * flag, a first-run prompt): `--all` says so and goes on; the docs' drift table lists them.
   */
  readonly notDriven?: Readonly<Record<string, string>>;
  /** The model API it is pointed at. */
  readonly api: ModelApi;
  /**
   * The client ends its headless run when one configured server fails to connect: the revision
   * probe servers are then run one per run, after the tool probes.
   */
  readonly revisionsAlone?: boolean;
  /**
   * A setting the driver changes from the client's default that decides what the model is shown
   * (`NAME=VALUE`, Claude Code's `ENABLE_TOOL_SEARCH=false`): the lab runs the client once more
   * with `defaults`, and records both (deferral).
   */
  readonly labSetting?: string;
  /** Writes its config under `context.home` / `context.work` and says how to run it. */
  readonly prepare: (context: RunContext) => Promise<Invocation>;
}

/** A client the lab lists but cannot run this way, with the reason. */
export interface Unavailable {
  /** The preset's name. */
  readonly id: string;
  /** Its npm package, where there is one. */
  readonly package: string | null;
  /** Why the lab cannot run it. */
  readonly reason: string;
}

/** Writes `text` at `path`, making its folder. */
export async function writeFile(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** The `mcpServers` object most clients read (`{command, args, env}` per label). */
export const mcpServers = (servers: readonly ServerSpec[]): Record<string, unknown> =>
  Object.fromEntries(
    servers.map((s) => [s.label, { command: s.command, args: s.args, env: s.env }]),
  );
