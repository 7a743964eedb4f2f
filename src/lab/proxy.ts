/**
 * The discovery-only proxy of `--observe` (SPEC 24): the one thing that talks to the user's
 * server while a real client is observed. The client speaks to it (through the relay, over
 * stdio); it speaks to the server with mcpeval's own transports and session, which send exactly
 * what discovery sends (sections 4 and 14):
 *
 * - the client's `initialize` or `server/discover`, unchanged (the server sees the real client's
 *   revision, capabilities and `clientInfo`), with the answer handed back; a client that falls
 *   back after an error sends its next opening through too, at most {@linkcode MAX_PROXY_OPENINGS};
 * - `notifications/initialized` (the proxy's own, as discovery sends it), the settle window, and
 *   the paged `tools/list` within section 4's bounds, whatever the client does meanwhile; the
 *   client's first `tools/list` is held until that catalog is in, then answered page by page from
 *   it (each tool's description, where it is a string, starts with a marker that finds the tool
 *   in what its model receives, whatever the client names it).
 *
 * Everything else the client sends is answered or dropped here, never forwarded: `ping` (`{}`),
 * the list requests of other primitives (empty lists), every other request (`-32601`),
 * notifications, responses and batches (each request of a batch `-32601`). The server's own
 * requests are answered by the session as section 4 says, for the capabilities the client
 * declared (roots: an empty list; sampling: an error; elicitation: declined), and never reach
 * the client; its notifications are dropped. Once the catalog is in, the server's connection is
 * closed: the client is answered from the catalog. The pages it holds for the client are bounded
 * as one message is (`MAX_MESSAGE_BYTES` in all): a catalog past that ends `message-too-large`.
 *
 * @module
 */
import type { OpenTransport } from "../discovery/discover.ts";
import type { DiscoveryObserver } from "../discovery/events.ts";
import type { Connection } from "../discovery/connection.ts";
import type { Identity, Opened } from "../discovery/opening.ts";
import type { ProfileOutcome } from "../discovery/session.ts";
import { MAX_MESSAGE_BYTES, MAX_PROXY_OPENINGS } from "../limits.ts";
import type { ObservedLabel } from "../profiles.ts";
import {
  breaksResultSchema,
  parseDiscoverResult,
  parseInitializeResult,
} from "../protocol/initialize.ts";
import type { Incomplete } from "../protocol/incomplete.ts";
import { isJsonRpcMessage, isRequest, type RequestId } from "../protocol/messages.ts";
import {
  isProtocolVersion,
  META_KEYS,
  newestKnown,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  revisionOf,
} from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import { before, DEADLINE } from "../time.ts";
import { SpawnError } from "../transport/stdio.ts";
import type { Leftover, Transport, TransportHooks } from "../transport/transport.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The opening methods a client may send, forwarded (the first ones) to the server. */
export type OpeningMethod = "initialize" | "server/discover";

/** A client's opening request as it was received. */
export interface ClientOpeningRequest {
  readonly method: OpeningMethod;
  readonly params: Json;
}

/** What answers a request of the client: a result or an error, without the envelope. */
type Answer = { readonly result: Json } | { readonly error: { code: number; message: string } };

/** The fixed errors the proxy answers with (its own words, never a server's). */
const ERRORS = {
  methodNotFound: { code: -32601, message: "Method not found" },
  invalidParams: { code: -32602, message: "Invalid params" },
  notDiscovered: { code: -32603, message: "The server's discovery did not complete" },
} as const;

/** The list requests of the other primitives, each answered with its empty list. */
const EMPTY_LISTS: Readonly<Record<string, string>> = {
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
  "tasks/list": "tasks",
};

/** The cursor the proxy gives the client for page `index` (its own, never the server's). */
const cursorOf = (index: number) => `mcpeval-page-${index}`;
const pageOf = (cursor: unknown): number | undefined => {
  const found = typeof cursor === "string" ? /^mcpeval-page-([1-9][0-9]{0,4})$/.exec(cursor) : null;
  return found ? Number(found[1]) : undefined;
};

