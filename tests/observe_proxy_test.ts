/**
 * The discovery-only proxy of `--observe` (SPEC 24) with a fake client (fixtures/
 * observe_fake_client.ts, run as a real client is: in its scope, with a config that names only
 * the relay) that sends every method of every revision's schema, singly and in a batch, while
 * the server (fixtures/observe_server.ts, over stdio and over Streamable HTTP) asks for roots,
 * sampling and elicitation: the server receives only the opening, `notifications/initialized`
 * and its two `tools/list` pages (and the proxy's answers to its own requests, as section 4
 * says), and the client receives none of the server's requests or notifications. What the fake
 * client's model received is the observed profile: every tool but the one it left out.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertNoneLeft, DENO, ProcessMarker, ROOT, tempDir } from "./_cli.ts";
import type { Driver } from "../src/lab/driver.ts";
import { observeClient, type ObservedServer } from "../src/lab/observe_run.ts";
import { openTransport } from "../src/transport/open.ts";
import type { ObservedOutcome } from "../src/discovery/observed.ts";
import type { Target } from "../src/target.ts";

const SERVER = join(ROOT, "fixtures", "observe_server.ts");
const CLIENT = join(ROOT, "fixtures", "observe_fake_client.ts");

/** A driver whose client is the fake one: it logs what it receives to `log`. */
function fakeDriver(log: string, marker: ProcessMarker, mode = "normal"): Driver {
  return {
    id: "fake",
    package: "fake",
    version: "1.0.0",
    api: "anthropic",
    prepare: async ({ home, model, servers }) => {
      const config = join(home, "fake.json");
      await Deno.writeTextFile(config, JSON.stringify({ servers }));
      return {
        bin: DENO,
        args: ["run", "--quiet", "--no-config", "-A", CLIENT, config, log, model, mode],
        env: marker.env,
      };
    },
  };
}

type Entry = Record<string, unknown>;
const lines = (path: string): Entry[] =>
  Deno.readTextFileSync(path).split("\n").filter((line) => line !== "").map((line) =>
    JSON.parse(line)
  );

/** Runs the fake client against one server `target`, and returns its outcome and both logs. */
async function observeFake(
  dir: string,
  target: (serverLog: string) => Target,
  mode = "normal",
  waitMs = 60_000,
): Promise<{ outcome: ObservedOutcome; server: Entry[]; client: Entry[] }> {
  const serverLog = join(dir, "server.jsonl");
  const clientLog = join(dir, "client.jsonl");
  await Deno.writeTextFile(serverLog, "");
  await Deno.writeTextFile(clientLog, "");
  const marker = new ProcessMarker();
  const server: ObservedServer = {
    name: "fixture",
    target: target(serverLog),
    settleMs: 100,
    timeoutMs: 10_000,
  };
  const [result] = await observeClient(
    {
      driver: fakeDriver(clientLog, marker, mode),
      version: "1.0.0",
      prefix: dir,
      label: "observed:fake@1.0.0",
    },
    [server],
    { open: (target, version, hooks) => openTransport(target, version, hooks), waitMs },
  );
  assertNoneLeft(await marker.reap(), "the fake client");
  assert.ok("outcome" in result);
  return { outcome: result.outcome, server: lines(serverLog), client: lines(clientLog) };
}

/** What the server may receive: discovery and the answers to its own requests, nothing else. */
function assertOnlyDiscovery(server: Entry[]): void {
  const methods = server.flatMap((entry) => typeof entry.method === "string" ? [entry.method] : []);
  assert.deepEqual(methods, [
    "initialize",
    "notifications/initialized",
    "tools/list",
    "tools/list",
  ]);
  assert.ok(!server.some((entry) => "batch" in entry), "no batch reached the server");
  const answers = Object.fromEntries(
    server.flatMap((entry) => "response" in entry ? [[entry.response, entry]] : []),
  );
  assert.deepEqual(answers["s-roots"]?.result, { roots: [] });
  assert.equal((answers["s-sampling"]?.error as { code: number })?.code, -1);
  assert.deepEqual(answers["s-elicitation"]?.result, { action: "decline" });
  assert.equal(Object.keys(answers).length, 3, "only the proxy's answers to its own requests");
}

