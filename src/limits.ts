/**
 * Every bound mcpeval applies, in one place. The report's `settings` records the ones that
 * shape what was observed.
 *
 * @module
 */

/** At most this many `tools/list` requests per profile. */
export const MAX_PAGES = 20;

/** At most this many tools per profile catalog. */
export const MAX_TOOLS = 10_000;

/** At most this many `roots/list` requests from the server per client request. */
export const MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST = 8;

/** One incoming message (a stdio line, a JSON body, an SSE event's data) at most, in bytes. */
export const MAX_MESSAGE_BYTES = 67_108_864; // 64 MiB

/** A `--baseline` file at most, in bytes: far more than any one server's report needs. */
export const MAX_BASELINE_BYTES = 67_108_864; // 64 MiB

/**
 * A `--baseline` file may hold at most this many JSON objects and arrays, checked before it is
 * parsed (a report of 5 profiles with 10,000 candidates each holds about 100,000).
 */
export const MAX_BASELINE_CONTAINERS = 1_000_000;

/**
 * A report is written in chunks of about this many characters (a streamed JSON document is
 * never one string, so a merged report past the runtime's longest string is still written).
 */
export const REPORT_CHUNK_CHARS = 1_048_576;

/**
 * While a report is rendered and written, the event loop gets a turn after at most about this
 * much work, so that a signal is acted on within a render of any size (each format renders in
 * pieces of bounded work).
 */
export const RENDER_SLICE_MS = 20;

/**
 * `merge` keeps the servers merged so far as compressed blocks of about this many characters
 * of compact JSON each, so that its memory is the largest report plus the merged one, packed.
 */
export const PACKED_BLOCK_CHARS = 1_048_576;

/**
 * The most resolved findings of a baseline a report lists; the rest are counted in
 * `baseline.resolved_not_listed`, so that every format stays bounded by the run, not by the
 * baseline's size.
 */
export const MAX_RESOLVED_LISTED = 1_000;

/**
 * The longest hint a report read may hold, in characters: hints are fixed sentences (this
 * version's are under 400), and a later version's are kept, not interpreted.
 */
export const MAX_HINT_CHARS = 1_000;

/** The longest id a report holds (a finding kind, reason, cause, rule id, ...), in characters. */
export const MAX_ID_CHARS = 64;

/**
 * Instructions above this many UTF-8 bytes are not analysed: the profile ends
 * `instructions-too-large`. Reference detection is linear in the length; this bounds its time
 * and memory per profile (about 30 ms and a few MiB for the worst inputs measured).
 */
export const MAX_INSTRUCTIONS_BYTES = 1_048_576; // 1 MiB

/**
 * One message may hold at most this many JSON objects and arrays. A 64 MiB message of `{}`
 * would otherwise become 20 million objects (gigabytes) when parsed; real catalogs stay far
 * below (10,000 tools with large schemas: about 500,000). Checked before parsing, by a scan
 * that skips strings, for messages above {@linkcode STRUCTURE_SCAN_BYTES}.
 */
export const MAX_MESSAGE_CONTAINERS = 1_000_000;

/** Messages up to this many characters are parsed without the structure scan. */
export const STRUCTURE_SCAN_BYTES = 1_048_576;

/**
 * A read whose deadline passed while mcpeval was busy (parsing another profile's message)
 * is given this long to deliver what already arrived before it counts as a timeout.
 */
export const LATE_READ_GRACE_MS = 50;

/**
 * How long the `initialize` of the 2026-07-28 fallback waits after a `server/discover` that got no
 * answer within `--timeout-ms` (at most that timeout): the server had the whole timeout to start,
 * so one that never answers ends `timeout` once instead of waiting it out twice.
 */
export const SILENT_FALLBACK_MS = 1_000;

/**
 * `--unknown-references`: at most this many distinct unknown words get a `did you mean`
 * suggestion (each is compared with every listed tool name); later ones are reported without.
 */
export const MAX_SUGGESTION_LOOKUPS = 100;

/** An inclusive integer range with a default, for a numeric option. */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** `--settle-ms`: the wait between `notifications/initialized` and the first `tools/list`. */
export const SETTLE_MS: IntegerRange = { min: 0, max: 5_000, default: 1_500 };

/** `--timeout-ms`: the longest wait for the answer to one client request. */
export const TIMEOUT_MS: IntegerRange = { min: 100, max: 300_000, default: 30_000 };

/** `--concurrency`: how many profiles run at once. */
export const CONCURRENCY: IntegerRange = { min: 1, max: 5, default: 5 };

/** stdio shutdown: after closing stdin, how long the server may take to exit by itself. */
export const SHUTDOWN_GRACE_MS = 1_000;

/** stdio shutdown: after SIGTERM, how long the server may take before SIGKILL. */
export const SHUTDOWN_TERM_MS = 2_000;

/** stdio shutdown: after SIGKILL, how long the server may take to exit before it is reported. */
export const SHUTDOWN_KILL_MS = 2_000;

/**
 * stdio shutdown: once the server and its process group are gone, how long its stdout and stderr
 * may stay open before a process still holding them is reported.
 */
export const PIPE_RELEASE_MS = 250;

/** stdio shutdown: after the server exits, how long its leftover processes get after SIGTERM. */
export const SHUTDOWN_SWEEP_MS = 250;

/** stdio: after the server's stdout ends, how long it may take to exit before it counts as running. */
export const STDOUT_EOF_EXIT_MS = 500;

