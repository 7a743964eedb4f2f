/**
 * The transports in-process with Deno's op and resource sanitizers on: a finished discovery,
 * complete or not, leaves no timer, stream, process or connection behind.
 */
import assert from "node:assert/strict";
import { capabilitiesOf, type Profile } from "../src/profiles.ts";
import { discoverProfile } from "../src/discovery/session.ts";
import { openHttp } from "../src/transport/http.ts";
import { openStdio } from "../src/transport/stdio.ts";
import { maxMessageBytes } from "../src/transport/transport.ts";
import { MAX_MESSAGE_BYTES } from "../src/limits.ts";
import { fixture, hostile, httpFixture, startHttp } from "./_cli.ts";

const SETTINGS = {
  settleMs: 50,
  timeoutMs: 2_000,
  protocolVersion: "2025-06-18" as const,
};
/** What a standard profile declares. */
const declared = (profile: Profile) => ({ profile, capabilities: capabilitiesOf(profile) });
const sanitized = { sanitizeOps: true, sanitizeResources: true };

Deno.test({
  name: "stdio transport: a complete discovery releases everything",
  ...sanitized,
  fn: async () => {
    const [command, ...args] = fixture("demo/server.ts");
    const transport = openStdio({ kind: "stdio", command, args, stderr: "discard" });
    const outcome = await discoverProfile(transport, declared("all"), SETTINGS);
    await transport.close();
    assert.equal(outcome.complete, true);
    assert.ok(outcome.complete && outcome.tools.length === 5);
  },
});

Deno.test({
  name: "stdio transport: a timed-out discovery releases everything",
  ...sanitized,
  fn: async () => {
    const [command, ...args] = hostile("silent-list");
    const transport = openStdio({ kind: "stdio", command, args, stderr: "discard" });
    const outcome = await discoverProfile(transport, declared("none"), {
      ...SETTINGS,
      timeoutMs: 300,
    });
    await transport.close();
    assert.ok(!outcome.complete && outcome.incomplete.reason === "timeout");
  },
});

Deno.test({
  name: "HTTP transport: discovery and the closing DELETE release every connection",
  ...sanitized,
  fn: async () => {
    await using server = await startHttp(httpFixture("http_server.ts"));
    for (const profile of ["none", "roots"] as const) {
      const transport = openHttp({
        kind: "streamable-http",
        url: new URL(server.url),
        headers: [],
      }, "2025-06-18");
      const outcome = await discoverProfile(transport, declared(profile), SETTINGS);
      await transport.close();
      assert.equal(outcome.complete, true);
    }
  },
});

Deno.test({
  name: "HTTP transport: a never-ending SSE stream is released on close",
  ...sanitized,
  fn: async () => {
    await using server = await startHttp(httpFixture("http_hostile.ts", "sse-never-ends"));
    const transport = openHttp(
      { kind: "streamable-http", url: new URL(server.url), headers: [] },
      "2025-06-18",
    );
    const outcome = await discoverProfile(transport, declared("none"), {
      ...SETTINGS,
      timeoutMs: 300,
    });
    await transport.close();
    assert.ok(!outcome.complete && outcome.incomplete.reason === "timeout");
  },
});

Deno.test("an injected message bound can only shrink the default, never widen it", () => {
  assert.equal(maxMessageBytes(), MAX_MESSAGE_BYTES);
  assert.equal(maxMessageBytes({ maxMessageBytes: 4_096 }), 4_096);
  for (const wider of [MAX_MESSAGE_BYTES + 1, Number.MAX_SAFE_INTEGER, Infinity, NaN, 0, -1, 1.5]) {
    assert.equal(maxMessageBytes({ maxMessageBytes: wider }), MAX_MESSAGE_BYTES, String(wider));
  }
});
