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
    "The connection ended before discovery finished; check that the server stays up for the whole session.",
  "timeout":
    "The server did not answer a request within --timeout-ms; check that it answers initialize and tools/list, or raise --timeout-ms.",
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
}
