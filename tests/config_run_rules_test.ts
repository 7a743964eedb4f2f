/**
 * A run's settings have one validator (`validateRun`), for a run of one server and a fleet.
 * A fleet's settings have one validator: `mcpeval guidance --config` and the library's
 * `runConfig` accept and refuse the same inputs, and split `SERVER:TOOL` at the same colon.
 */
import assert from "node:assert/strict";
import { parseGuidanceArgs } from "../src/cli/args.ts";
import { UserError } from "../src/errors.ts";
import { splitRequirement } from "../src/request/fleet.ts";
import { validateRun } from "../src/request/run.ts";
import { RequestError, runConfig } from "../mod.ts";
import { testContext } from "./_context.ts";

/** `--require-tool` values with `--server` selections, and what both must make of them. */
const REQUIREMENTS: [string, string[] | undefined, [string, string[]][] | "refused"][] = [
  ["memory:read_graph", undefined, [["memory", ["read_graph"]]]],
  ["memory:a/b.c-d_e", undefined, [["memory", ["a/b.c-d_e"]]]],
  // An entry's key may hold colons; a tool name never does: the last colon splits.
  ["ns:memory:read_graph", undefined, [["ns:memory", ["read_graph"]]]],
  ["my server:read", undefined, [["my server", ["read"]]]],
  ["read_graph", undefined, "refused"],
  [":read_graph", undefined, "refused"],
  ["memory:", undefined, "refused"],
  ["memory:read graph", undefined, "refused"],
  ["memory:read:graph", undefined, [["memory:read", ["graph"]]]],
  [`${"k".repeat(257)}:tool`, undefined, "refused"],
  ["a\u0007b:tool", undefined, "refused"],
  [`memory:${"t".repeat(129)}`, undefined, "refused"],
  ["memory:read", ["memory"], [["memory", ["read"]]]],
  ["other:read", ["memory"], "refused"],
  // A key and a label may name the same entry: that is checked with the file.
  ["other:read", ["my key"], [["other", ["read"]]]],
];

/** Other settings of a fleet, accepted or refused by both. */
const SETTINGS: [string, string[], Parameters<typeof runConfig>[0], boolean][] = [
  ["jobs 1", ["--jobs", "1"], { config: "c.json", jobs: 1 }, true],
  ["jobs 64", ["--jobs", "64"], { config: "c.json", jobs: 64 }, true],
  ["jobs 0", ["--jobs", "0"], { config: "c.json", jobs: 0 }, false],
  ["jobs 65", ["--jobs", "65"], { config: "c.json", jobs: 65 }, false],
  ["input", ["--input", "a.b-c=VAR_1"], { config: "c.json", inputs: { "a.b-c": "VAR_1" } }, true],
  ["input bad id", ["--input", "a b=VAR"], { config: "c.json", inputs: { "a b": "VAR" } }, false],
  ["input bad variable", ["--input", "a=1X"], { config: "c.json", inputs: { a: "1X" } }, false],
  ["stderr inherit", ["--server-stderr", "inherit"], {
    config: "c.json",
    serverStderr: "inherit",
  }, true],
  ["stderr other", ["--server-stderr", "loud"], { config: "c.json", serverStderr: "loud" }, false],
  ["server key", ["--server", "my key"], { config: "c.json", servers: ["my key"] }, true],
  ["server control", ["--server", "a\u0001"], { config: "c.json", servers: ["a\u0001"] }, false],
  ["profile", ["--profile", "roots"], { config: "c.json", profiles: ["roots"] }, true],
  ["profile bad", ["--profile", "root"], { config: "c.json", profiles: ["root"] }, false],
  ["shard", ["--shard", "2/4"], { config: "c.json", shard: "2/4" }, true],
  ["shard past count", ["--shard", "5/4"], { config: "c.json", shard: "5/4" }, false],
  ["shard not I/N", ["--shard", "2"], { config: "c.json", shard: "2" }, false],
  ["project", ["--config-project", "/p"], { config: "c.json", project: "/p" }, true],
  ["project empty", ["--config-project", ""], { config: "c.json", project: "" }, false],
  ["unknown references", ["--unknown-references"], {
    config: "c.json",
    unknownReferences: true,
  }, true],
  ["settle at max", ["--settle-ms", "5000"], { config: "c.json", settleMs: 5000 }, true],
  ["settle past max", ["--settle-ms", "5001"], { config: "c.json", settleMs: 5001 }, false],
  ["protocol auto", ["--protocol-version", "auto"], {
    config: "c.json",
    protocolVersion: "auto",
  }, true],
  ["protocol unknown", ["--protocol-version", "2024-01-01"], {
    config: "c.json",
    protocolVersion: "2024-01-01",
  }, false],
  ["client", ["--client", "claude-code"], { config: "c.json", clients: ["claude-code"] }, true],
  ["client unknown", ["--client", "claude"], { config: "c.json", clients: ["claude"] }, false],
];

/** What the command line makes of a fleet: its requirements, or "refused" (exit 2). */
async function cli(argv: string[]): Promise<[string, readonly string[]][] | "refused"> {
  try {
    const args = await parseGuidanceArgs(["--config", "c.json", ...argv], testContext());
    assert.ok("request" in args && args.request.servers.kind === "fleet");
    return [...args.request.servers.requirements];
  } catch (error) {
    assert.ok(error instanceof UserError, String(error));
    return "refused";
  }
}

