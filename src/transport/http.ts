/**
 * The Streamable HTTP transport, POST only: every client message is a POST; a request's answer
 * is a JSON body or an SSE stream whose messages (server requests included) become `incoming`.
 * The standalone GET stream is never opened, redirects are not followed, and the session is
 * deleted at the end.
 *
 * @module
 */
import { createParser } from "eventsource-parser";
import type { Incomplete, NetworkFailure } from "../protocol/incomplete.ts";
import {
  ContainerCounter,
  isRequest,
  isResponse,
  type JsonRpcMessage,
  parseMessage,
  type RequestId,
} from "../protocol/messages.ts";
import { DELETE_TIMEOUT_MS, MAX_MESSAGE_CONTAINERS } from "../limits.ts";
import { acquireLargeMessageSlot, LARGE_MESSAGE_BYTES, type LargeMessageSlot } from "./large.ts";
import { type ProtocolVersion, type Revision, revisionOf } from "../protocol/versions.ts";
import type { HttpTarget } from "../target.ts";
import {
  type Closed,
  type Incoming,
  maxMessageBytes,
  type Transport,
  type TransportLimits,
} from "./transport.ts";

/**
 * Opens a Streamable HTTP connection speaking `version`; nothing is sent until the first
 * message. Revisions with sessions keep the one the server assigns to `initialize` (and delete
 * it at the end); the headers each POST carries are the revision row's. `limits` (tests only)
 * shrinks the bound on a body and an event.
 */
export function openHttp(
  target: HttpTarget,
  version: ProtocolVersion,
  limits: TransportLimits = {},
): Transport {
  return new HttpTransport(target, version, maxMessageBytes(limits));
}

const SESSION_ID = /^[\x21-\x7e]+$/;
const decoder = new TextDecoder();

class HttpTransport implements Transport {
  readonly incoming: ReadableStream<Incoming>;
  readonly #target: HttpTarget;
  readonly #maxBytes: number;
  #version: ProtocolVersion;
  #revision: Revision;
  readonly #aborter = new AbortController();
  #controller!: ReadableStreamDefaultController<Incoming>;
  #ended = false;
  #sessionId?: string;
  #closing?: Promise<Closed>;