/** How one proxy reaches its server and what it tells the run. */
export interface ProxySettings {
  /** The observed profile this proxy discovers for. */
  readonly profile: ObservedLabel;
  /** The user's server. */
  readonly target: Target;
  /** Opens the connection to it (the run's own: stdio or Streamable HTTP). */
  readonly open: OpenTransport;
  /** What the connection hears beside messages (a stdio server's stderr lines). */
  readonly hooks?: TransportHooks;
  readonly settleMs: number;
  readonly timeoutMs: number;
  /** Hears the profile's progress and a server process left behind. */
  readonly observe?: DiscoveryObserver;
  /** Ends the run: the server's connection is closed. */
  readonly signal?: AbortSignal;
  /** The marker of the tool at listing position `index` (in its description, as handed on). */
  readonly marker: (index: number) => string;
}

/** One listed tool as the client was given it. */
export interface HandedTool {
  /** Its catalog key: its name, or its position phrase for a name that is not an identifier. */
  readonly key: string;
  /** Its name as the server gave it (kept in memory only). */
  readonly name: string;
  /** The marker its description starts with; null when it has no string description. */
  readonly marker: string | null;
}

/** What the proxy saw of its server and its client. */
export interface ProxyResult {
  /** The client's opening that opened the server (else its last one); undefined: none came. */
  readonly opening?: ClientOpeningRequest;
  /** The server's discovery, when an opening came and the server could be started. */
  readonly outcome?: ProfileOutcome;
  /** The server's command could not be started. */
  readonly spawnFailed?: SpawnError["failure"];
  /** The server's instructions (in memory only: how much reached the model is measured). */
  readonly instructions?: string;
  /** The listed tools, in listing order, as handed on (a complete outcome only). */
  readonly handed: readonly HandedTool[];
}

/** A queued opening, with how to answer the client that sent it. */
interface Queued extends ClientOpeningRequest {
  readonly reply: (answer: Answer) => void;
}

/** Sends one JSON-RPC message (an object or a batch's array) to one client connection. */
export type ClientSend = (message: Json | Json[]) => void;

/** The proxy of one server of an observed client. */
export class DiscoveryProxy {
  readonly #settings: ProxySettings;
  readonly #queue: Queued[] = [];
  #wake?: () => void;
  #clientGone = false;
  #openings = 0;
  #discovery?: Promise<void>;
  #opening?: ClientOpeningRequest;
  /** The opening answer that opened the server, for a later connection of the same client. */
  #opened?: { readonly method: OpeningMethod; readonly result: Json };
  readonly #pages: Json[] = [];
  /** How much the pages kept for the client hold (their tools' JSON text, in characters). */
  #kept = 0;
  #outcome?: ProfileOutcome;
  #spawnFailed?: SpawnError["failure"];
  #instructions?: string;
  #failure?: { error: unknown };
  #catalogDone!: () => void;
  readonly #catalog = new Promise<void>((resolve) => (this.#catalogDone = resolve));
  /** The server's connection opened before the client starts ({@linkcode DiscoveryProxy.prepare}). */
  #prepared?: Promise<Transport | SpawnError>;

  constructor(settings: ProxySettings) {
    this.#settings = settings;
  }

  /**
   * Serves one connection of the client: `lines` are its messages (a line each), `send` writes
   * one back. Resolves when the client's side ends; discovery goes on without it.
   */
  async serve(lines: AsyncIterable<string>, send: ClientSend): Promise<void> {
    try {
      for await (const line of lines) this.#take(line, send);
    } catch {
      // The connection broke, or a line passed the message bound: this connection ends.
    }
  }

  /**
   * Opens the server's connection ahead of the client (a stdio server starts while the client
   * does; an HTTP one sends nothing yet): nothing is sent to it before the client's opening.
   */
  prepare(): void {
    const { target, open, hooks } = this.#settings;
    this.#prepared ??= Promise.resolve(open(target, newestOpening("initialize"), hooks ?? {}))
      .catch((error) => {
        if (error instanceof SpawnError) return error;
        throw error;
      });
    this.#prepared.catch(() => {});
  }

  /** The client has exited: an opening it might still send will not come. */
  clientGone(): void {
    this.#clientGone = true;
    this.#wake?.();
  }

  #finished?: Promise<ProxyResult>;

  /**
   * Waits for the server's discovery (when one started), closes its connection, and says what
   * the proxy saw (once: a later call gives the same).
   */
  finish(): Promise<ProxyResult> {
    return this.#finished ??= this.#finish();
  }

