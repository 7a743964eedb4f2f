/**
 * The pure parts of presets per version: the version pattern and order, which published versions
 * `mcpeval lab --all` takes, presets files keyed `NAME@VERSION` with `version`, `accepts` and
 * `hand_written`, the negotiation of a preset that accepts newer revisions than it asks for, and
 * the environment a client runs with (the caller's proxy and CA settings passed, the stand-in
 * never behind a proxy).
 */
import assert from "node:assert/strict";
import {
  CLIENT_VERSION,
  compareVersions,
  monthlyVersions,
  splitClient,
} from "../src/clients/versions.ts";
import { byName, parsePresets, versionsOf } from "../src/clients/presets.ts";
import { acceptedBy, planOf } from "../src/protocol/versions.ts";
import { commonEnv } from "../src/lab/run.ts";

Deno.test("client versions: semver, ordered by precedence", () => {
  for (const good of ["2.1.246", "0.171.0", "1.0.0-rc.1", "10.20.30"]) {
    assert.ok(CLIENT_VERSION.test(good), good);
  }
  for (const bad of ["2.1", "2.x.1", "01.2.3", "1.2.3+build", "v1.2.3", "1.2.3 "]) {
    assert.ok(!CLIENT_VERSION.test(bad), bad);
  }
  const sorted = ["1.0.102", "1.0.99", "1.0.0", "1.0.0-rc.1", "1.0.0-rc.10", "1.0.0-beta"].sort(
    compareVersions,
  );
  assert.deepEqual(sorted, [
    "1.0.0-beta",
    "1.0.0-rc.1",
    "1.0.0-rc.10",
    "1.0.0",
    "1.0.99",
    "1.0.102",
  ]);
  assert.deepEqual(splitClient("claude-code@2.1.246"), { name: "claude-code", version: "2.1.246" });
  assert.deepEqual(splitClient("cline"), { name: "cline" });
});

Deno.test("--all's versions: the newest release, then the highest one published by each 30-day step back", () => {
  const day = (d: string) => `${d}T12:00:00.000Z`;
  const published = new Map([
    ["created", day("2026-01-01")],
    ["2.0.0", day("2026-06-01")],
    ["2.1.0", day("2026-07-20")],
    ["1.9.9", day("2026-09-01")], // a late patch of an old line: never taken for the newest
    ["2.2.0", day("2026-09-15")],
    ["2.3.0-beta.1", day("2026-11-30")], // a pre-release: never taken
    ["2.3.0", day("2026-11-20")],
  ]);
  assert.deepEqual(monthlyVersions(published, new Date(day("2026-12-07"))), [
    "2.3.0",
    "2.2.0",
    "2.1.0",
    "2.0.0",
  ]);
});

const evidence = { source: "npm:pkg@1.0.0", verified_at: "2026-12-01" };
const entry = (extra: Record<string, unknown> = {}) => ({
  client_info: { name: "c", version: "1.0.0" },
  capabilities: {},
  instructions_shown: true,
  rules: [],
  sources: [{ url: "npm:pkg@1.0.0", verified_at: "2026-12-01" }],
  ...extra,
});
const file = (clients: Record<string, unknown>) => ({
  schema: "mcpeval.client-presets/v1",
  clients,
});