  constructor(target: HttpTarget, version: ProtocolVersion, maxBytes: number) {
    this.#target = target;
    this.#maxBytes = maxBytes;
    this.#version = version;
    this.#revision = revisionOf(version);
    this.incoming = new ReadableStream<Incoming>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#ended = true;
      },
    });
  }

  use(version: ProtocolVersion): void {
    this.#version = version;
    this.#revision = revisionOf(version);
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#ended) return;
    // The answer to `initialize` carries the session; the requests after it join it.
    const opening = "method" in message && message.method === "initialize";
    let response: Response;
    try {
      response = await fetch(this.#target.url, {
        method: "POST",
        headers: this.#headers(
          {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
          },
          !opening,
          "method" in message ? message.method : undefined,
        ),
        body: JSON.stringify(message),
        redirect: "manual",
        signal: this.#aborter.signal,
      });
    } catch (error) {
      return this.#fail(lost(error));
    }
    if (response.status < 200 || response.status > 299) {
      // 2026-07-28 carries protocol errors (unsupported version, missing capability) in a 4xx.
      const stateless = !this.#revision.sessions && isRequest(message);
      if (stateless && await this.#errorAnswer(response, message.id)) return;
      await response.body?.cancel().catch(() => {});
      const status = response.status;
      const httpStatus = status >= 100 && status <= 599 ? { httpStatus: status } : {};
      // Without sessions, one refused request leaves the connection as it was.
      if (stateless) return this.#refuse(message.id, httpStatus);
      return this.#fail({ reason: "http-status", ...httpStatus });
    }
    if (opening && this.#revision.sessions) {
      const sessionId = response.headers.get("mcp-session-id");
      if (sessionId !== null) {
        if (!SESSION_ID.test(sessionId)) {
          await response.body?.cancel().catch(() => {});
          return this.#fail({ reason: "malformed-message" });
        }
        this.#sessionId = sessionId;
      }
    }
    if (!isRequest(message)) {
      // A notification or a response: accepted (202) or, leniently, any 2xx; a body is ignored.
      await response.body?.cancel().catch(() => {});
      return;
    }
    // Read the answer in the background: the session waits on `incoming`, with its deadline.
    this.#readAnswer(response, message.id).catch((error) => this.#fail(lost(error)));
  }

  close(): Promise<Closed> {
    return this.#closing ??= this.#shutdown().then(() => ({}));
  }

  async #shutdown(): Promise<void> {
    this.#aborter.abort();
    this.#end();
    if (this.#sessionId === undefined) return;
    try {
      const response = await fetch(this.#target.url, {
        method: "DELETE",
        headers: this.#headers({}, true),
        redirect: "manual",
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
      });
      await response.body?.cancel();
    } catch {
      // The result of the DELETE does not matter.
    }
  }

  #headers(base: Record<string, string>, initialized: boolean, method?: string): Headers {
    const headers = new Headers(base);
    const { versionHeader, methodHeaders, sessions } = this.#revision;
    if (
      versionHeader === "every-request" || (versionHeader === "after-initialize" && initialized)
    ) headers.set("mcp-protocol-version", this.#version);
    if (methodHeaders && method !== undefined) headers.set("mcp-method", method);
    if (sessions && initialized && this.#sessionId !== undefined) {
      headers.set("mcp-session-id", this.#sessionId);
    }
    for (const [name, value] of this.#target.headers) headers.set(name, value);
    // Never a compressed body: the byte bounds then count what is parsed, not what crossed the
    // wire (a 200 KB gzip body can inflate to 200 MiB). Set last, so no --header overrides it.
    headers.set("accept-encoding", "identity");
    return headers;
  }

  /**
   * Delivers a JSON error answer to request `id` that came with an error status; false (the
   * body consumed or cancelled) when the body is not one.
   */
  async #errorAnswer(response: Response, id: RequestId): Promise<boolean> {
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/json" || response.body === null) return false;
    const body = await readBounded(response.body, this.#maxBytes).catch(() => undefined);
    const message = body === undefined ? undefined : parseMessage(body, true);
    if (typeof message !== "object" || !isResponse(message) || message.id !== id) return false;
    if (!("error" in message)) return false;
    this.#deliver(message);
    return true;
  }

  /** Turns one POST's answer into incoming messages; the answer to `id` must be among them. */
  async #readAnswer(response: Response, id: RequestId): Promise<void> {
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    let answered = false;
    // A JSON body's structure is counted as it arrives (readBounded); SSE data is scanned.
    const deliver = (text: string, structureChecked = false): boolean => {
      const message = parseMessage(text, structureChecked);
      if (typeof message === "string") {
        this.#fail({ reason: message });
        return false;
      }
      if (isResponse(message) && message.id === id) answered = true;
      this.#deliver(message);
      return true;
    };
    try {
      if (response.status === 202 || response.body === null) {
        await response.body?.cancel();
      } else if (type === "application/json") {
        const body = await readBounded(response.body, this.#maxBytes);
        if (body === undefined) return this.#fail({ reason: "message-too-large" });
        if (!deliver(body, true)) return;
      } else if (type === "text/event-stream") {
        const ok = await readEvents(response.body, this.#maxBytes, (data) => deliver(data));
        if (ok === "too-large") return this.#fail({ reason: "message-too-large" });
        if (!ok) return;
      } else {
        await response.body.cancel();
        return this.#fail({ reason: "malformed-message" });
      }
    } catch (error) {
      // The stream broke (or was aborted on close) before it ended properly.
      if (!answered) this.#fail(lost(error));
      return;
    }
    if (!answered) this.#fail({ reason: "no-response-in-post-stream" });
  }

  #refuse(id: RequestId, status: { httpStatus?: number }): void {
    if (!this.#ended) this.#controller.enqueue({ kind: "refused", id, ...status });
  }

  #deliver(message: JsonRpcMessage): void {
    if (!this.#ended) this.#controller.enqueue({ kind: "message", message });
  }

  #fail(incomplete: Incomplete): void {
    if (this.#ended) return;
    this.#controller.enqueue({ kind: "failure", incomplete });
    this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      this.#controller.close();
    } catch {
      // Already closed or cancelled.
    }
  }
}

/** A lost connection, with the network failure behind it when it is one mcpeval tells apart. */
function lost(error: unknown): Incomplete {
  const failure = networkFailure(error);
  return { reason: "transport-lost", ...(failure ? { loss: { kind: "network", failure } } : {}) };
}

/**
 * Which network failure a fetch error is, read from the error's text (which itself is never
 * shown: it holds the URL), or undefined when it is none of them.
 */
export function networkFailure(error: unknown): NetworkFailure | undefined {
  const texts: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    texts.push(e.message);
  }
  const text = texts.join(" | ");
  for (const [failure, pattern] of NETWORK_FAILURES) if (pattern.test(text)) return failure;
  return undefined;
}

