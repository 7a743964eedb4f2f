/**
 * The MCP protocol revisions mcpeval knows, one row each: what the revision changes on the wire
 * for discovery. Callers ask a revision's row ({@linkcode revisionOf}), never compare dates; a
 * new revision with the same wire rules as an existing one is one more row here.
 *
 * @module
 */

/** What one revision does on the wire, as far as discovery is concerned. */
export interface Revision {
  /**
   * How a connection opens: `initialize` then `notifications/initialized` (a session for the
   * connection), or `server/discover` and no session (every request stands alone).
   */
  readonly opening: "initialize" | "discover";
  /** Whether the server may assign an `Mcp-Session-Id` (kept, then deleted at the end). */
  readonly sessions: boolean;
  /**
   * When HTTP requests carry `MCP-Protocol-Version`: never, on every request after
   * `initialize`, or on every request.
   */
  readonly versionHeader: "none" | "after-initialize" | "every-request";
  /** Whether every HTTP request names its method in `Mcp-Method` (and `Mcp-Name` where needed). */
  readonly methodHeaders: boolean;
  /** Whether every request carries the version, client capabilities and info in `_meta`. */
  readonly requestMeta: boolean;
  /** Whether the revision has Streamable HTTP (2024-11-05 had only HTTP+SSE, out of scope). */
  readonly streamableHttp: boolean;
  /** Whether JSON-RPC batches are allowed (mcpeval never sends one, and treats one as malformed). */
  readonly batches: boolean;
  /** Whether the server may send requests (roots, sampling, elicitation) on the connection. */
  readonly serverRequests: boolean;
  /**
   * Whether results follow the 2026-07-28 result schema: `resultType`, and `ttlMs` and
   * `cacheScope` on cacheable results (checked on `server/discover`).
   */
  readonly cacheableResults: boolean;
  /**
   * What a valid `tools/list` entry is (MCP's Tool shape, checked by the catalog):
   * - `object-schemas` (2025-06-18's Tool; the older revisions and 2025-11-25 are read with it,
   *   SPEC 26): `inputSchema` and `outputSchema` are objects with `type: "object"`, each of their
   *   `properties` an object and `required` a list of strings;
   * - `open-schemas` (2026-07-28's, SEP-2106): `inputSchema` is an object with `type: "object"`
   *   and any other JSON Schema 2020-12 keyword (boolean sub-schemas included); `outputSchema` is
   *   any schema object (an array root too); `$schema`, where present, is a string in both.
   */
  readonly toolShape: "object-schemas" | "open-schemas";
}

const INITIALIZE_ERA = {
  opening: "initialize",
  sessions: true,
  versionHeader: "after-initialize",
  methodHeaders: false,
  requestMeta: false,
  streamableHttp: true,
  batches: false,
  serverRequests: true,
  cacheableResults: false,
  toolShape: "object-schemas",
} as const satisfies Revision;

/** Every revision discovery can speak, oldest first, with its row. */
export const REVISIONS = {
  "2024-11-05": { ...INITIALIZE_ERA, versionHeader: "none", streamableHttp: false },
  "2025-03-26": { ...INITIALIZE_ERA, versionHeader: "none", batches: true },
  "2025-06-18": INITIALIZE_ERA,
  "2025-11-25": INITIALIZE_ERA,
  "2026-07-28": {
    opening: "discover",
    sessions: false,
    versionHeader: "every-request",
    methodHeaders: true,
    requestMeta: true,
    streamableHttp: true,
    batches: false,
    serverRequests: false,
    cacheableResults: true,
    toolShape: "open-schemas",
  },
} as const satisfies Record<string, Revision>;

/** A protocol revision discovery can speak. */
export type ProtocolVersion = keyof typeof REVISIONS;

/**
 * Revisions by date, oldest first, each with its row: {@linkcode REVISIONS}, unless a test
 * passes a table with a fictional newer row (to check that negotiation falls back from it). The
 * dates of such a table are typed as known revisions; nothing but a test ever passes one.
 */
export type RevisionTable = Readonly<Record<string, Revision>>;

/** Every revision discovery can speak, oldest first. */
export const PROTOCOL_VERSIONS = Object.keys(REVISIONS) as [ProtocolVersion, ...ProtocolVersion[]];

/** The revision discovery speaks unless told otherwise (the seed's). */
export const PROTOCOL_VERSION: ProtocolVersion = "2025-06-18";

/** `--protocol-version auto`: negotiate the revision, as a real client does. */
export const AUTO = "auto";

/**
 * The revision of a client that opens with `server/discover`: the newest of `among` that opens
 * so (an observed client that probes with it first is a preset of this revision, falling back
 * to `initialize` as the revision describes). `among`: the revisions its observation knew, so
 * that a revision added since is not claimed for it; by default every revision.
 */
export function discoverRevision(
  among: readonly string[] = PROTOCOL_VERSIONS,
): ProtocolVersion {
  const opening = PROTOCOL_VERSIONS.filter((version) => REVISIONS[version].opening === "discover");
  return opening.filter((version) => among.includes(version)).at(-1) ?? opening.at(-1)!;
}