Deno.test("presets files: NAME@VERSION keys with their version, accepts, hand_written", () => {
  const parsed = parsePresets(file({
    "c@1.0.0": entry({
      version: "1.0.0",
      protocol_version: { value: "2024-11-05", ...evidence },
      accepts: { value: ["2025-06-18", "2024-11-05"], ...evidence },
    }),
    "c@1.2.0": entry({ version: "1.2.0" }),
    d: entry({ hand_written: { reason: "an editor" } }),
  }));
  assert.ok(typeof parsed !== "string", String(parsed));
  assert.deepEqual(parsed.get("c@1.0.0")!.accepts, ["2025-06-18", "2024-11-05"]);
  assert.equal(parsed.get("d")!.handWritten, "an editor");
  assert.deepEqual(versionsOf(parsed, "c"), ["1.0.0", "1.2.0"]);
  const named = byName(parsed);
  assert.deepEqual([...named.keys()], ["c", "d"]);
  assert.equal(named.get("c")!.version, "1.2.0");
  for (
    const [bad, problem] of [
      [{ "c@1.0.0": entry() }, "field clients.c@1.0.0.version must be the version its key names"],
      [
        { "c@1.0.0": entry({ version: "1.0.1" }) },
        "field clients.c@1.0.0.version must be the version its key names",
      ],
      [
        { "c@1.0": entry() },
        "names a client that is not 1-32 of a-z, 0-9 and '-' (with an optional @VERSION)",
      ],
      [
        { c: entry({ accepts: { value: ["2025-06-18", "2025-06-18"], ...evidence } }) },
        "field clients.c.accepts.value must be a list of protocol revisions mcpeval knows, each once",
      ],
      [{ c: entry({ hand_written: true }) }, "field clients.c.hand_written must be {reason}"],
    ] as const
  ) {
    assert.equal(parsePresets(file(bad)), problem);
  }
});

Deno.test("a preset that accepts newer revisions than it asks for negotiates among them", () => {
  const plan = planOf("2025-06-18", "2024-11-05", false, undefined, [
    "2024-11-05",
    "2025-11-25",
    "2025-06-18",
  ]);
  assert.deepEqual(plan, {
    start: "2024-11-05",
    negotiate: true,
    accepted: ["2025-11-25", "2025-06-18", "2024-11-05"],
  });
  assert.deepEqual(acceptedBy(plan, "initialize"), ["2025-11-25", "2025-06-18", "2024-11-05"]);
  // Named strictly, --protocol-version wins over what the client accepts.
  assert.deepEqual(planOf("2025-06-18", "2024-11-05", true, undefined, ["2025-11-25"]), {
    start: "2025-06-18",
    negotiate: false,
  });
  // Without accepts: the start and every older one.
  assert.deepEqual(acceptedBy(planOf("2025-06-18", "2025-03-26")), ["2025-03-26", "2024-11-05"]);
});

Deno.test("a client's environment: the caller's proxy and CA settings, never a proxy for 127.0.0.1", () => {
  const env = commonEnv("/tmp/home", {
    PATH: "/usr/bin",
    HTTPS_PROXY: "http://proxy.invalid:3128",
    https_proxy: "http://proxy.invalid:3128",
    NO_PROXY: "internal.invalid",
    NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
    SSL_CERT_FILE: "/etc/ca.pem",
    npm_config_registry: "https://registry.invalid/",
    NPM_CONFIG_CAFILE: "/etc/ca.pem",
    SECRET_TOKEN: "never-passed",
    ANTHROPIC_API_KEY: "never-passed",
  });
  assert.equal(env.HTTPS_PROXY, "http://proxy.invalid:3128");
  assert.equal(env.https_proxy, "http://proxy.invalid:3128");
  assert.equal(env.NODE_EXTRA_CA_CERTS, "/etc/ca.pem");
  assert.equal(env.SSL_CERT_FILE, "/etc/ca.pem");
  assert.equal(env.npm_config_registry, "https://registry.invalid/");
  assert.equal(env.NPM_CONFIG_CAFILE, "/etc/ca.pem");
  assert.equal(env.NO_PROXY, "internal.invalid,127.0.0.1,localhost");
  assert.equal(env.no_proxy, "127.0.0.1,localhost");
  assert.equal(env.SECRET_TOKEN, undefined);
  assert.equal(env.ANTHROPIC_API_KEY, undefined);
  assert.equal(env.HOME, "/tmp/home");
  assert.equal(env.NPM_CONFIG_UPDATE_NOTIFIER, "false");
});