/** Error texts (hyper, rustls and the operating system, as Deno reports them) by failure. */
const NETWORK_FAILURES: readonly (readonly [NetworkFailure, RegExp])[] = [
  [
    "name-not-resolved",
    /dns error|failed to lookup address|name or service not known|temporary failure in name resolution|nodename nor servname|no such host/i,
  ],
  ["connection-refused", /connection refused|actively refused/i],
  [
    "network-unreachable",
    /network is unreachable|no route to host|host is unreachable|network unreachable/i,
  ],
  ["tls-failed", /certificate|tls|ssl|handshake/i],
  [
    "connection-reset",
    /connection reset|closed before message completed|broken pipe|connection aborted|unexpected eof|error reading a body|incomplete message/i,
  ],
];

/**
 * The body as text, or `undefined` when it exceeds `maxBytes` or opens more JSON objects and
 * arrays than {@linkcode MAX_MESSAGE_CONTAINERS} (counted as it arrives).
 */
async function readBounded(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const counter = new ContainerCounter(MAX_MESSAGE_CONTAINERS);
  let slot: LargeMessageSlot | undefined;
  try {
    for await (const chunk of body) {
      length += chunk.length;
      if (length > maxBytes || !counter.feed(chunk)) {
        await body.cancel().catch(() => {});
        return undefined;
      }
      if (slot === undefined && length > LARGE_MESSAGE_BYTES) {
        slot = await acquireLargeMessageSlot();
      }
      chunks.push(chunk);
    }
    const all = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    chunks.length = 0;
    return decoder.decode(all);
  } finally {
    // Held until the text is handed back; it is parsed right after, in the same task.
    slot?.release();
  }
}

/**
 * Feeds an SSE body to the parser and hands each `message` event's data to `deliver`. Returns
 * false when `deliver` refused one (the stream is then cancelled), "too-large" when one event's
 * data grows past `maxBytes`.
 */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  deliver: (data: string) => boolean,
): Promise<boolean | "too-large"> {
  let refused = false;
  let sinceEvent = 0;
  let tooLarge = false;
  const parser = createParser({
    onEvent(event) {
      sinceEvent = 0;
      if (refused || tooLarge) return;
      if (event.event !== undefined && event.event !== "message") return;
      if (event.data === "") return;
      if (utf8Exceeds(event.data, maxBytes)) {
        tooLarge = true;
        return;
      }
      if (!deliver(event.data)) refused = true;
    },
  });
  const text = new TextDecoderStream();
  // A large event waits for the process-wide slot, as large stdio lines and bodies do.
  let slot: LargeMessageSlot | undefined;
  try {
    for await (const chunk of body.pipeThrough(text)) {
      sinceEvent += chunk.length;
      if (slot === undefined && sinceEvent > LARGE_MESSAGE_BYTES) {
        slot = await acquireLargeMessageSlot();
      }
      // Field names and line endings add overhead; an event's data alone may not pass the limit.
      if (sinceEvent > 2 * maxBytes) tooLarge = true;
      else parser.feed(chunk);
      if (sinceEvent === 0 && slot !== undefined) {
        // The event ended (and was parsed) within this chunk.
        slot.release();
        slot = undefined;
      }
      if (refused || tooLarge) {
        await body.cancel().catch(() => {});
        return tooLarge ? "too-large" : false;
      }
    }
    return true;
  } finally {
    slot?.release();
  }
}

/** Whether `text` is longer than `maxBytes` in UTF-8 (encoded only when it may be). */
function utf8Exceeds(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  return text.length * 3 > maxBytes && new TextEncoder().encode(text).length > maxBytes;
}
