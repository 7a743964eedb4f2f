/**
 * `--observe` with real clients from the npm registry (installed once into the lab's cache):
 * on the lab's probe servers (its probe host, the catalogs each observation was made with,
 * held-out ones included), each client reproduces its committed observation tool by tool,
 * names that clients rewrite, cut, hash, collide or find invalid included, and its preset
 * (`--client NAME`, the newest observed version) is paired with it; and the run is
 * isolated: its temporary folder (under the TMPDIR it is given) is gone after a success, after a
 * failure and after SIGINT, and no process of it is left. These tests need Linux, npm and the
 * npm registry, and skip with one line without them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertNoneLeft,
  DENO,
  type Fleet,
  fleetJson,
  mcpeval,
  ProcessMarker,
  type Report,
  ROOT,
  spawnMcpeval,
  tempDir,
  waitUntil,
} from "./_cli.ts";
import { installReadmeLine } from "./_readme.ts";
import { heldOutServers } from "../fixtures/held_out.ts";
import { builtinPresets, newestObserved } from "../src/clients/presets.ts";
import { agreement } from "../src/lab/check.ts";
import { readObservation } from "../src/lab/observation.ts";
import { INVALID_NAME_KEY, invalidNameKey, isToolName } from "../src/tool_name.ts";

const OBSERVE_FLAGS = [
  "--allow-run",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net=127.0.0.1",
];

/** Why real clients cannot be observed here, or undefined. */
async function observeProblem(): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return "not Linux";
  try {
    const ping = await new Deno.Command("npm", {
      args: ["ping", "--loglevel=error"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      signal: AbortSignal.timeout(20_000),
    }).output();
    return ping.success ? undefined : "the npm registry cannot be reached from here";
  } catch {
    return "npm is not installed, or the npm registry did not answer";
  }
}

const problem = await observeProblem();
if (problem !== undefined) {
  await Deno.stderr.write(
    new TextEncoder().encode(`SKIPPED --observe with real clients: ${problem}\n`),
  );
}

/** The clients reproduced: names cut (gemini-cli), rewritten, collided, invalid, hashed. */
const CLIENTS = ["claude-code", "gemini-cli", "copilot-cli"];

/**
 * The lab's probe host serving the catalogs `client`'s observation was made with, as
 * `deno task lab` serves them (`fixtures/lab_probes.ts`: the probe servers, the revision probe
 * servers, the held-out catalogs), and the `--config` file that names them as the lab's config
 * does; disposing of it ends the host.
 */