  async #finish(): Promise<ProxyResult> {
    this.clientGone();
    await this.#discovery;
    if (this.#discovery === undefined && this.#prepared) {
      // The client never opened this server: its connection closes unused.
      const prepared = await this.#prepared;
      if (!(prepared instanceof SpawnError)) await prepared.close();
    }
    // A `tools/list` sent before any opening is not held any longer.
    this.#catalogDone();
    if (this.#failure) throw this.#failure.error;
    const outcome = this.#outcome;
    const handed: HandedTool[] = [];
    if (outcome?.complete) {
      const tools = this.#pages.flatMap((page) => page.tools as unknown[]);
      outcome.listed.forEach((key, index) => {
        const tool = tools[index] as Json;
        handed.push({
          key,
          name: String(tool.name),
          marker: typeof tool.description === "string" ? this.#settings.marker(index) : null,
        });
      });
    }
    return {
      ...(this.#opening ? { opening: this.#opening } : {}),
      ...(outcome ? { outcome } : {}),
      ...(this.#spawnFailed ? { spawnFailed: this.#spawnFailed } : {}),
      ...(this.#instructions === undefined ? {} : { instructions: this.#instructions }),
      handed,
    };
  }

  /** One line of the client: answered here, held for the catalog, or dropped. */
  #take(line: string, send: ClientSend): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // not JSON: dropped
    }
    if (Array.isArray(value)) {
      // A batch is never forwarded: each request in it is answered as not found.
      const answers = value.filter((item) => isObject(item) && isJsonRpcMessage(item))
        .filter((item) => isRequest(item as never))
        .map((item) => envelope((item as { id: RequestId }).id, { error: ERRORS.methodNotFound }));
      if (answers.length > 0) send(answers);
      return;
    }
    if (!isJsonRpcMessage(value) || !isRequest(value)) return; // notifications, responses
    const { id, method } = value;
    const params = value.params ?? {};
    const reply = (answer: Answer) => send(envelope(id, answer));
    if (method === "initialize" || method === "server/discover") {
      return this.#openingRequest({ method, params, reply });
    }
    if (method === "tools/list") return void this.#toolsList(params, reply);
    if (method === "ping") return reply({ result: {} });
    const empty = EMPTY_LISTS[method];
    if (empty !== undefined) return reply({ result: { [empty]: [], ...this.#complete() } });
    reply({ error: ERRORS.methodNotFound });
  }

  /** `resultType` where the revision in use has the 2026-07-28 result schema. */
  #complete(): Json {
    const version = this.#outcome?.protocolVersion;
    return version && revisionOf(version).cacheableResults ? { resultType: "complete" } : {};
  }

  /** The client's `initialize` or `server/discover`: forwarded, or answered from the first. */
  #openingRequest(request: Queued): void {
    if (this.#opened || this.#outcome || this.#spawnFailed) return this.#answerLater(request);
    if (this.#openings >= MAX_PROXY_OPENINGS) return request.reply({ error: ERRORS.notDiscovered });
    this.#openings += 1;
    this.#queue.push(request);
    this.#wake?.();
    this.#discovery ??= this.#discover().catch((error) => {
      this.#failure = { error };
    }).finally(() => {
      this.#catalogDone();
      // Openings that came while the server was being opened: answered as later ones are.
      for (const queued = this.#queue.splice(0); queued.length > 0;) {
        this.#answerLater(queued.shift()!);
      }
    });
  }

  /**
   * An opening once the server's was settled: the answer that opened it (a later connection of
   * the same client, which started the server again), or an error.
   */
  #answerLater(request: Queued): void {
    request.reply(
      request.method === this.#opened?.method
        ? { result: this.#opened.result }
        : { error: this.#opened ? ERRORS.methodNotFound : ERRORS.notDiscovered },
    );
  }

  /** The next opening the client sends, waiting at most `ms` (undefined: none, or the client left). */
  async #nextOpening(ms: number): Promise<Queued | undefined> {
    const at = Date.now() + ms;
    while (this.#queue.length === 0) {
      if (this.#clientGone) return undefined;
      const woken = new Promise<void>((resolve) => (this.#wake = resolve));
      if (await before(at, woken) === DEADLINE) return undefined;
    }
    return this.#queue.shift();
  }

  /** The server's discovery, opened with the client's own opening. */
  async #discover(): Promise<void> {
    const first = (await this.#nextOpening(0))!;
    const { profile, target, open, hooks, settleMs, timeoutMs, observe, signal } = this.#settings;
    const version = openingVersion(first);
    const identity = identityOf(first);
    observe?.({ kind: "starting", profile });
    const opened = this.#prepared
      ? await this.#prepared
      : await Promise.resolve(open(target, version, hooks ?? {})).catch((error) => {
        if (error instanceof SpawnError) return error;
        throw error;
      });
    if (opened instanceof SpawnError) {
      this.#spawnFailed = opened.failure;
      this.#opening = first;
      first.reply({ error: ERRORS.notDiscovered });
      return;
    }
    const transport = opened;
    // Opened ahead of the opening: the transport speaks the opening's revision from now on.
    transport.use?.(version);
    const abort = () => void transport.close();
    signal?.addEventListener("abort", abort, { once: true });
    try {
      // Loaded once the client is up, as discovery loads it once its servers are started.
      const { discoverProfile } = await import("../discovery/session.ts");
      this.#outcome = await discoverProfile(
        transport,
        {
          profile,
          capabilities: identity.capabilities,
          clientInfo: identity.clientInfo,
          protocolVersion: version,
          // A client profile's catalog: tools invalid for MCP's shape but readable are kept.
          facts: [],
        },
        { settleMs, timeoutMs, protocolVersion: version },
        observe,
        signal,
        undefined,
        {
          open: (connection) => this.#forward(connection, first),
          page: (result) => this.#keep(result),
        },
      );
      if (this.#kept > MAX_MESSAGE_BYTES && this.#outcome.complete) {
        // The catalog is in, but more than the proxy holds for the client: not observed.
        const { profile, instructionsPresent, pages, protocolVersion } = this.#outcome;
        this.#outcome = {
          profile,
          complete: false,
          instructionsPresent,
          pages,
          incomplete: { reason: "message-too-large" },
          ...(protocolVersion ? { protocolVersion } : {}),
        };
      }
    } finally {
      signal?.removeEventListener("abort", abort);
      const { leftover } = await transport.close();
      if (leftover) observe?.({ kind: "leftover", profile, leftover: leftover as Leftover });
    }
  }

  /**
   * The opening: each of the client's openings forwarded as it is, its answer handed back, until
   * one opens the server; then `notifications/initialized` where the revision has it.
   */
  async #forward(connection: Connection, first: Queued): Promise<Opened> {
    let request = first;
    while (true) {
      this.#opening = request;
      const answer = await connection.request(request.method, request.params);
      if ("incomplete" in answer) {
        request.reply({ error: ERRORS.notDiscovered });
        return { incomplete: answer.incomplete };
      }
      if ("error" in answer) {
        // The server's own error, to the client that asked: it may fall back.
        request.reply({ error: answer.error });
        const failed: Incomplete = request.method === "server/discover"
          ? { reason: "protocol-version-mismatch" }
          : { reason: "initialization-error" };
        const next = await this.#nextOpening(this.#settings.timeoutMs);
        if (next === undefined) return { incomplete: failed };
        connection.reopen(openingVersion(next));
        request = next;
        continue;
      }
      request.reply({ result: answer.result });
      const opened = request.method === "initialize"
        ? initializeOpened(answer.result)
        : discoverOpened(answer.result, openingVersion(request));
      if ("incomplete" in opened) return opened;
      this.#opened = { method: request.method, result: answer.result };
      this.#instructions = opened.instructions;
      // Openings sent meanwhile are not forwarded: the server is open.
      for (const queued of this.#queue.splice(0)) this.#answerLater(queued);
      connection.use(opened.version);
      if (revisionOf(opened.version).opening === "initialize") {
        const notified = await connection.notify("notifications/initialized");
        if (notified) return { incomplete: notified };
      }
      return opened;
    }
  }

  /**
   * Keeps one accepted page for the client, within {@linkcode MAX_MESSAGE_BYTES} for all of them
   * (a catalog the proxy may hold: what one message may be, measured as its tools' JSON text);
   * past it, no more are kept, and the profile ends `message-too-large`.
   */
  #keep(result: Json): void {
    if (this.#kept > MAX_MESSAGE_BYTES) return;
    this.#kept += JSON.stringify(result.tools).length;
    if (this.#kept <= MAX_MESSAGE_BYTES) this.#pages.push(result);
    else this.#pages.length = 0;
  }

  /** The client's `tools/list`: held until the catalog is in, then answered from it. */
  async #toolsList(params: Json, reply: (answer: Answer) => void): Promise<void> {
    await this.#catalog;
    const outcome = this.#outcome;
    if (!outcome?.complete) return reply({ error: ERRORS.notDiscovered });
    const index = params.cursor === undefined ? 0 : pageOf(params.cursor);
    if (index === undefined || (index > 0 && index >= this.#pages.length)) {
      return reply({ error: ERRORS.invalidParams });
    }
    if (this.#pages.length === 0) return reply({ result: { tools: [], ...this.#complete() } });
    const offset = this.#pages.slice(0, index).reduce(
      (sum, page) => sum + (page.tools as unknown[]).length,
      0,
    );
    const { tools, nextCursor: _serverCursor, ...rest } = this.#pages[index];
    const marked = (tools as unknown[]).map((tool, position) => {
      const entry = tool as Json;
      return typeof entry.description === "string"
        ? {
          ...entry,
          description: `${this.#settings.marker(offset + position)} ${entry.description}`,
        }
        : entry;
    });
    reply({
      result: {
        ...rest,
        tools: marked,
        ...(index + 1 < this.#pages.length ? { nextCursor: cursorOf(index + 1) } : {}),
      },
    });
  }
}

/** A response to the client's request `id`. */
function envelope(id: RequestId, answer: Answer): Json {
  return { jsonrpc: "2.0", id, ...answer };
}

/** The newest revision that opens with `opening`. */
const newestOpening = (opening: "initialize" | "discover"): ProtocolVersion =>
  [...PROTOCOL_VERSIONS].reverse().find((version) => revisionOf(version).opening === opening)!;

/**
 * The revision an opening speaks (its transport's headers follow it): the one the client asked
 * for when this version knows it and it opens that way, else the newest that does.
 */
export function openingVersion(request: ClientOpeningRequest): ProtocolVersion {
  const opening = request.method === "initialize" ? "initialize" : "discover";
  const asked = opening === "initialize"
    ? request.params.protocolVersion
    : metaOf(request.params)[META_KEYS.protocolVersion];
  return isProtocolVersion(asked) && revisionOf(asked).opening === opening
    ? asked
    : newestOpening(opening);
}

function metaOf(params: Json): Json {
  return isObject(params._meta) ? params._meta : {};
}

/** The client's declared capabilities and its `clientInfo`, from its opening. */
export function identityOf(request: ClientOpeningRequest): {
  readonly capabilities: Json;
  readonly clientInfo: Identity["clientInfo"];
  readonly rawClientInfo: unknown;
} {
  const meta = metaOf(request.params);
  const capabilities = request.method === "initialize"
    ? request.params.capabilities
    : meta[META_KEYS.clientCapabilities];
  const info = request.method === "initialize"
    ? request.params.clientInfo
    : meta[META_KEYS.clientInfo];
  return {
    capabilities: isObject(capabilities) ? capabilities : {},
    // Sent as the client sent it, in every request of a revision with per-request `_meta`.
    clientInfo: (isObject(info) ? info : { name: "", version: "" }) as Identity["clientInfo"],
    rawClientInfo: info,
  };
}

/** An `initialize` answer that opened the server, or why it did not. */
function initializeOpened(result: Json): Opened {
  const facts = parseInitializeResult(result);
  if (!facts) return { incomplete: { reason: "initialization-error" } };
  const version = facts.protocolVersion;
  if (!isProtocolVersion(version) || revisionOf(version).opening !== "initialize") {
    return { incomplete: { reason: "protocol-version-mismatch" } };
  }
  return { version, hasTools: facts.hasTools, instructions: facts.instructions };
}

/** A `server/discover` answer that opened the server, or why it did not. */
function discoverOpened(result: Json, asked: ProtocolVersion): Opened {
  const facts = parseDiscoverResult(result);
  if (!facts) return { incomplete: { reason: "initialization-error" } };
  if (breaksResultSchema(result)) return { incomplete: { reason: "malformed-message" } };
  const modern = facts.supportedVersions.filter((version) =>
    isProtocolVersion(version) && revisionOf(version).opening === "discover"
  );
  const version = modern.includes(asked) ? asked : newestKnown(modern);
  if (version === undefined) {
    const serverVersion = newestKnown(facts.supportedVersions);
    return {
      incomplete: {
        reason: "protocol-version-mismatch",
        ...(serverVersion ? { serverVersion } : {}),
      },
    };
  }
  return { version, hasTools: facts.hasTools, instructions: facts.instructions };
}
