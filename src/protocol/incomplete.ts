/**
 * Why a profile's discovery could not complete: the fixed reasons, each with its one fixed hint,
 * and the value a failure is carried in. Reports hold only these texts, never server text.
 *
 * @module
 */
import type { ProtocolVersion } from "./versions.ts";

/** Every incomplete reason with its hint. */
export const INCOMPLETE_HINTS = {
  "transport-lost":
    "The connection ended before discovery finished; check that the server stays up for the whole session (for a stdio server, --server-stderr tail shows the last lines it wrote to stderr, on stderr only).",
  "timeout":
    "The server did not answer a request within --timeout-ms; check that it answers initialize and tools/list, or raise --timeout-ms (a first npx or uvx run may still be downloading the package).",
  "initialization-error":
    "The server answered initialize with an error or with an invalid InitializeResult.",
  "protocol-version-mismatch":
    "The server does not speak the requested protocol revision (--protocol-version, default 2025-06-18), so discovery stopped before listing tools; run again with --protocol-version set to the revision the server answered.",
  "malformed-message":
    "The server sent something that is not one valid JSON-RPC 2.0 message (a batch, invalid JSON, or an unexpected content type).",
  "message-too-large": "The server sent a message larger than the message size limit.",
  "instructions-too-large":
    "The server's instructions are larger than the bound for reference detection (1 MiB), so they were not analysed.",
  "malformed-entry":
    "A tools/list result held an entry that is not a valid Tool, or a tool name that is not a valid identifier.",
  "malformed-cursor": "A tools/list result carried a nextCursor that is not a non-empty string.",
  "duplicate-tool": "The same tool name was listed more than once in one catalog.",
  "incomplete-pagination":
    "Pagination did not end within the page and tool limits, or a cursor repeated.",
  "list-error": "The server answered tools/list with an error.",
  "roots-request-limit":
    "The server sent more roots/list requests for one client request than the limit allows.",
  "http-status": "The server answered with an unexpected HTTP status.",
  "no-response-in-post-stream":
    "An HTTP response ended without the answer to its request; a server that answers only on a standalone GET stream cannot be discovered.",
  "server-silent":
    "Not started: the profiles that started first all timed out (--timeout-ms) without the server sending anything, so the rest were not started; check that the server starts and answers initialize, or raise --timeout-ms.",
  "client-not-connected":
    "The observed client (--observe) never opened this server through the proxy (no initialize or server/discover): it may refuse the server's label; nothing was discovered for it.",
  "client-crashed":
    "The observed client (--observe) exited with a failure, or was ended by a signal, before it sent its model any request; what it printed is never shown: run it by hand to see why.",
  "client-timeout":
    "The observed client (--observe) sent its model no request within the wait for it; a first run of a client may be slow: run again.",
  "client-no-model-request":
    "The observed client (--observe) exited without sending its model a request, so what its model would receive is not known.",
} as const;

/** A reason why a profile's discovery is incomplete. */
export type IncompleteReason = keyof typeof INCOMPLETE_HINTS;

/** The incomplete reasons, in table order. */
export const INCOMPLETE_REASONS = Object.keys(INCOMPLETE_HINTS) as [
  IncompleteReason,
  ...IncompleteReason[],
];

/** Why one profile's discovery stopped: a value, never an exception. */
export interface Incomplete {
  /** Why it stopped; each reason has a fixed hint in {@linkcode INCOMPLETE_HINTS}. */
  readonly reason: IncompleteReason;
  /** The HTTP status behind an `http-status` reason. */
  readonly httpStatus?: number;
  /** With `protocol-version-mismatch`: the known revision the server answered or offered. */
  readonly serverVersion?: ProtocolVersion;
  /** With `transport-lost`: what the transport saw end (set by the transport). */
  readonly loss?: ConnectionLoss;
  /** The cause in mcpeval's words (set by the session, from the facts above and the phase). */
  readonly detail?: IncompleteDetail;
}