async function probeHost(
  dir: string,
  client: string,
  heldOut: boolean,
): Promise<AsyncDisposable & { file: string }> {
  const args = [join(ROOT, "fixtures", "lab_probes.ts"), client, dir];
  const host = new Deno.Command(DENO, {
    args: ["run", "--quiet", "--allow-all", ...args, ...(heldOut ? [] : ["--no-held-out"])],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // Its first line is the config file's path; the rest of its output is dropped.
  const reader = host.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    text += next.value;
    if (text.includes("\n")) break;
  }
  const ended = async () => {
    await host.stdin.close().catch(() => {});
    await host.status;
    await reader.cancel().catch(() => {});
  };
  if (!text.includes("\n")) {
    await ended();
    throw new Error("the probe host did not start");
  }
  return { file: text.slice(0, text.indexOf("\n")), [Symbol.asyncDispose]: ended };
}

/** What the observed profile of `report` says of each listed tool: received or not, by key. */
function sentOf(
  report: Report & { candidates: { rule?: string }[] },
): (key: string) => boolean | undefined {
  const observed = report.profiles.find((profile) => profile.profile.startsWith("observed:"));
  assert.ok(observed?.complete, JSON.stringify(observed));
  const hidden = new Set(
    report.candidates.filter((finding) =>
      finding.kind === "tool-unreachable-in-client" && finding.rule === "observed"
    ).map((finding) => finding.tool),
  );
  // A name that is not a tool identifier is listed by its key, which only a finding names.
  return (key) =>
    observed.tools!.includes(key) || INVALID_NAME_KEY.test(key) ? !hidden.has(key) : undefined;
}

/** A tool of a catalog as `agreement`'s lines and this test name it: `SERVER/"TOOL"`. */
const toolLine = (server: string, tool: string) => `${server}/${JSON.stringify(tool)}`;

const heldOut = problem === undefined ? await heldOutServers() : {};
/** Held-out catalogs mcpeval reads no catalog of (a boolean schema is not MCP's Tool shape). */
const UNREAD = new Set(["held-boolean-schema"]);

/**
 * Clients whose --observe run here names no held-out catalog: Copilot CLI 1.0.102 ends its turn
 * with no model request when the newest probe servers and the held-out catalogs are configured
 * together behind the proxy (whose description markers come on top of the probe host's), and
 * sends either set alone; its held-out agreement is held offline (tests/observed_test.ts).
 */
const WITHOUT_HELD_OUT = new Set(["copilot-cli"]);

for (const client of CLIENTS) {
  const version = newestObserved(client)!;
  Deno.test({
    name:
      `--observe ${client}@${version} on the probe servers reproduces its observation tool by tool, and --client ${client} pairs with it`,
    ignore: problem !== undefined,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const observation = (await readObservation(
        join(ROOT, "src", "clients", "observed", `${client}@${version}.json`),
      ))!;
      assert.ok(observation.held_out, "observed with the held-out catalogs");
      const withHeldOut = !WITHOUT_HELD_OUT.has(client);
      await using dir = await tempDir();
      let fleet: Fleet;
      {
        await using host = await probeHost(dir.path, client, withHeldOut);
        // `--client NAME` is the preset of the newest observed version: this observation's.
        const run = await fleetJson(
          [
            "--config",
            host.file,
            "--observe",
            `${client}@${version}`,
            "--client",
            client,
            "--settle-ms",
            "0",
          ],
          { permissions: OBSERVE_FLAGS, boundMs: 600_000 },
        );
        assert.notEqual(run.code, 2, run.stderr);
        fleet = run.fleet;
      }
      const differences: string[] = [];
      const disagreeing: string[] = [];
      for (const server of [...observation.servers, ...(withHeldOut ? observation.held_out : [])]) {
        const entry = fleet.servers.find((s) => s.name === server.label);
        assert.ok(entry?.checked, server.label);
        if (UNREAD.has(server.label)) continue;
        const sent = sentOf(entry.report as never);
        server.tools.forEach((tool, index) => {
          const key = isToolName(tool.name) ? tool.name : invalidNameKey(index + 1);
          const now = sent(key);
          if (now !== tool.sent) {
            differences.push(`${toolLine(server.label, tool.name)}: ${tool.sent} -> ${now}`);
          }
        });
        for (const candidate of entry.report.candidates) {
          if (candidate.kind !== "preset-disagrees-with-client") continue;
          assert.equal(candidate.profile, `client:${client}`);
          assert.equal(
            (candidate as { observed_profile?: string }).observed_profile,
            `observed:${client}@${version}`,
          );
          disagreeing.push(toolLine(server.label, candidate.tool));
        }
      }
      assert.deepEqual(differences, []);
      // The preset and its observed client disagree where the preset mispredicts the committed
      // observation: on no probe tool (it is derived from them), and on the held-out tools
      // `agreement` finds offline.
      const preset = builtinPresets().get(client)!;
      assert.equal(preset.version, version);
      const offline = await agreement(
        preset,
        observation.held_out.filter((server) => !UNREAD.has(server.label)),
        observation.held_out.filter((server) => !UNREAD.has(server.label)).map((server) =>
          heldOut[server.label]
        ),
      );
      // A preset whose model API refuses a request of this many tools (copilot-cli's
      // api-max-tools 128, reject-request) predicts no tool reachable in the whole config run,
      // while the lenient stand-in took every request: each tool the client sent disagrees.
      const refused = fleet.servers.some((entry) =>
        entry.checked &&
        entry.report.candidates.some((candidate) =>
          candidate.kind === "tool-unreachable-in-client" &&
          candidate.profile === `client:${client}` &&
          (candidate as { effect?: string }).effect === "reject-request"
        )
      );
      const compared = [...observation.servers, ...(withHeldOut ? observation.held_out : [])]
        .filter((server) => !UNREAD.has(server.label));
      assert.deepEqual(
        disagreeing.sort(),
        refused
          ? compared.flatMap((server) =>
            server.tools.flatMap((tool, index) =>
              tool.sent
                ? [
                  toolLine(
                    server.label,
                    isToolName(tool.name) ? tool.name : invalidNameKey(index + 1),
                  ),
                ]
                : []
            )
          ).sort()
          : offline.disagreements.map((line) => line.slice(0, line.lastIndexOf(": predicted")))
            .sort(),
      );
      // The opening the client sent the main server, as observed.
      const main = fleet.servers.find((s) => s.name === "main");
      assert.ok(main?.checked);
      const profile = main.report.profiles.find((p) => p.profile.startsWith("observed:")) as
        & Report["profiles"][number]
        & { observed: { protocol_version: string | null; client_info: unknown } };
      assert.equal(profile.observed.protocol_version, observation.initialize?.protocol_version);
      assert.deepEqual(profile.observed.client_info, observation.initialize?.client_info);
    },
  });
}

