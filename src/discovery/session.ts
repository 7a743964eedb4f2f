/**
 * One profile's discovery on one connection: initialize, notifications/initialized, the settle
 * window, then paged tools/list, answering the server's requests along the way. Transport-agnostic.
 *
 * @module
 */
import { inlineCodeSpans } from "../analysis/code_spans.ts";
import {
  LATE_READ_GRACE_MS,
  MAX_INSTRUCTIONS_BYTES,
  MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST,
} from "../limits.ts";
import {
  ERROR_CODES,
  hasHandshake,
  isProtocolVersion,
  META_KEYS,
  newestKnown,
  type ProtocolVersion,
} from "../protocol/versions.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { Incoming, Transport } from "../transport/transport.ts";
import { parseDiscoverResult, parseInitializeResult } from "../protocol/initialize.ts";
import { before, DEADLINE, Deadline } from "../time.ts";
import { CatalogBuilder } from "./catalog.ts";
import type { FactExtractor, ToolFacts } from "../clients/rules/kind.ts";
import type { DiscoveryObserver } from "./events.ts";
import { isToolName } from "../tool_name.ts";
import { explain, type Incomplete, type IncompleteReason } from "../protocol/incomplete.ts";
import {
  isRequest,
  isResponse,
  type JsonRpcError,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from "../protocol/messages.ts";

/** The knobs one session needs. */
export interface SessionSettings {
  readonly settleMs: number;
  readonly timeoutMs: number;
  /** Sent as `clientInfo.version`. */
  readonly clientVersion: string;
  /** The revision to speak. */
  readonly protocolVersion: ProtocolVersion;
}

/** What a profile declares: its label, client capabilities and, for a preset, its clientInfo. */
export interface ProfileDeclaration {
  readonly profile: ProfileLabel;
  /** The client capabilities sent (a fresh object per use is taken). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** A client preset's `clientInfo`; mcpeval's own otherwise. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** The per-tool facts its client rules need, kept by the catalog (prepared already). */
  readonly facts?: readonly FactExtractor[];
}

/** What one profile's discovery observed. Instruction text never leaves the session. */
export type ProfileOutcome =
  | {
    readonly profile: ProfileLabel;
    readonly complete: true;
    readonly instructionsPresent: boolean;
    /** Inline code spans of the instructions that are valid tool identifiers. */
    readonly codeSpans: ReadonlySet<string>;
    /** The catalog, sorted. */
    readonly tools: readonly string[];
    /** The catalog in the order the server listed it. */
    readonly listed: readonly string[];
    /** Tools the server marked as visible to apps only. */
    readonly appOnly: ReadonlySet<string>;
    /** Client presets: each listed tool's bounded facts, in listing order. */
    readonly facts?: readonly ToolFacts[];
    readonly pages: number;
  }
  | {
    readonly profile: ProfileLabel;
    readonly complete: false;
    readonly instructionsPresent: boolean | null;
    readonly pages: number;
    readonly incomplete: Incomplete;
  };

/** The fixed error answer to `sampling/createMessage` in profiles that declare sampling. */
export const SAMPLING_DECLINED = {
  code: -1,
  message: "sampling is not performed during discovery",
} as const;

const METHOD_NOT_FOUND = { code: -32601, message: "Method not found" } as const;

/** Runs discovery for a profile over `transport`. Never throws for anything the server does. */
export async function discoverProfile(
  transport: Transport,
  declaration: ProfileDeclaration,
  settings: SessionSettings,
  observe: DiscoveryObserver = () => {},
): Promise<ProfileOutcome> {
  const { profile } = declaration;
  const capabilitiesOf = () => structuredClone(declaration.capabilities);
  const session = new Session(transport, capabilitiesOf(), settings.timeoutMs);
  const catalog = new CatalogBuilder(declaration.facts);
  let instructionsPresent: boolean | null = null;
  const stop = (incomplete: Incomplete): ProfileOutcome => ({
    profile,
    complete: false,
    instructionsPresent,
    pages: catalog.pages,
    // The first answer the server gives is the one to initialize (or server/discover).
    incomplete: explain(incomplete, session.answered),
  });
  const version = settings.protocolVersion;
  const clientInfo = declaration.clientInfo ?? { name: "mcpeval", version: settings.clientVersion };
  // From 2026-07-28 on, every request carries the version and the capabilities itself.
  const meta = hasHandshake(version) ? undefined : {
    [META_KEYS.protocolVersion]: version,
    [META_KEYS.clientCapabilities]: capabilitiesOf(),
    [META_KEYS.clientInfo]: clientInfo,
  };
  const params = (rest: Record<string, unknown> = {}) => meta ? { ...rest, _meta: meta } : rest;

  try {
    const opened = meta
      ? await discover(session, version, params())
      : await initialize(session, version, {
        protocolVersion: version,
        capabilities: capabilitiesOf(),
        clientInfo,
      });
    if ("incomplete" in opened) return stop(opened.incomplete);
    const { hasTools, instructions } = opened;
    instructionsPresent = instructions !== undefined;
    if (instructions !== undefined && utf8Exceeds(instructions, MAX_INSTRUCTIONS_BYTES)) {
      return stop({ reason: "instructions-too-large" });
    }
    const codeSpans = new Set(
      [...inlineCodeSpans(instructions ?? "")].filter((span) => isToolName(span)),
    );

    observe({ kind: "settling", profile, ms: settings.settleMs });
    const settled = await session.idle(settings.settleMs);
    if (settled) return stop(settled);

    if (hasTools) {
      let cursor: string | undefined;
      while (true) {
        observe({ kind: "listing", profile, pages: catalog.pages });
        const page = await session.request(
          "tools/list",
          params(cursor === undefined ? {} : { cursor }),
        );
        if ("incomplete" in page) return stop(page.incomplete);
        if ("error" in page || !isCompleteResult(page.result)) {
          return stop({ reason: "list-error" });
        }
        const outcome = catalog.addPage(page.result);
        if ("incomplete" in outcome) return stop(outcome.incomplete);
        if ("done" in outcome) break;
        cursor = outcome.next;
      }
    }
    return {
      profile,
      complete: true,
      instructionsPresent,
      codeSpans,
      tools: catalog.tools(),
      listed: catalog.listed(),
      appOnly: catalog.appOnly,
      ...(catalog.facts ? { facts: catalog.facts } : {}),
      pages: catalog.pages,
    };
  } finally {
    session.release();
  }
}

/** What opening a profile tells discovery, or why it failed. */
type Opened =
  | { readonly hasTools: boolean; readonly instructions: string | undefined }
  | { readonly incomplete: Incomplete };

/** The handshake revisions: `initialize`, then `notifications/initialized`. */
async function initialize(
  session: Session,
  version: ProtocolVersion,
  params: Record<string, unknown>,
): Promise<Opened> {
  const init = await session.request("initialize", params);
  if ("incomplete" in init) return init;
  if ("error" in init) {
    // An error naming only other revisions it supports is a version mismatch.
    const offered = supportedOf(init.error.data);
    return offered && !offered.includes(version)
      ? mismatch(newestKnown(offered))
      : { incomplete: { reason: "initialization-error" } };
  }
  const facts = parseInitializeResult(init.result);
  if (!facts) return { incomplete: { reason: "initialization-error" } };
  if (facts.protocolVersion !== version) {
    return mismatch(isProtocolVersion(facts.protocolVersion) ? facts.protocolVersion : undefined);
  }
  const notified = await session.notify("notifications/initialized");
  return notified ? { incomplete: notified } : facts;
}

/** 2026-07-28: `server/discover`, whose result names the revisions the server supports. */
async function discover(
  session: Session,
  version: ProtocolVersion,
  params: Record<string, unknown>,
): Promise<Opened> {
  const answer = await session.request("server/discover", params);
  if ("incomplete" in answer) return answer;
  if ("error" in answer) {
    const { code, data } = answer.error;
    if (code === ERROR_CODES.unsupportedProtocolVersion) {
      return mismatch(newestKnown(supportedOf(data) ?? []));
    }
    // A server of an earlier revision does not know the method.
    if (code === ERROR_CODES.methodNotFound) return mismatch(undefined);
    return { incomplete: { reason: "initialization-error" } };
  }
  const facts = parseDiscoverResult(answer.result);
  if (!facts) return { incomplete: { reason: "initialization-error" } };
  if (!facts.supportedVersions.includes(version)) {
    return mismatch(newestKnown(facts.supportedVersions));
  }
  return facts;
}

function mismatch(serverVersion: ProtocolVersion | undefined): Opened {
  return {
    incomplete: {
      reason: "protocol-version-mismatch",
      ...(serverVersion ? { serverVersion } : {}),
    },
  };
}

/** `data.supported` of an error answer, when it is a list of strings. */
function supportedOf(data: unknown): string[] | undefined {
  if (typeof data !== "object" || data === null || !("supported" in data)) return undefined;
  const { supported } = data;
  return Array.isArray(supported) && supported.every((v) => typeof v === "string")
    ? supported
    : undefined;
}

/** A 2026-07-28 result is complete when it has no `resultType` or says `"complete"`. */
function isCompleteResult(result: Record<string, unknown>): boolean {
  return !("resultType" in result) || result.resultType === "complete";
}

type RequestOutcome =
  | { readonly result: Record<string, unknown> }
  | { readonly error: JsonRpcError["error"] }
  | { readonly incomplete: Incomplete };

/** The message loop of one connection: ids, deadlines, and answers to server requests. */
class Session {
  readonly #transport: Transport;
  readonly #reader: ReadableStreamDefaultReader<Incoming>;
  readonly #capabilities: Readonly<Record<string, unknown>>;
  readonly #timeoutMs: number;
  #pendingRead?: Promise<ReadableStreamReadResult<Incoming>>;
  #nextId = 0;
  #rootsRequests = 0;
  #answered = false;

  constructor(
    transport: Transport,
    capabilities: Readonly<Record<string, unknown>>,
    timeoutMs: number,
  ) {
    this.#transport = transport;
    this.#reader = transport.incoming.getReader();
    this.#capabilities = capabilities;
    this.#timeoutMs = timeoutMs;
  }

  /** Whether the server has answered any request of this session. */
  get answered(): boolean {
    return this.#answered;
  }

  /** Sends a request and waits for its answer, serving the server in between. */
  async request(method: string, params: Record<string, unknown>): Promise<RequestOutcome> {
    const id = this.#nextId++;
    using deadline = new Deadline(Date.now() + this.#timeoutMs);
    this.#rootsRequests = 0;
    const sent = await deadline.race(this.#transport.send({ jsonrpc: "2.0", id, method, params }));
    if (sent === DEADLINE) return fail("timeout");
    while (true) {
      const next = await this.#next(deadline, true);
      if (next === DEADLINE) return fail("timeout");
      if (next.kind === "failure") return { incomplete: next.incomplete };
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

  /** Serves the server for `ms` milliseconds (the settle window) without sending requests. */
  async idle(ms: number): Promise<Incomplete | undefined> {
    using window = new Deadline(Date.now() + ms);
    while (true) {
      const next = await this.#next(window);
      if (next === DEADLINE) return undefined;
      if (next.kind === "failure") return next.incomplete;
      if (isResponse(next.message)) continue;
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
    return read.done ? { kind: "failure", incomplete: { reason: "transport-lost" } } : read.value;
  }

  /** Answers one server request (notifications are ignored). */
  async #serve(message: JsonRpcMessage, deadline: Deadline): Promise<Incomplete | undefined> {
    if (!isRequest(message)) return undefined;
    const answer = this.#answer(message);
    if ("incomplete" in answer) return answer.incomplete;
    const sent = await deadline.race(
      this.#transport.send({ jsonrpc: "2.0", id: message.id, ...answer }),
    );
    return sent === DEADLINE ? { reason: "timeout" } : undefined;
  }

  #answer(request: JsonRpcRequest):
    | { result: Record<string, unknown> }
    | { error: { code: number; message: string } }
    | { incomplete: Incomplete } {
    const capabilities = this.#capabilities;
    switch (request.method) {
      case "ping":
        return { result: {} };
      case "roots/list":
        if (!capabilities.roots) break;
        this.#rootsRequests += 1;
        if (this.#rootsRequests > MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST) {
          return { incomplete: { reason: "roots-request-limit" } };
        }
        return { result: { roots: [] } };
      case "sampling/createMessage":
        if (!capabilities.sampling) break;
        return { error: { ...SAMPLING_DECLINED } };
      case "elicitation/create":
        if (!capabilities.elicitation) break;
        return { result: { action: "decline" } };
    }
    return { error: { ...METHOD_NOT_FOUND } };
  }
}

function fail(reason: IncompleteReason): RequestOutcome {
  return { incomplete: { reason } };
}

/** A deadline noticed this late means mcpeval was busy rather than the server slow. */
const BUSY_LAG_MS = 10;

/** Whether `text` is longer than `max` bytes in UTF-8 (encoded only when it may be). */
function utf8Exceeds(text: string, max: number): boolean {
  if (text.length > max) return true;
  return text.length * 3 > max && new TextEncoder().encode(text).length > max;
}
