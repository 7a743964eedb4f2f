/**
 * Every fixed reason and hint that a report can carry, in one table. Reports hold only these
 * texts, never anything a server wrote.
 *
 * @module
 */

/** Why a profile's discovery could not complete, with the one hint for each reason. */
export const INCOMPLETE_HINTS = {
  "transport-lost":
    "The connection ended before discovery finished; check that the server stays up for the whole session.",
  "timeout":
    "The server did not answer a request within --timeout-ms; check that it answers initialize and tools/list, or raise --timeout-ms.",
  "initialization-error":
    "The server answered initialize with an error or with an invalid InitializeResult.",
  "protocol-version-mismatch":
    "The server did not accept protocol version 2025-06-18, so discovery stopped before notifications/initialized.",
  "malformed-message":
    "The server sent something that is not one valid JSON-RPC 2.0 message (a batch, invalid JSON, or an unexpected content type).",
  "message-too-large": "The server sent a message larger than the message size limit.",
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
} as const;

/** The finding kinds with their fixed hints. */
export const FINDING_HINTS = {
  "referenced-tool-unavailable":
    "The instructions of this profile name a tool that its catalog does not list; check the reference and explain any capability requirement in the instructions.",
  "required-tool-unavailable":
    "A required tool is missing from this profile's catalog; check the server's capability conditions or the --require-tool declaration.",
} as const;

/** A reason why a profile's discovery is incomplete. */
export type IncompleteReason = keyof typeof INCOMPLETE_HINTS;

/** A finding kind: a review candidate or a defect. */
export type FindingKind = keyof typeof FINDING_HINTS;
