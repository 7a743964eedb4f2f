/**
 * Negotiation falls back to the newest revision the server supports, in-process: the opening of
 * one profile over a scripted transport, with the revisions table passed in, one with a
 * fictional row newer than every known revision (so that the test keeps working when mcpeval
 * learns a newer one, and nothing global is changed). Revisions are read from the table, never
 * spelled out.
 */
import assert from "node:assert/strict";
import { ServerRequests } from "../src/discovery/answers.ts";
import { Connection } from "../src/discovery/connection.ts";
import { type Identity, openProfile } from "../src/discovery/opening.ts";
import type { JsonRpcMessage } from "../src/protocol/messages.ts";
import {
  acceptedFrom,
  ERROR_CODES,
  META_KEYS,
  planOf,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  REVISIONS,
  type RevisionTable,
} from "../src/protocol/versions.ts";
import type { Incoming, Transport } from "../src/transport/transport.ts";

const NEWEST = PROTOCOL_VERSIONS.at(-1)!;
/** The newest known revision that opens with `server/discover`. */
const MODERN = acceptedFrom(NEWEST, "discover")[0];
/** The two newest known revisions that open with `initialize`. */
const [NEWER_LEGACY, OLDER_LEGACY] = acceptedFrom(NEWEST, "initialize");
/** A revision newer than any mcpeval knows, with the wire rules of the newest modern one. */
const FICTIONAL = "2099-01-01" as ProtocolVersion;
const WITH_NEWER: RevisionTable = { ...REVISIONS, [FICTIONAL]: REVISIONS[MODERN] };

const IDENTITY: Identity = {
  capabilities: () => ({}),
  clientInfo: { name: "mcpeval-test", version: "0" },
};

/** A transport whose server answers each message with `answer` (or never, for undefined). */
function scripted(answer: (message: JsonRpcMessage) => JsonRpcMessage | undefined) {
  let controller!: ReadableStreamDefaultController<Incoming>;
  const sent: JsonRpcMessage[] = [];
  const transport: Transport = {
    incoming: new ReadableStream<Incoming>({ start: (c) => void (controller = c) }),
    send(message) {
      sent.push(message);
      const reply = answer(message);
      if (reply) controller.enqueue({ kind: "message", message: reply });
      return Promise.resolve();
    },
    close() {
      controller.close();
      return Promise.resolve({});
    },
  };
  return { transport, sent };
}

/** The revision a request asked for: its `_meta` (server/discover) or `protocolVersion`. */
function askedOf(message: JsonRpcMessage): unknown {
  const params = ("params" in message ? message.params : undefined) as
    | Record<string, Record<string, unknown>>
    | undefined;
  return params?._meta?.[META_KEYS.protocolVersion] ?? params?.protocolVersion;
}

/** What a request asked: `method@revision`. */
const asked = (sent: JsonRpcMessage[]) =>
  sent.map((m) => "method" in m ? `${m.method}@${askedOf(m) ?? ""}` : "answer");

/** A modern server that speaks only `MODERN`: -32022 listing it for any other revision. */
function modernOnly(message: JsonRpcMessage): JsonRpcMessage | undefined {
  if (!("method" in message) || !("id" in message)) return undefined;
  const id = message.id;
  if (message.method !== "server/discover") return undefined;
  const version = askedOf(message);
  if (version !== MODERN) {
    return {
      jsonrpc: "2.0",
      id,
      error: {
        code: ERROR_CODES.unsupportedProtocolVersion,
        message: "Unsupported protocol version",
        data: { supported: [MODERN], requested: version },
      },
    };
  }
  return {
    jsonrpc: "2.0",
    id,
    result: { supportedVersions: [MODERN], capabilities: { tools: {} }, instructions: "Use it." },
  };
}

/** Opens one profile as `plan` says over `transport`, with `table`; closes the transport. */
async function open(
  transport: Transport,
  plan: { start: ProtocolVersion; negotiate: boolean },
  table: RevisionTable = REVISIONS,
  timeoutMs = 5_000,
) {
  // The connection starts in a known revision's rules (the fictional row copies the modern one).
  const start = Object.hasOwn(REVISIONS, plan.start) ? plan.start : MODERN;
  const connection = new Connection(transport, start, new ServerRequests({}), timeoutMs);
  try {
    return await openProfile(connection, plan, IDENTITY, table);
  } finally {
    connection.release();
    await transport.close();
  }
}