/** The processes whose HOME is under `dir` (the observed client's), from /proc. */
async function clientProcesses(dir: string): Promise<number[]> {
  const output = await new Deno.Command("sh", {
    args: ["-c", 'exec grep -lsz -e "^HOME=$1/" /proc/[0-9]*/environ', "sh", dir],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(output.stdout).split("\n").flatMap((line) => {
    const match = /^\/proc\/(\d+)\/environ$/.exec(line);
    return match ? [Number(match[1])] : [];
  });
}

/** The run's temporary folder is gone from `dir`, and no process of its client is left. */
async function assertIsolated(dir: string, what: string): Promise<void> {
  const left = [...Deno.readDirSync(dir)].map((entry) => entry.name);
  assert.deepEqual(left, [], `${what}: the temporary folder is removed`);
  assert.deepEqual(await clientProcesses(dir), [], `${what}: no process of the client is left`);
}

const CLAUDE = `claude-code@${newestObserved("claude-code")}`;
/** The demo server, or (with a log) the observe fixture over stdio, as the command after `--`. */
const demo = (log?: string) => [
  "--",
  DENO,
  "run",
  "--quiet",
  ...(log
    ? [`--allow-write=${log}`, join(ROOT, "fixtures", "observe_server.ts"), "stdio", log]
    : [join(ROOT, "fixtures", "demo", "server.ts")]),
];

Deno.test({
  name: "--observe leaves nothing behind: after a success, after a failure, and after SIGINT",
  ignore: problem !== undefined,
  fn: async () => {
    await using tmp = await tempDir();
    const env = { TMPDIR: tmp.path };
    // A success: the demo server.
    const done = await mcpeval(
      ["guidance", "--observe", CLAUDE, "--settle-ms", "100", ...demo()],
      { permissions: OBSERVE_FLAGS, env, boundMs: 300_000 },
    );
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /observed:claude-code@\S+ +4 +yes +complete/);
    await assertIsolated(tmp.path, "a success");
    // A failure: a server that exits before it answers (the observed profile is incomplete).
    const failed = await mcpeval(
      ["guidance", "--observe", CLAUDE, "--", DENO, "eval", "Deno.exit(1)"],
      { permissions: OBSERVE_FLAGS, env, boundMs: 300_000 },
    );
    assert.equal(failed.code, 3, failed.stderr);
    await assertIsolated(tmp.path, "a failure");
    // SIGINT while the client runs: exit 130, and the same.
    const log = join(tmp.path, "..", `${crypto.randomUUID()}.jsonl`);
    await Deno.writeTextFile(log, "");
    try {
      const marker = new ProcessMarker();
      const running = spawnMcpeval(
        ["guidance", "--observe", CLAUDE, "--settle-ms", "5000", ...demo(log)],
        { permissions: OBSERVE_FLAGS, env: { ...env, ...marker.env } },
      );
      // The server was opened through the proxy: the client is running, the settle window on.
      await waitUntil(() => Deno.readTextFileSync(log).includes("initialize"), 120_000, 50);
      assert.match(Deno.readTextFileSync(log), /initialize/, "the client opened the server");
      // What the checks below look for is there while it runs: the folder, the client.
      assert.ok(
        [...Deno.readDirSync(tmp.path)].some((entry) => entry.name.startsWith("mcpeval-observe-")),
      );
      assert.notDeepEqual(await clientProcesses(tmp.path), []);
      const stopped = await running.stop("SIGINT", 30_000);
      assert.equal(stopped.code, 130, stopped.stderr);
      await running.assertNoneLeft("mcpeval --observe, interrupted");
      await assertIsolated(tmp.path, "SIGINT");
    } finally {
      await Deno.remove(log).catch(() => {});
    }
  },
});

Deno.test({
  name: "the README's --observe install line: mcpeval guidance --observe claude-code on the demo",
  ignore: problem !== undefined,
  fn: async () => {
    await using root = await tempDir();
    const marker = new ProcessMarker();
    const run = await installReadmeLine(root.path, marker, { observe: true, boundMs: 300_000 });
    const report = await run(
      "mcpeval guidance --observe claude-code -- deno run fixtures/demo/server.ts",
    );
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /\n {2}observed:claude-code@\S+ +4 +yes +complete\n/);
    assert.match(report.stdout, /its model received 4 of 4 listed tools/);
    assertNoneLeft(await marker.reap(), "the installed mcpeval --observe");
  },
});
