/**
 * Opening a profile's connection, revision by revision: `initialize` then
 * `notifications/initialized`, or `server/discover`; and, when the profile negotiates, the
 * 2026-07-28 backward-compatibility probe: `server/discover` first, then `initialize` with the
 * newest initialize-era revision on any answer that is not a recognized modern error (or on
 * no answer in time), accepting any known older revision the server answers. A negotiating
 * profile whose revision the server answered it does not support (`-32022` to
 * `server/discover`, an error listing `data.supported` to `initialize`) asks again for the newest
 * one it accepts of those the server listed (in the same opening); never after no answer.
 *
 * @module
 */
import type { Incomplete } from "../protocol/incomplete.ts";
import {
  breaksResultSchema,
  parseDiscoverResult,
  parseInitializeResult,
} from "../protocol/initialize.ts";
import {
  acceptedBy,
  acceptedFrom,
  ERROR_CODES,
  fallbackOf,
  META_KEYS,
  MODERN_ERROR_CODES,
  newestKnown,
  type ProtocolVersion,
  type RevisionPlan,
  REVISIONS,
  type RevisionTable,
} from "../protocol/versions.ts";
import { SILENT_FALLBACK_MS } from "../limits.ts";
import type { Connection } from "./connection.ts";

/** Who the profile says it is: its client capabilities (a fresh copy each call) and clientInfo. */
export interface Identity {
  readonly capabilities: () => Record<string, unknown>;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

/** What opening a profile tells discovery (and the revision it settled on), or why it failed. */
export type Opened =
  | {
    readonly version: ProtocolVersion;
    readonly hasTools: boolean;
    readonly instructions: string | undefined;
  }
  | { readonly incomplete: Incomplete };

/**
 * A request's params under `version` (a revision of `table`): revisions with per-request
 * `_meta` carry the version, the capabilities and the clientInfo in every request.
 */
export function paramsOf(
  version: ProtocolVersion,
  identity: Identity,
  rest: Record<string, unknown> = {},
  table: RevisionTable = REVISIONS,
): Record<string, unknown> {
  if (!table[version].requestMeta) return rest;
  return {
    ...rest,
    _meta: {
      [META_KEYS.protocolVersion]: version,
      [META_KEYS.clientCapabilities]: identity.capabilities(),
      [META_KEYS.clientInfo]: identity.clientInfo,
    },
  };
}

/**
 * Opens `connection` as `plan` says; the connection speaks `plan.start` when called. `table`
 * holds the revisions (a test passes one with a fictional newer row).
 */
export async function openProfile(
  connection: Connection,
  plan: RevisionPlan,
  identity: Identity,
  table: RevisionTable = REVISIONS,
): Promise<Opened> {
  const { start, negotiate } = plan;
  const opening = table[start].opening;
  const session = { connection, identity, table };
  if (!negotiate) {
    if (opening === "initialize") return initialize(session, start, [start]);
    const opened = await discover(session, [start], false);
    return opened === LEGACY || opened === SILENT ? mismatch(undefined) : opened; // (only a probe)
  }
  let asked = start;
  let waitMs: number | undefined;
  if (opening === "discover") {
    const probed = await discover(session, acceptedBy(plan, "discover", table), true);
    if (probed !== LEGACY && probed !== SILENT) return probed;
    const fallback = acceptedBy(plan, "initialize", table)[0];
    if (fallback === undefined) return mismatch(undefined);
    connection.reopen(fallback);
    asked = fallback;
    // After no answer at all, the fallback does not wait out the whole timeout again.
    if (probed === SILENT) waitMs = SILENT_FALLBACK_MS;
  }
  // Asked for `asked`, it accepts the answers its plan accepts (an observed client may accept a
  // newer revision than it asks for), never a modern one (which opens with server/discover).
  const accepted = plan.accepted
    ? acceptedBy(plan, "initialize", table)
    : acceptedFrom(asked, "initialize", table);
  return initialize(session, asked, accepted, waitMs);
}

/** What every step of one opening shares. */
interface Opening {
  readonly connection: Connection;
  readonly identity: Identity;
  readonly table: RevisionTable;
}

/** The probe found a server of the initialize era. */
const LEGACY = Symbol("legacy");
/** The probe got no answer within the timeout: a server of the initialize era, or none. */
const SILENT = Symbol("silent");

/**
 * `initialize` asking for `asked`, accepting an answer among `accepted` (newest first); then
 * `notifications/initialized` under the answered revision. An error listing the revisions the
 * server supports, without `asked`, asks again for the newest of them in `accepted` (an answer
 * was given, so the retry waits the whole `--timeout-ms`). `waitMs` bounds the wait instead.
 */
async function initialize(
  opening: Opening,
  asked: ProtocolVersion,
  accepted: readonly ProtocolVersion[],
  waitMs?: number,
): Promise<Opened> {
  const { connection, identity, table } = opening;
  const init = await connection.request("initialize", {
    protocolVersion: asked,
    capabilities: identity.capabilities(),
    clientInfo: identity.clientInfo,
  }, waitMs);
  if ("incomplete" in init) return init;
  if ("error" in init) {
    // An error naming only other revisions it supports is a version mismatch.
    const offered = supportedOf(init.error.data);
    if (!offered || offered.includes(asked)) {
      return { incomplete: { reason: "initialization-error" } };
    }
    const retry = fallbackOf(asked, offered, accepted);
    if (retry === undefined) return mismatch(newestKnown(offered, table));
    connection.use(retry);
    return initialize(opening, retry, accepted.slice(accepted.indexOf(retry)));
  }
  const facts = parseInitializeResult(init.result);
  if (!facts) return { incomplete: { reason: "initialization-error" } };
  const version = accepted.find((known) => known === facts.protocolVersion);
  if (version === undefined) return mismatch(newestKnown([facts.protocolVersion], table));
  if (version !== asked) connection.use(version);
  const notified = await connection.notify("notifications/initialized");
  return notified
    ? { incomplete: notified }
    : { version, hasTools: facts.hasTools, instructions: facts.instructions };
}

/**
 * `server/discover` speaking `accepted[0]`, accepting a result that lists any of `accepted`
 * (newest first). `probing`: the 2026-07-28 fallback rules apply, and {@linkcode LEGACY} says to
 * fall back. An unsupported version (`-32022`) asks again for the newest of `data.supported` in
 * `accepted`: the server is modern, so that is no fallback (and no probe) any more.
 */
async function discover(
  opening: Opening,
  accepted: readonly ProtocolVersion[],
  probing: boolean,
): Promise<Opened | typeof LEGACY | typeof SILENT> {
  const { connection, identity, table } = opening;
  const asked = accepted[0];
  const answer = await connection.request(
    "server/discover",
    paramsOf(asked, identity, {}, table),
  );
  if ("incomplete" in answer) {
    // No answer in time, or an HTTP refusal without a modern error body: a legacy server.
    if (probing && answer.incomplete.reason === "timeout") return SILENT;
    return probing && answer.refused ? LEGACY : answer;
  }
  if ("error" in answer) {
    const { code, data } = answer.error;
    if (probing && !MODERN_ERROR_CODES.includes(code)) return LEGACY;
    if (code === ERROR_CODES.unsupportedProtocolVersion) {
      const offered = supportedOf(data) ?? [];
      const retry = fallbackOf(asked, offered, accepted);
      if (retry === undefined) return mismatch(newestKnown(offered, table));
      connection.use(retry);
      return discover(opening, accepted.slice(accepted.indexOf(retry)), false);
    }
    // A server of an earlier revision does not know the method.
    if (code === ERROR_CODES.methodNotFound) return mismatch(undefined);
    return { incomplete: { reason: "initialization-error" } };
  }
  const facts = parseDiscoverResult(answer.result);
  if (!facts) return { incomplete: { reason: "initialization-error" } };
  if (breaksResultSchema(answer.result)) return { incomplete: { reason: "malformed-message" } };
  const version = accepted.find((known) => facts.supportedVersions.includes(known));
  if (version === undefined) return mismatch(newestKnown(facts.supportedVersions, table));
  if (version !== asked) connection.use(version);
  return { version, hasTools: facts.hasTools, instructions: facts.instructions };
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