Deno.test("auto starts from the newest row of the table it is given", () => {
  assert.deepEqual(planOf("auto"), { start: NEWEST, negotiate: true });
  assert.deepEqual(planOf("auto", undefined, false, WITH_NEWER), {
    start: FICTIONAL,
    negotiate: true,
  });
});

Deno.test("auto, a newer revision known: a server that speaks only an older one is asked again for it", async () => {
  const { transport, sent } = scripted(modernOnly);
  const opened = await open(transport, planOf("auto", undefined, false, WITH_NEWER), WITH_NEWER);
  assert.deepEqual(opened, { version: MODERN, hasTools: true, instructions: "Use it." });
  assert.deepEqual(asked(sent), [`server/discover@${FICTIONAL}`, `server/discover@${MODERN}`]);
});

Deno.test("a strict profile is not asked again: protocol-version-mismatch naming what the server speaks", async () => {
  const { transport, sent } = scripted(modernOnly);
  const opened = await open(transport, { start: FICTIONAL, negotiate: false }, WITH_NEWER);
  assert.deepEqual(opened, {
    incomplete: { reason: "protocol-version-mismatch", serverVersion: MODERN },
  });
  assert.deepEqual(asked(sent), [`server/discover@${FICTIONAL}`]);
});

Deno.test("auto: a server that lists no revision the profile accepts is not asked again", async () => {
  const { transport, sent } = scripted((message) =>
    "id" in message && "method" in message
      ? {
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: ERROR_CODES.unsupportedProtocolVersion,
          message: "Unsupported protocol version",
          data: { supported: ["1999-01-01"], requested: askedOf(message) },
        },
      }
      : undefined
  );
  const opened = await open(transport, planOf("auto", undefined, false, WITH_NEWER), WITH_NEWER);
  assert.deepEqual(opened, { incomplete: { reason: "protocol-version-mismatch" } });
  // A modern error: no second server/discover, and no fallback to initialize.
  assert.deepEqual(asked(sent), [`server/discover@${FICTIONAL}`]);
});

Deno.test("auto: no answer is never followed by a second server/discover", async () => {
  const { transport, sent } = scripted(() => undefined);
  const opened = await open(
    transport,
    planOf("auto", undefined, false, WITH_NEWER),
    WITH_NEWER,
    100,
  );
  assert.deepEqual(opened, { incomplete: { reason: "timeout" } });
  assert.equal(sent.filter((m) => "method" in m && m.method === "server/discover").length, 1);
});

Deno.test("a negotiating initialize refused with the revisions the server supports asks again for the newest accepted", async () => {
  const { transport, sent } = scripted((message) => {
    if (!("id" in message) || !("method" in message)) return undefined;
    const version = askedOf(message);
    return version === OLDER_LEGACY
      ? {
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: OLDER_LEGACY,
          capabilities: {},
          serverInfo: { name: "s", version: "1" },
        },
      }
      : {
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: ERROR_CODES.invalidParams,
          message: "Unsupported protocol version",
          data: { supported: [OLDER_LEGACY], requested: version },
        },
      };
  });
  const opened = await open(transport, { start: NEWER_LEGACY, negotiate: true });
  assert.deepEqual(opened, { version: OLDER_LEGACY, hasTools: false, instructions: undefined });
  assert.deepEqual(asked(sent), [
    `initialize@${NEWER_LEGACY}`,
    `initialize@${OLDER_LEGACY}`,
    "notifications/initialized@",
  ]);
});

Deno.test("a strict initialize refused the same way is protocol-version-mismatch, asked once", async () => {
  const { transport, sent } = scripted((message) =>
    "id" in message && "method" in message
      ? {
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: ERROR_CODES.invalidParams,
          message: "Unsupported protocol version",
          data: { supported: [OLDER_LEGACY], requested: askedOf(message) },
        },
      }
      : undefined
  );
  const opened = await open(transport, { start: NEWER_LEGACY, negotiate: false });
  assert.deepEqual(opened, {
    incomplete: { reason: "protocol-version-mismatch", serverVersion: OLDER_LEGACY },
  });
  assert.deepEqual(asked(sent), [`initialize@${NEWER_LEGACY}`]);
});