/** Signal names a server process can be ended by, as Deno reports them. */
export const SIGNALS = [
  "SIGABRT",
  "SIGALRM",
  "SIGBREAK",
  "SIGBUS",
  "SIGCHLD",
  "SIGCONT",
  "SIGEMT",
  "SIGFPE",
  "SIGHUP",
  "SIGILL",
  "SIGINFO",
  "SIGINT",
  "SIGIO",
  "SIGKILL",
  "SIGPIPE",
  "SIGPOLL",
  "SIGPROF",
  "SIGPWR",
  "SIGQUIT",
  "SIGSEGV",
  "SIGSTKFLT",
  "SIGSTOP",
  "SIGSYS",
  "SIGTERM",
  "SIGTRAP",
  "SIGTSTP",
  "SIGTTIN",
  "SIGTTOU",
  "SIGURG",
  "SIGUSR1",
  "SIGUSR2",
  "SIGVTALRM",
  "SIGWINCH",
  "SIGXCPU",
  "SIGXFSZ",
] as const;

/** Any signal name a report may hold (a later version may name one this version does not). */
export const SIGNAL_NAME: RegExp = /^SIG[A-Z0-9]{1,12}$/;

/** A signal name from {@linkcode SIGNALS}. */
export type SignalName = typeof SIGNALS[number];

/** Whether `value` is a signal name from the fixed list. */
export function isSignalName(value: unknown): value is SignalName {
  return (SIGNALS as readonly unknown[]).includes(value);
}

/** The network failures an HTTP transport tells apart. */
export type NetworkFailure =
  | "connection-refused"
  | "connection-reset"
  | "name-not-resolved"
  | "network-unreachable"
  | "tls-failed";

/** What a transport saw when its connection ended early. */
export type ConnectionLoss =
  | { readonly kind: "exited"; readonly exitCode: number }
  | { readonly kind: "signal"; readonly signal: SignalName }
  | { readonly kind: "stdout-closed" }
  | { readonly kind: "network"; readonly failure: NetworkFailure };

/**
 * `malformed-entry`: which rule of MCP's Tool shape a listed entry breaks. `{tool}` is the
 * entry's name in backticks when it is a valid tool name, else "a tool". The schema rules differ
 * by the revision's Tool shape (`toolShape` of its row): `input-schema-not-object-schema` and
 * `output-schema-not-object-schema` are those of `object-schemas`, `input-schema-not-object-rooted`
 * and `output-schema-not-schema-object` those of `open-schemas`.
 */
export const TOOL_SHAPE_PHRASES = {
  "tools-not-array": "the tools/list result has no tools array",
  "tool-not-object": "a tools entry is not an object",
  "tool-name-not-string": "a tools entry has no string name",
  "tool-name-invalid":
    "a tool's name is not 1-128 of A-Z, a-z, 0-9, '_', '-', '.' and '/' (the tool name rules)",
  "tool-title-not-string": "{tool} has a title that is not a string",
  "tool-description-not-string": "{tool} has a description that is not a string",
  "input-schema-not-object-schema":
    '{tool} has an inputSchema that is not an object with type "object" (optional properties of schemas, optional required list of strings)',
  "output-schema-not-object-schema":
    '{tool} has an outputSchema that is not an object with type "object" (optional properties of schemas, optional required list of strings)',
  "input-schema-not-object-rooted":
    '{tool} has an inputSchema that is not a JSON Schema object with type "object" ($schema a string if present)',
  "output-schema-not-schema-object":
    "{tool} has an outputSchema that is not a JSON Schema object ($schema a string if present)",
  "annotations-invalid":
    "{tool} has annotations that are not an object of a string title and boolean hints",
  "meta-not-object": "{tool} has a _meta that is not an object",
} as const;

/** A rule of MCP's Tool shape that a listed entry broke. */
export type ToolShapeCause = keyof typeof TOOL_SHAPE_PHRASES;

/**
 * Every cause mcpeval can name, with its fixed phrase. `{exit_code}` and `{signal}` are filled
 * in from the detail's numbers; nothing else ever is.
 */
