/**
 * The JSON-RPC loop of one profile's connection: request ids, deadlines, the late-read grace,
 * and the server's requests answered in between (when the revision has them).
 *
 * @module
 */
import { LATE_READ_GRACE_MS } from "../limits.ts";
import type { Incomplete, IncompleteReason } from "../protocol/incomplete.ts";
import {
  isRequest,
  isResponse,
  type JsonRpcError,
  type JsonRpcMessage,
} from "../protocol/messages.ts";
import { type ProtocolVersion, type Revision, revisionOf } from "../protocol/versions.ts";
import { before, DEADLINE, Deadline } from "../time.ts";
import type { Incoming, Transport } from "../transport/transport.ts";
import type { ServerRequests } from "./answers.ts";

/** The answer to one client request, or why there is none. */
export type RequestOutcome =
  | { readonly result: Record<string, unknown> }
  | { readonly error: JsonRpcError["error"] }
  /** `refused`: the server turned the request down at the transport (an HTTP status). */
  | { readonly incomplete: Incomplete; readonly refused?: true };

/** One profile's connection, speaking one revision at a time. */
export class Connection {
  readonly #transport: Transport;
  readonly #reader: ReadableStreamDefaultReader<Incoming>;
  readonly #serverRequests: ServerRequests;
  readonly #timeoutMs: number;
  #revision: Revision;
  #pendingRead?: Promise<ReadableStreamReadResult<Incoming>>;
  #nextId = 0;
  #answered = false;
  #heard?: () => void;

  /** `heard` is called once, when the server first sends anything (a message, an HTTP refusal). */
  constructor(
    transport: Transport,
    version: ProtocolVersion,
    serverRequests: ServerRequests,
    timeoutMs: number,
    heard?: () => void,
  ) {
    this.#heard = heard;
    this.#transport = transport;
    this.#reader = transport.incoming.getReader();
    this.#revision = revisionOf(version);
    this.#serverRequests = serverRequests;
    this.#timeoutMs = timeoutMs;
  }

  /** Whether the server has answered any request since the connection (re)opened. */
  get answered(): boolean {
    return this.#answered;
  }

  /** The following messages speak `version` (negotiation settled on it). */
  use(version: ProtocolVersion): void {
    this.#revision = revisionOf(version);
    this.#transport.use?.(version);
  }

  /** Opens again with `version` (a fallback): the answers so far belong to the earlier opening. */
  reopen(version: ProtocolVersion): void {
    this.use(version);
    this.#answered = false;
  }

  /**
   * Sends a request and waits for its answer, serving the server in between; `waitMs` shortens
   * the wait below the connection's timeout.
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    waitMs = this.#timeoutMs,
  ): Promise<RequestOutcome> {
    const id = this.#nextId++;
    using deadline = new Deadline(Date.now() + Math.min(waitMs, this.#timeoutMs));
    this.#serverRequests.reset();
    const sent = await deadline.race(this.#transport.send({ jsonrpc: "2.0", id, method, params }));
    if (sent === DEADLINE) return fail("timeout");
    while (true) {
      const next = await this.#next(deadline, true);
      if (next === DEADLINE) return fail("timeout");
      if (next.kind === "failure") return { incomplete: next.incomplete };
      if (next.kind === "refused") {
        if (next.id !== id) continue;
        const { httpStatus } = next;
        return {
          incomplete: {
            reason: "http-status",
            ...(httpStatus === undefined ? {} : { httpStatus }),
          },
          refused: true,
        };
      }
      const { message } = next;
      if (isResponse(message)) {
        if (message.id !== id) continue;
        this.#answered = true;
        return "error" in message ? { error: message.error } : { result: message.result };
      }
      const problem = await this.#serve(message, deadline);
      if (problem) return { incomplete: problem };
    }
  }

  /** Sends a notification; resolves once the transport has handed it over. */
  async notify(method: string): Promise<Incomplete | undefined> {
    using deadline = new Deadline(Date.now() + this.#timeoutMs);
    const sent = await deadline.race(this.#transport.send({ jsonrpc: "2.0", method }));
    return sent === DEADLINE ? { reason: "timeout" } : undefined;
  }

  /**
   * Serves the server for `ms` milliseconds (the settle window) without sending requests. A
   * window of 0 has passed already: what has arrived is served, and nothing is waited for.
   */
  async idle(ms: number): Promise<Incomplete | undefined> {
    using window = new Deadline(Date.now() + ms);
    while (true) {
      const next = await this.#next(window);
      if (next === DEADLINE) return undefined;
      if (next.kind === "failure") return next.incomplete;
      if (next.kind === "refused" || isResponse(next.message)) continue;
      using answering = new Deadline(Date.now() + this.#timeoutMs);
      const problem = await this.#serve(next.message, answering);
      if (problem) return problem;
    }
  }

  /** Lets go of the incoming stream; the caller closes the transport. */
  release(): void {
    this.#pendingRead?.catch(() => {});
    this.#reader.releaseLock();
  }

  /** The next incoming item; `late`: a deadline that passed is given the late-read grace. */
  async #next(deadline: Deadline, late = false): Promise<Incoming | typeof DEADLINE> {
    this.#pendingRead ??= this.#reader.read();
    let read = await deadline.race(this.#pendingRead);
    if (read === DEADLINE && late && deadline.lag > BUSY_LAG_MS && deadline.takeGrace()) {
      // The deadline measures the server, not mcpeval: what arrived while mcpeval was busy
      // (parsing another profile's message) is still in the pipe or socket; give it a moment.
      read = await before(Date.now() + LATE_READ_GRACE_MS, this.#pendingRead);
    }
    if (read === DEADLINE) return DEADLINE;
    this.#pendingRead = undefined;
    if (read.done) return { kind: "failure", incomplete: { reason: "transport-lost" } };
    if (this.#heard && read.value.kind !== "failure") {
      const heard = this.#heard;
      this.#heard = undefined;
      heard();
    }
    return read.value;
  }

  /**
   * Answers one server request (notifications are ignored). A revision without server requests
   * gets no answer: its clients must not send responses.
   */
  async #serve(message: JsonRpcMessage, deadline: Deadline): Promise<Incomplete | undefined> {
    if (!isRequest(message) || !this.#revision.serverRequests) return undefined;
    const answer = this.#serverRequests.answer(message);
    if ("incomplete" in answer) return answer.incomplete;
    const sent = await deadline.race(
      this.#transport.send({ jsonrpc: "2.0", id: message.id, ...answer }),
    );
    return sent === DEADLINE ? { reason: "timeout" } : undefined;
  }
}

function fail(reason: IncompleteReason): RequestOutcome {
  return { incomplete: { reason } };
}

/** A deadline noticed this late means mcpeval was busy rather than the server slow. */
const BUSY_LAG_MS = 10;