/**
 * What `runConfig` makes of it: refused (a `RequestError`) before the file is read, or
 * accepted, when it goes on to read the config file (which does not exist).
 */
async function library(input: Parameters<typeof runConfig>[0]): Promise<boolean> {
  try {
    await runConfig({ ...input, config: "no-such-dir/c.json" });
  } catch (error) {
    if (error instanceof RequestError) return false;
    assert.match(String(error), /Cannot read the config file/);
    return true;
  }
  throw new Error("a missing config file ran");
}

Deno.test("--require-tool and runConfig's requiredTools: the same SERVER:TOOL rule", async () => {
  for (const [spec, servers, expected] of REQUIREMENTS) {
    const selection = servers?.flatMap((name) => ["--server", name]) ?? [];
    const name = JSON.stringify([spec, servers]);
    assert.deepEqual(await cli([...selection, "--require-tool", spec]), expected, name);
    const input = { config: "c.json", requiredTools: [spec], ...(servers ? { servers } : {}) };
    assert.equal(await library(input), expected !== "refused", name);
    if (expected !== "refused") {
      const { servers: selection } = validateRun(input);
      assert.ok(selection.kind === "fleet");
      assert.deepEqual([...selection.requirements], expected, name);
    }
    assert.equal("problem" in splitRequirement(spec), expected === "refused" && !servers, name);
  }
});

Deno.test("--config's options and runConfig's settings: accepted and refused alike", async () => {
  for (const [name, argv, input, accepted] of SETTINGS) {
    assert.equal(await cli(argv) !== "refused", accepted, `CLI ${name}`);
    assert.equal(await library(input), accepted, `runConfig ${name}`);
  }
});

Deno.test("a refused requirement names the field in each one's terms, never the value", async () => {
  const secret = "s3cr3t";
  await assert.rejects(
    parseGuidanceArgs(["--config", "c.json", "--require-tool", `${secret}`], testContext()),
    {
      message:
        "--require-tool must be SERVER:TOOL in a config run: say which server must list the tool",
    },
  );
  assert.throws(() => validateRun({ config: "c.json", requiredTools: [`a:${secret} x`] }), {
    message: /^requiredTools TOOL must be a tool name/,
  });
  assert.throws(
    () => validateRun({ config: "c.json", servers: ["a"], requiredTools: ["b:t"] }),
    { message: "requiredTools names server b, which no server selects" },
  );
});

/** A run of one server's options and the library's fields, accepted or refused by both. */
const SERVER_SETTINGS: [string, string[], Record<string, unknown>, boolean][] = [
  ["label", ["--server", "a.b_c-d"], { server: "a.b_c-d" }, true],
  ["label with a space", ["--server", "a b"], { server: "a b" }, false],
  ["tool", ["--require-tool", "a/b.c-d_e"], { requiredTools: ["a/b.c-d_e"] }, true],
  ["tool with a colon", ["--require-tool", "s:t"], { requiredTools: ["s:t"] }, false],
  ["settle at max", ["--settle-ms", "5000"], { settleMs: 5000 }, true],
  ["settle past max", ["--settle-ms", "5001"], { settleMs: 5001 }, false],
  ["timeout at min", ["--timeout-ms", "100"], { timeoutMs: 100 }, true],
  ["timeout under min", ["--timeout-ms", "99"], { timeoutMs: 99 }, false],
  ["concurrency 0", ["--concurrency", "0"], { concurrency: 0 }, false],
  ["profile", ["--profile", "all"], { profiles: ["all"] }, true],
  ["profiles in one value", ["--profile", "roots,all"], { profiles: ["roots,all"] }, false],
  ["protocol auto", ["--protocol-version", "auto"], { protocolVersion: "auto" }, true],
  ["protocol unknown", ["--protocol-version", "1"], { protocolVersion: "1" }, false],
  ["client all", ["--client", "all"], { clients: ["all"] }, true],
  ["client unknown", ["--client", "claude"], { clients: ["claude"] }, false],
  ["stderr inherit", ["--server-stderr", "inherit"], { stderr: "inherit" }, true],
  ["stderr other", ["--server-stderr", "loud"], { stderr: "loud" }, false],
];

Deno.test("a run of one server: its options and runGuidance's fields, accepted and refused alike", async () => {
  for (const [name, argv, fields, accepted] of SERVER_SETTINGS) {
    const label = argv.includes("--server") ? [] : ["--server", "s"];
    const cliAccepts = await parseGuidanceArgs([...label, ...argv, "--", "srv"], testContext())
      .then(() => true, (error) => {
        assert.ok(error instanceof UserError, String(error));
        return false;
      });
    assert.equal(cliAccepts, accepted, `CLI ${name}`);
    const { stderr, ...rest } = fields;
    const input = {
      server: "s",
      ...rest,
      target: { kind: "stdio", command: "srv", ...(stderr ? { stderr } : {}) },
    } as Parameters<typeof validateRun>[0];
    let libraryAccepts = true;
    try {
      validateRun(input);
    } catch (error) {
      assert.ok(error instanceof RequestError, String(error));
      libraryAccepts = false;
    }
    assert.equal(libraryAccepts, accepted, `library ${name}`);
  }
});