/**
 * stdio: after the server process exited, how long its stdout may stay open (held by a process
 * it started) before the connection counts as lost (`transport-lost` with the exit status).
 */
export const EXITED_STDOUT_MS = 1_000;

/**
 * stdio: a line of a server's stderr that mcpeval reads (to show it with `--server-stderr
 * inherit`, or to keep the last lines with `tail`) is handed on in pieces of at most this many
 * bytes; a longer line is shown as its first piece.
 */
export const MAX_STDERR_LINE_BYTES = 4_096;

/**
 * `--server-stderr tail`: when a server went away or did not answer, at most this many of the
 * last lines one of its profiles wrote to stderr are shown (blank lines not counted)...
 */
export const MAX_STDERR_TAIL_LINES = 5;

/** ...each escaped and cut to this many characters. */
export const MAX_STDERR_TAIL_LINE_CHARS = 200;

/**
 * `--server-stderr inherit`: at most this many distinct lines (of all servers of a run) are
 * remembered so that another profile of the same server does not print them again; later new
 * lines are printed without being remembered.
 */
export const MAX_STDERR_REMEMBERED_LINES = 1_000;

/** HTTP: the longest wait for the answer to the closing `DELETE` of a session. */
export const DELETE_TIMEOUT_MS = 2_000;

/** `--jobs`: how many server connections (processes or HTTP sessions) are live at once. */
export const JOBS: IntegerRange = { min: 1, max: 64, default: 8 };

/**
 * Reading a file input (`--config`, an `envFile`, `--baseline`, `--client-file`, or `-` for
 * standard input) ends within this many milliseconds, or it is not read (an open pipe, a hung
 * mount). FIFOs, devices and sockets are refused before they are opened.
 */
export const FILE_READ_DEADLINE_MS = 10_000;

/**
 * `--format github`: at most this many annotations of each level (error, warning, notice) in one
 * run, GitHub's per-step limit for errors and warnings; past it they are grouped by server, with
 * counts, and the step summary lists each.
 */
export const GITHUB_ANNOTATIONS_PER_LEVEL = 10;

/** A client config file (`--config`) or an `envFile` it names is at most this many bytes. */
export const MAX_CONFIG_BYTES = 4_194_304; // 4 MiB

/** A config file lists at most this many servers. */
export const MAX_CONFIG_SERVERS = 1_000;

/** `--shard I/N`: at most this many shards (N), and so at most this many reports to merge. */
export const MAX_SHARDS = 256;

/**
 * Client schema rules: a tool's `inputSchema` nested deeper than this (objects and arrays) is
 * not judged; its schema facts are "over bounds" and no schema rule hides it.
 */
export const MAX_SCHEMA_DEPTH = 32;

/**
 * Client schema rules: a tool's `inputSchema` with more entries than this (object keys and array
 * items, an `enum`'s values included) is not judged; the walk stops there. It bounds the work of
 * a validator, whose duplicate checks (`enum`, `uniqueItems`) are linear in mcpeval.
 */
export const MAX_SCHEMA_KEYWORDS = 4_096;

/**
 * Client schema rules: a tool's `inputSchema` whose keys, strings and numbers hold more
 * characters than this is not judged (counted while walking it, before any validator sees it).
 */
export const MAX_SCHEMA_BYTES = 262_144; // 256 KiB

/**
 * Client schema rules: while a page's tools are analysed, the event loop gets a turn after at
 * most about this much work, so that a signal is acted on and other profiles are served. Each
 * page's analysis also ends within `--timeout-ms` of the page's arrival; the tools it did not
 * reach by then are not judged by the rules that need a per-tool fact.
 */
export const ANALYSIS_SLICE_MS = 20;

/** A `name-characters` pattern in `--client-file` is at most this many characters. */
export const MAX_NAME_PATTERN_LENGTH = 256;

/**
 * Client profiles: a listed tool whose name is a string but not a valid tool identifier is kept
 * (judged by the client's rules, never reported by name) when it is at most this many
 * characters; a longer one makes the profile incomplete (`malformed-entry`), as in the five.
 */
export const MAX_KEPT_INVALID_NAME_CHARS = 1_024;

/**
 * `--observe`: the longest wait for the real client's headless run (from its start to its exit);
 * a client still running then is ended, and without a model request its profiles are
 * `client-timeout`.
 */
export const OBSERVE_CLIENT_WAIT_MS = 120_000;

/** `--observe`: the longest wait for installing a client from the npm registry (cached after). */
export const OBSERVE_INSTALL_MS = 600_000;

/** `--observe`: the longest wait for one look-up on the npm registry (`@latest`, an integrity). */
export const OBSERVE_LOOKUP_MS = 60_000;

/**
 * `--observe`: how many openings (`initialize`, `server/discover`) of the real client the proxy
 * forwards to one server until one succeeds (a client that falls back sends a second); after
 * that, or once one succeeded, it answers them itself.
 */
export const MAX_PROXY_OPENINGS = 4;

/** `--observe`: how long a connection to the proxy may take to say which server it is for. */
export const PROXY_HELLO_MS = 10_000;

/**
 * `--observe`: a server's instructions count as shown to the model when at least this many of
 * their first characters (or all of them, when they are shorter) reach it verbatim.
 */
export const MIN_SHOWN_INSTRUCTIONS_CHARS = 32;