/** What the client may receive: answers only, no request or notification of the server. */
function assertOnlyAnswers(client: Entry[]): void {
  const messages = client.flatMap((entry) => {
    const message = entry.message;
    return Array.isArray(message) ? message : [message];
  }) as Entry[];
  assert.ok(messages.length > 70, `${messages.length} answers`);
  const fromServer = messages.filter((message) => "method" in message);
  assert.deepEqual(fromServer, [], "the client received none of the server's messages");
  const methods = messages.filter((message) =>
    JSON.stringify(message).includes("roots/list") ||
    JSON.stringify(message).includes("sampling") || JSON.stringify(message).includes("elicitation")
  );
  assert.deepEqual(methods, []);
}

/** The observed profile: the catalog, and every tool the fake model got (all but `beta`). */
function assertObserved(outcome: ObservedOutcome): void {
  assert.ok(outcome.complete, JSON.stringify(outcome));
  assert.deepEqual(outcome.tools, ["alpha", "beta", "gamma"]);
  assert.equal(outcome.pages, 2);
  const { observed } = outcome;
  assert.deepEqual([...observed.received ?? []].sort(), ["alpha", "gamma"]);
  assert.equal(observed.modelRequests, 1);
  assert.deepEqual(observed.opening, {
    method: "initialize",
    protocolVersion: "2025-06-18",
    capabilities: ["elicitation", "roots", "sampling"],
    clientInfo: { name: "fake-client", version: "1.0.0" },
  });
  // The fake client shows its model the first 40 characters of the instructions.
  assert.equal(observed.instructions?.shownChars, 40);
  assert.equal(observed.instructions?.chars, 116);
}

Deno.test("--observe proxy, stdio server: only discovery reaches the server, none of its requests the client", async () => {
  await using dir = await tempDir();
  const { outcome, server, client } = await observeFake(dir.path, stdioServer);
  assertOnlyDiscovery(server);
  assertOnlyAnswers(client);
  assertObserved(outcome);
});

Deno.test("--observe proxy, Streamable HTTP server: only discovery POSTs, no GET, none of its requests the client", async () => {
  await using dir = await tempDir();
  const portFile = join(dir.path, "port");
  const serverLog = join(dir.path, "server.jsonl");
  await Deno.writeTextFile(serverLog, "");
  const http = new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      "--no-config",
      `--allow-write=${serverLog},${portFile}`,
      "--allow-net=127.0.0.1",
      SERVER,
      "http",
      serverLog,
      portFile,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let port = "";
    for (const stop = Date.now() + 20_000; port === "" && Date.now() < stop;) {
      port = await Deno.readTextFile(portFile).catch(() => "");
      if (port === "") await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const { outcome, server, client } = await observeFake(dir.path, () => ({
      kind: "streamable-http",
      url,
      headers: [],
    }));
    const http = server.flatMap((entry) => typeof entry.http === "string" ? [entry.http] : []);
    assert.ok(!http.includes("GET"), "the proxy never opens the GET stream");
    assert.ok(http.every((method) => method === "POST" || method === "DELETE"), http.join());
    assertOnlyDiscovery(server.filter((entry) => !("http" in entry)));
    assertOnlyAnswers(client);
    assertObserved(outcome);
  } finally {
    http.kill("SIGKILL");
    await http.status;
  }
});

/** The fixture server over stdio, logging to `log`. */
const stdioServer = (log: string): Target => ({
  kind: "stdio",
  command: DENO,
  args: ["run", "--quiet", "--no-config", `--allow-write=${log}`, SERVER, "stdio", log],
  stderr: "discard",
});

Deno.test("--observe: a client that fails makes its profile incomplete with its own reason", async (t) => {
  for (
    const [mode, reason, waitMs] of [
      ["crash", "client-crashed", 60_000],
      ["quiet", "client-no-model-request", 60_000],
      ["hang", "client-timeout", 5_000],
      ["skip", "client-not-connected", 60_000],
    ] as const
  ) {
    await t.step(mode, async () => {
      await using dir = await tempDir();
      const { outcome, server } = await observeFake(dir.path, stdioServer, mode, waitMs);
      assert.ok(!outcome.complete);
      assert.equal(outcome.incomplete.reason, reason);
      // Whatever the client did, the server heard discovery only, or nothing.
      const methods = server.flatMap((entry) =>
        typeof entry.method === "string" ? [entry.method] : []
      );
      assert.deepEqual(
        methods,
        mode === "skip"
          ? []
          : ["initialize", "notifications/initialized", "tools/list", "tools/list"],
      );
    });
  }
});