export const DETAIL_PHRASES = {
  "exited-before-initialize":
    "the server process exited with status {exit_code} before answering initialize",
  "exited-after-initialize":
    "the server process exited with status {exit_code} after answering initialize",
  "signal-before-initialize":
    "the server process was ended by {signal} before answering initialize",
  "signal-after-initialize": "the server process was ended by {signal} after answering initialize",
  "stdout-closed-before-initialize":
    "the server process closed its stdout before answering initialize",
  "stdout-closed-after-initialize":
    "the server process closed its stdout after answering initialize",
  "connection-refused":
    "the connection was refused: check that the server is running and listens on the host and port of --url",
  "connection-reset": "the server closed or reset the connection before answering",
  "name-not-resolved": "the host name of --url did not resolve: check its spelling and DNS",
  "network-unreachable": "the host of --url is unreachable from this machine",
  "tls-failed": "the TLS handshake failed: check the server's certificate and that it speaks https",
  "http-credentials":
    "the server refused the request's credentials (401 or 403): send them with --header NAME=ENV_VAR",
  "http-endpoint-not-found": "there is no MCP endpoint at this path (404): check the path of --url",
  "http-session-not-found":
    "the server no longer knew the session it had assigned (404 after initialize)",
  "http-method-not-allowed":
    "the endpoint does not accept POST (405): the server may not speak Streamable HTTP, or --url names another path",
  "http-server-error": "the server failed while answering (5xx): check its logs",
  "http-redirect":
    "the endpoint redirects (3xx), and redirects are not followed: use the final URL in --url",
  "http-client-error": "the server rejected the request (4xx)",
  ...TOOL_SHAPE_PHRASES,
} as const;

/** A cause mcpeval can name. */
export type DetailCause = keyof typeof DETAIL_PHRASES;

/** The causes, in table order. */
export const DETAIL_CAUSES = Object.keys(DETAIL_PHRASES) as [DetailCause, ...DetailCause[]];

/** A cause with the numbers its phrase needs. */
export interface IncompleteDetail {
  /** The fixed phrase id. */
  readonly cause: DetailCause;
  /** The server process's exit status (`exited-*`). */
  readonly exitCode?: number;
  /** The signal that ended the server process (`signal-*`). */
  readonly signal?: SignalName;
  /** `malformed-entry`: the entry's name, when it is a valid tool name. */
  readonly tool?: string;
}

/**
 * Adds the cause in mcpeval's words to an incomplete value, from what the transport saw and
 * whether the server had answered `initialize` (or `server/discover`) by then.
 */
export function explain(incomplete: Incomplete, initializeAnswered: boolean): Incomplete {
  const detail = detailOf(incomplete, initializeAnswered);
  return detail ? { ...incomplete, detail } : incomplete;
}

function detailOf(
  { reason, loss, httpStatus }: Incomplete,
  initializeAnswered: boolean,
): IncompleteDetail | undefined {
  const phase = initializeAnswered ? "after-initialize" : "before-initialize";
  if (reason === "transport-lost" && loss) {
    switch (loss.kind) {
      case "exited":
        return { cause: `exited-${phase}`, exitCode: loss.exitCode };
      case "signal":
        return { cause: `signal-${phase}`, signal: loss.signal };
      case "stdout-closed":
        return { cause: `stdout-closed-${phase}` };
      case "network":
        return { cause: loss.failure };
    }
  }
  if (reason === "http-status" && httpStatus !== undefined) {
    if (httpStatus === 401 || httpStatus === 403) return { cause: "http-credentials" };
    if (httpStatus === 404) {
      return { cause: initializeAnswered ? "http-session-not-found" : "http-endpoint-not-found" };
    }
    if (httpStatus === 405) return { cause: "http-method-not-allowed" };
    if (httpStatus >= 500 && httpStatus <= 599) return { cause: "http-server-error" };
    if (httpStatus >= 300 && httpStatus <= 399) return { cause: "http-redirect" };
    if (httpStatus >= 400 && httpStatus <= 499) return { cause: "http-client-error" };
  }
  return undefined;
}

/** A detail's phrase with its numbers filled in. */
export function detailPhrase(detail: {
  readonly cause: DetailCause;
  readonly exit_code?: number;
  readonly signal?: string;
  readonly tool?: string;
}): string {
  return DETAIL_PHRASES[detail.cause]
    .replace("{exit_code}", String(detail.exit_code ?? "unknown"))
    .replace("{signal}", detail.signal ?? "a signal")
    .replace("{tool}", detail.tool === undefined ? "a tool" : `\`${detail.tool}\``);
}
