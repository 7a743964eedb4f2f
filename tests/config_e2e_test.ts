/**
 * `--config` end to end: real servers (server-everything over stdio and Streamable HTTP,
 * server-filesystem, server-memory, the demo) next to hostile fixture servers, in one config;
 * the exit rule, `--jobs`, and Ctrl-C across servers.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertInterrupted,
  configFile,
  DENO,
  entry,
  EVERYTHING,
  everythingHttp,
  fixture,
  fixtureLog,
  fleetJson,
  hostile,
  isRunning,
  spawnMcpeval,
  startHttp,
  tempDir,
  waitUntil,
  withoutNotices,
} from "./_cli.ts";
import { assertEverythingCatalogs } from "./_everything.ts";
import { assertValidSarif } from "./_sarif.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const SECRET = "CANARY-config-7c41e-secret";
const npmServer = (name: string, ...args: string[]) => [
  DENO,
  "run",
  "--quiet",
  "--allow-all",
  `npm:@modelcontextprotocol/server-${name}@2026.8.31`,
  ...args,
];

Deno.test("ten servers from one config, two broken and one needing an unset variable: one report with all ten, exit 3, no secret", async () => {
  await using http = await startHttp(everythingHttp());
  await using temp = await tempDir();
  const dir = temp.path;
  await using config = await configFile({
    mcpServers: {
      everything: entry(EVERYTHING),
      "everything-http": {
        type: "http",
        url: http.url,
        headers: { Authorization: "Bearer ${MCPEVAL_TEST_SECRET}" },
      },
      filesystem: entry(npmServer("filesystem", dir)),
      memory: entry(npmServer("memory"), {
        env: { MEMORY_FILE_PATH: join(dir, "memory.json") },
      }),
      demo: entry(fixture("demo/server.ts")),
      hostile: entry([...hostile("default"), SECRET], {
        env: { API_KEY: "${MCPEVAL_TEST_SECRET}", LITERAL: SECRET },
      }),
      crashes: entry(hostile("exit-after-initialize")),
      "list-error": entry(hostile("list-error")),
      "needs-token": entry(hostile("default"), {
        env: { TOKEN: "${MCPEVAL_TEST_UNSET_TOKEN}" },
      }),
      quiet: entry(hostile("no-instructions")),
    },
  });
  const files = FORMATS.filter((id) => id !== "json").map((f) => [f, join(dir, `fleet.${f}`)]);
  const { code, fleet, stdout, stderr } = await fleetJson(
    [
      "--config",
      config.path,
      "--settle-ms",
      "500",
      ...files.map(([format, path]) => `--output=${format}=${path}`),
    ],
    {
      permissions: [
        `--allow-read=${config.path}`,
        `--allow-run=${DENO}`,
        `--allow-net=${http.host}`,
        "--allow-env=MCPEVAL_TEST_SECRET,MCPEVAL_TEST_UNSET_TOKEN",
        `--allow-write=${dir}`,
      ],
      env: { MCPEVAL_TEST_SECRET: SECRET },
    },
  );
  assert.equal(code, 3);
  assert.equal(fleet.config_format, "mcpServers");
  // unset-variable names what the entry needs (a name, never a value).
  assert.deepEqual(
    (fleet.servers.find((s) => s.name === "needs-token") as { variables?: string[] }).variables,
    ["MCPEVAL_TEST_UNSET_TOKEN"],
  );
  const summary = fleet.servers.map((server) =>
    server.checked
      ? [server.name, server.report.transport, server.report.complete]
      : [server.name, server.reason]
  );
  assert.deepEqual(summary, [
    ["everything", "stdio", true],
    ["everything-http", "streamable-http", true],
    ["filesystem", "stdio", true],
    ["memory", "stdio", true],
    ["demo", "stdio", true],
    ["hostile", "stdio", true],
    ["crashes", "stdio", false],
    ["list-error", "stdio", false],
    ["needs-token", "unset-variable"],
    ["quiet", "stdio", true],
  ]);
  const report = (name: string) => {
    const server = fleet.servers.find((s) => s.name === name)!;
    assert.ok(server.checked);
    return server.report;
  };
  assertEverythingCatalogs(report("everything"));
  assertEverythingCatalogs(report("everything-http"));
  assert.ok(report("filesystem").profiles.every((p) => p.tools?.includes("list_directory")));
  assert.ok(report("memory").profiles.every((p) => p.tools?.includes("create_entities")));
  assert.deepEqual(report("hostile").profiles[0].tools, ["alpha", "beta"]);
  assert.ok(report("crashes").profiles.every((p) => p.incomplete?.reason === "transport-lost"));
  assert.ok(report("list-error").profiles.every((p) => p.incomplete?.reason === "list-error"));
  assert.equal(fleet.complete, false);
  assert.equal(fleet.passed, null);
  // The crashed server's stderr was discarded (off a terminal): one line of mcpeval's says so.
  assert.equal(withoutNotices(stderr), "");

  const written = Object.fromEntries(files.map(([f, path]) => [f, Deno.readTextFileSync(path)]));
  for (const [where, text] of [["stdout", stdout], ...Object.entries(written)]) {
    assert.ok(!text.includes(SECRET), `the secret reached ${where}`);
    assert.ok(!text.includes("7c41e"), `part of the secret reached ${where}`);
    assert.ok(!text.includes(http.url), `the URL reached ${where}`);
  }
  // Text: the summary table first, then a section per server.
  const text = written.text;
  assert.match(text, /^mcpeval guidance {2}config mcpServers, 10 servers\n\nServers\n {2}server /);
  assert.match(
    text,
    /^ {2}needs-token +- +- +- +- +- +not checked:\s+unset-variable \(needs\s+\w+\)$/m,
  );
  assert.match(text, /^ {2}crashes +stdio +0\/5 +- +- +- +incomplete$/m);
  for (const name of fleet.servers.map((s) => s.name)) {
    assert.match(text, new RegExp(`^== ${name} =+$`, "m"));
  }
  assert.match(text, /\nResult: incomplete: 1 not checked and 2 incomplete of 10 servers; /);
  // GitHub: every server's commands, an error for the one not checked, a final notice.
  assert.match(written.github, /^::error title=mcpeval guidance \(needs-token\)%3A not checked::/m);
  assert.match(
    written.github,
    /::notice title=mcpeval guidance \(config mcpServers\)::Result: incomplete: .*\n$/,
  );
  // Within GitHub's per-step limits (10 errors, 10 warnings): 3 errors (one per cause) and 27
  // warnings, grouped by server with counts; a server's only error stays whole.
  for (const level of ["error", "warning", "notice"]) {
    const count = written.github.split("\n").filter((line) => line.startsWith(`::${level} `));
    assert.ok(count.length <= 10, `${count.length} ${level} annotations`);
  }
  assert.match(
    written.github,
    /^::error title=mcpeval guidance \(crashes\)%3A profile incomplete::none, roots, sampling, elicitation, all: incomplete: transport-lost\. The server process exited /m,
  );
  assert.match(
    written.github,
    /^::warning title=mcpeval guidance \(demo\)%3A 9 warnings::referenced-tool-unavailable: 9; /m,
  );
  // JUnit: a test suite per server.
  assert.equal(XMLValidator.validate(written.junit), true);
  const junit = new XMLParser({ ignoreAttributes: false }).parse(written.junit);
  const suites = junit.testsuites.testsuite as { "@_name": string }[];
  assert.deepEqual(suites.map((s) => s["@_name"]), fleet.servers.map((s) => `mcpeval.${s.name}`));
  // SARIF: one valid run across servers.
  const sarif = JSON.parse(written.sarif);
  assertValidSarif(sarif);
  const ids = new Set(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId));
  assert.deepEqual([...ids].sort(), [
    "profile-incomplete",
    "referenced-tool-unavailable",
    "server-not-checked",
  ]);
});

const quick = ["--profile", "none", "--settle-ms", "0", "--timeout-ms", "5000"];

Deno.test("the exit rule: 0 all passed, 1 a defect, 3 a server incomplete or not checked; a command that cannot start stops no other server", async () => {
  await using config = await configFile({
    mcpServers: {
      a: entry(hostile("default")),
      b: entry(hostile("default")),
      off: { ...entry(hostile("default")), disabled: true },
      missing: { command: "mcpeval-no-such-server-command" },
    },
  });
  await using _ = config;
  const run = (...args: string[]) =>
    fleetJson(["--config", config.path, ...quick, ...args], {
      permissions: [`--allow-read=${config.path}`, "--allow-run"],
    });
  const passed = await run("--server", "a", "--server", "b", "--require-tool", "a:alpha");
  assert.deepEqual([passed.code, passed.fleet.complete, passed.fleet.passed], [0, true, true]);
  const defect = await run("--server", "a", "--server", "b", "--require-tool", "b:gamma");
  assert.deepEqual([defect.code, defect.fleet.passed], [1, false]);
  const defects = defect.fleet.servers.map((s) => s.checked ? s.report.defects.length : -1);
  assert.deepEqual(defects, [0, 1]);
  const all = await run("--require-tool", "b:gamma");
  assert.equal(all.code, 3);
  assert.deepEqual(
    all.fleet.servers.map((s) => s.checked ? [s.name, s.report.passed] : [s.name, s.reason]),
    [["a", true], ["b", false], ["off", "disabled"], ["missing", "spawn-failed"]],
  );
});

Deno.test("--jobs bounds the live server connections across all servers", async () => {
  await using log = await fixtureLog();
  await using config = await configFile({
    mcpServers: Object.fromEntries(
      ["a", "b", "c", "d"].map((name) => [name, entry(hostile("slow-start"))]),
    ),
  });
  const { code } = await fleetJson(
    [
      "--config",
      config.path,
      "--settle-ms",
      "0",
      "--profile",
      "none",
      "--profile",
      "all",
      "--jobs",
      "3",
    ],
    {
      permissions: [`--allow-read=${config.path}`, `--allow-run=${DENO}`],
      env: { MCPEVAL_FIXTURE_LOG: log.path },
    },
  );
  assert.equal(code, 0);
  const events = (log.entries() as { pid?: number; exited?: number; at?: number }[])
    .flatMap((e) =>
      e.pid !== undefined && e.at ? [[e.at, 1]] : e.exited !== undefined ? [[e.at!, -1]] : []
    )
    .sort(([a, x], [b, y]) => a - b || x - y);
  assert.equal(events.filter(([, d]) => d === 1).length, 8, "8 connections were made");
  let live = 0;
  let peak = 0;
  for (const [, change] of events) peak = Math.max(peak, live += change);
  // The bound holds however fast the machine is; how much the servers overlap does not, so that
  // is measured by `deno task bench` (case 8: 10 servers that take 1 s to start, `--jobs 10`).
  assert.ok(peak <= 3, `at most 3 servers ran at once, saw ${peak}`);
});

Deno.test({
  name: "SIGINT during a fleet stops every process of every server, exit 130, no report",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using log = await fixtureLog();
    await using config = await configFile({
      mcpServers: Object.fromEntries(
        ["a", "b", "c"].map((name) => [name, entry(hostile("silent-list"))]),
      ),
    });
    const running = spawnMcpeval(
      ["guidance", "--config", config.path, "--settle-ms", "0", "--jobs", "64"],
      {
        permissions: [`--allow-read=${config.path}`, `--allow-run=${DENO}`],
        env: { MCPEVAL_FIXTURE_LOG: log.path },
      },
    );
    const listing = () => log.received("tools/list");
    await waitUntil(() => listing() >= 15, 30_000, 50);
    assert.equal(listing(), 15, "every profile of every server is waiting on tools/list");
    assertInterrupted(await running.stop("SIGINT"));
    const pids = log.pids();
    assert.equal(pids.length, 15);
    for (const pid of pids) assert.ok(!isRunning(pid), `server ${pid} survived`);
    await running.assertNoneLeft("mcpeval --config interrupted");
  },
});