/** What `--protocol-version` takes: one revision, spoken strictly, or `auto`. */
export type ProtocolSetting = ProtocolVersion | typeof AUTO;

/** Whether `value` names a known revision. */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === "string" && Object.hasOwn(REVISIONS, value);
}

/** The row of a revision. */
export function revisionOf(version: ProtocolVersion): Revision {
  return REVISIONS[version];
}

/** The dates of `table`, oldest first. */
function versionsOf(table: RevisionTable): ProtocolVersion[] {
  return table === REVISIONS ? PROTOCOL_VERSIONS : Object.keys(table) as ProtocolVersion[];
}

/** The newest revision of `table` among `values`, or undefined when none is in it. */
export function newestKnown(
  values: readonly unknown[],
  table: RevisionTable = REVISIONS,
): ProtocolVersion | undefined {
  return versionsOf(table).filter((version) => values.includes(version)).at(-1);
}

/**
 * The revisions of `table` a client whose own revision is `start` accepts, newest first:
 * `start` and every older one (a real client accepts any older revision it knows that the
 * server answers), optionally only those that open with `opening`.
 */
export function acceptedFrom(
  start: ProtocolVersion,
  opening?: Revision["opening"],
  table: RevisionTable = REVISIONS,
): ProtocolVersion[] {
  const versions = versionsOf(table);
  return versions.slice(0, versions.indexOf(start) + 1)
    .filter((version) => opening === undefined || table[version].opening === opening)
    .reverse();
}

/**
 * The newest revision of `offered` (what a server that did not speak `asked` said it supports)
 * among `accepted` (newest first), other than `asked`: the one to ask for instead, or undefined.
 */
export function fallbackOf(
  asked: ProtocolVersion,
  offered: readonly unknown[],
  accepted: readonly ProtocolVersion[],
): ProtocolVersion | undefined {
  return accepted.find((version) => version !== asked && offered.includes(version));
}

/** How one profile picks its revision: `start` strictly, or negotiated down from `start`. */
export interface RevisionPlan {
  /** The revision asked for first. */
  readonly start: ProtocolVersion;
  /** Whether an older known revision the server answers is accepted (and the opening probed). */
  readonly negotiate: boolean;
  /**
   * The revisions a negotiating profile accepts, newest first, where its client was observed to
   * accept others than `start` and every older one (a client that connects to a server answering
   * a newer revision than it asks for); absent: {@linkcode acceptedFrom} `start`.
   */
  readonly accepted?: readonly ProtocolVersion[];
}

/**
 * The plan of one profile. `setting` is `--protocol-version` (the seed's revision when not
 * given); a client preset's `clientRevision` is the revision its client sends, and `accepts`
 * (any order) the revisions it was observed to accept. The five standard profiles speak
 * `setting` strictly, and `auto` negotiates from the newest revision of `table`. A preset
 * negotiates from its client's revision, as its client does, unless `presetsStrict` (the option
 * named one revision): then it speaks `setting` strictly too.
 */
export function planOf(
  setting: ProtocolSetting,
  clientRevision?: ProtocolVersion,
  presetsStrict = false,
  table: RevisionTable = REVISIONS,
  accepts?: readonly ProtocolVersion[],
): RevisionPlan {
  const accepted = accepts && clientRevision !== undefined
    ? { accepted: versionsOf(table).filter((version) => accepts.includes(version)).reverse() }
    : {};
  if (setting === AUTO) {
    return { start: clientRevision ?? versionsOf(table).at(-1)!, negotiate: true, ...accepted };
  }
  if (clientRevision !== undefined && !presetsStrict) {
    return { start: clientRevision, negotiate: true, ...accepted };
  }
  return { start: setting, negotiate: false };
}

/**
 * The revisions `plan` accepts, newest first: its `accepted` where it has them (only those that
 * open with `opening`, when given), else {@linkcode acceptedFrom} its start.
 */
export function acceptedBy(
  plan: RevisionPlan,
  opening?: Revision["opening"],
  table: RevisionTable = REVISIONS,
): ProtocolVersion[] {
  if (!plan.accepted) return acceptedFrom(plan.start, opening, table);
  return plan.accepted.filter((version) =>
    opening === undefined || table[version].opening === opening
  );
}

/** The `_meta` keys of a 2026-07-28 request. */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
} as const;

/** JSON-RPC error codes of 2026-07-28 that discovery tells apart. */
export const ERROR_CODES = {
  methodNotFound: -32601,
  invalidParams: -32602,
  unsupportedProtocolVersion: -32022,
  missingRequiredClientCapability: -32021,
  headerMismatch: -32020,
} as const;

/**
 * The "recognized modern JSON-RPC errors" of the 2026-07-28 backward-compatibility rules: an
 * answer to `server/discover` with one of these codes comes from a modern server, so the client
 * does not fall back to `initialize`. Any other error (legacy servers answer `-32601`, `-32602`
 * or anything else) means a legacy server.
 */
export const MODERN_ERROR_CODES: readonly number[] = [
  ERROR_CODES.headerMismatch,
  ERROR_CODES.missingRequiredClientCapability,
  ERROR_CODES.unsupportedProtocolVersion,
];
