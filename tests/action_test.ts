/**
 * The composite GitHub Action (action.yml): it validates with an action validator from npm, and
 * its shell step runs as GitHub runs it (bash -e, GITHUB_ACTION_PATH, GITHUB_STEP_SUMMARY,
 * GITHUB_OUTPUT, RUNNER_TEMP, the inputs expanded into its env) against the demo server: one
 * server, shards of a config, and their merge.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { actionValidator } from "./_action.ts";
import {
  assertValidFleet,
  assertValidReport,
  configFile,
  DENO,
  entry,
  fixture,
  ROOT,
} from "./_cli.ts";

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}

interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION = parse(await Deno.readTextFile(join(ROOT, "action.yml"))) as Action;

Deno.test("action.yml: composite, Deno set up at the tested version, every input reaches the step", async () => {
  assert.equal(ACTION.runs.using, "composite");
  const [setup, step] = ACTION.runs.steps;
  assert.match(setup.uses!, /^denoland\/setup-deno@v\d+(\.\d+){0,2}$/);
  const ci = await Deno.readTextFile(join(ROOT, ".ci", "run"));
  const tested = /^DENO_VERSION=(\S+)$/m.exec(ci)![1];
  assert.equal(setup.with!["deno-version"], `v${tested}`);
  assert.equal(step.shell, "bash");
  assert.ok(!step.run!.includes("${{"), "no expression inside the script: inputs come through env");
  assert.ok(
    step.run!.includes("$GITHUB_ACTION_PATH/main.ts"),
    "mcpeval from the action's checkout",
  );
  assert.ok(!step.run!.includes("jsr:"), "no JSR needed");
  for (const name of Object.keys(ACTION.inputs)) {
    const variable = `INPUT_${name.toUpperCase().replaceAll("-", "_")}`;
    assert.equal(step.env![variable], `\${{ inputs.${name} }}`, name);
    assert.ok(step.run!.includes(`$${variable}`) || step.run!.includes(`\${${variable}`), name);
  }
  assert.equal(Object.keys(step.env!).length, Object.keys(ACTION.inputs).length);
  for (const [name, output] of Object.entries(ACTION.outputs)) {
    assert.equal(output.value, `\${{ steps.${step.id}.outputs.${name} }}`);
  }
});

Deno.test("action.yml: @action-validator/cli accepts it, and refuses a broken copy", async () => {
  const valid = await actionValidator(join(ROOT, "action.yml"));
  assert.equal(valid.code, 0, valid.stderr);
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    const broken = join(dir, "action.yml");
    const text = await Deno.readTextFile(join(ROOT, "action.yml"));
    await Deno.writeTextFile(broken, text.replace("      shell: bash\n", ""));
    const invalid = await actionValidator(broken);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /"path": "\/runs\/steps\/1\/shell"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The `${{ ... }}` expressions of the step's env, as GitHub expands them for `inputs`. */
function expand(value: string, inputs: Record<string, string>): string {
  return value.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, name: string) => {
    assert.ok(name in ACTION.inputs, `unknown input ${name}`);
    return inputs[name] ?? ACTION.inputs[name].default ?? "";
  });
}

/** What one run of the action's step left. */
interface StepRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Map<string, string>;
  /** Its RUNNER_TEMP. */
  temp: string;
}

/**
 * The outputs file, every value in GitHub's delimiter form (`NAME<<DELIMITER`, the value's line,
 * `DELIMITER`, each delimiter used once); anything else fails the test.
 */
function readOutputs(text: string): Map<string, string> {
  const outputs = new Map<string, string>();
  const delimiters = new Set<string>();
  const lines = text.split("\n");
  assert.equal(lines.pop(), "", "the outputs file ends with a line break");
  for (let at = 0; at < lines.length; at += 3) {
    const head = /^([a-z-]+)<<(mcpeval_[0-9a-f]{32})$/.exec(lines[at]);
    assert.ok(head, `line ${at + 1} of the outputs file opens a delimited value`);
    const [, name, delimiter] = head;
    assert.ok(!delimiters.has(delimiter), "a fresh delimiter for each value");
    delimiters.add(delimiter);
    assert.equal(lines[at + 2], delimiter, `the value of ${name} is one line`);
    assert.ok(!outputs.has(name), `${name} is written once`);
    outputs.set(name, lines[at + 1]);
  }
  return outputs;
}

/** Runs the action's shell step as GitHub does, in a fresh RUNNER_TEMP under `dir`. */
async function runStep(
  dir: string,
  inputs: Record<string, string>,
  options: { readonly path?: string } = {},
): Promise<StepRun> {
  const step = ACTION.runs.steps.find((candidate) => candidate.run !== undefined)!;
  const temp = await Deno.makeTempDir({ dir, prefix: "runner-" });
  const script = join(temp, "step.sh");
  const summary = join(temp, "summary.md");
  const output = join(temp, "output");
  await Deno.writeTextFile(script, step.run!);
  await Deno.writeTextFile(summary, "");
  await Deno.writeTextFile(output, "");
  const env = Object.fromEntries(
    Object.entries(step.env!).map(([name, value]) => [name, expand(value, inputs)]),
  );
  const result = await new Deno.Command("bash", {
    // GitHub's command for `shell: bash`.
    args: ["--noprofile", "--norc", "-eo", "pipefail", script],
    cwd: ROOT,
    env: {
      ...env,
      NO_COLOR: "1",
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: ROOT,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: temp,
      // setup-deno's work: the tested Deno on the PATH.
      PATH: `${options.path === undefined ? "" : `${options.path}:`}${join(DENO, "..")}:${
        Deno.env.get("PATH")
      }`,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const outputs = readOutputs(await Deno.readTextFile(output));
  return {
    code: result.code,
    stdout: new TextDecoder().decode(result.stdout),
    stderr: new TextDecoder().decode(result.stderr),
    summary: await Deno.readTextFile(summary),
    outputs,
    temp,
  };
}

Deno.test("action: one server by command: annotations, step summary, SARIF, JUnit and JSON, exit code passed through", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    const run = await runStep(dir, {
      command: "deno run --quiet fixtures/demo/server.ts",
      server: "demo",
      profiles: "none roots",
      "required-tools": "list-workspace-files",
      "settle-ms": "100",
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.outputs.get("exit-code"), "1");
    assert.match(run.stdout, /^::error /m);
    assert.match(run.stdout, /^::notice /m);
    assert.match(run.summary, /demo/);
    assert.match(run.summary, /list-workspace-files/);
    const sarif = JSON.parse(await Deno.readTextFile(run.outputs.get("sarif")!));
    assert.equal(sarif.version, "2.1.0");
    assert.ok(sarif.runs[0].results.length > 0);
    assert.match(await Deno.readTextFile(run.outputs.get("junit")!), /<testsuite /);
    const report = JSON.parse(await Deno.readTextFile(run.outputs.get("json")!));
    await assertValidReport(report);
    assert.equal(report.passed, false);
    for (const name of ["sarif", "junit", "json"]) {
      assert.ok(run.outputs.get(name)!.startsWith(dir), "default paths are under RUNNER_TEMP");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("action: shards of a config as matrix jobs, then their merge", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  const servers: Record<string, unknown> = {};
  for (const name of ["alpha", "beta", "gamma", "delta"]) {
    servers[name] = entry(fixture("demo/server.ts"));
  }
  await using config = await configFile({ mcpServers: servers });
  try {
    const shards = [];
    for (const shard of ["1/2", "2/2"]) {
      await Deno.mkdir(join(dir, `shard-${shard[0]}`));
      const run = await runStep(dir, {
        config: config.path,
        shard,
        profiles: "none",
        "settle-ms": "0",
        json: join(dir, `shard-${shard[0]}`, "mcpeval.json"),
        "deno-permissions": `--allow-run=${DENO}`,
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const fleet = JSON.parse(await Deno.readTextFile(run.outputs.get("json")!));
      await assertValidFleet(fleet);
      assert.equal(fleet.shard.count, 2);
      shards.push(fleet);
    }
    assert.deepEqual(
      shards.flatMap((fleet) => fleet.servers.map((s: { name: string }) => s.name)).sort(),
      ["alpha", "beta", "delta", "gamma"],
    );
    const merged = await runStep(dir, { merge: `${dir}/shard-*/mcpeval.json` });
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.equal(merged.outputs.get("exit-code"), "0");
    const fleet = JSON.parse(await Deno.readTextFile(merged.outputs.get("json")!));
    await assertValidFleet(fleet);
    assert.equal(fleet.servers.length, 4);
    assert.equal(fleet.complete, true);
    assert.equal(fleet.shard, undefined);
    for (const name of ["alpha", "beta", "gamma", "delta"]) {
      assert.ok(merged.summary.includes(name));
    }
    assert.match(await Deno.readTextFile(merged.outputs.get("junit")!), /<testsuites/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("action: inputs that do not make one run exit 2 with an error annotation", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    const both = await runStep(dir, { config: "a.json", command: "node server.js" });
    assert.equal(both.code, 2);
    assert.equal(both.outputs.get("exit-code"), "2");
    assert.match(both.stdout, /^::error title=mcpeval::give exactly one of the inputs/m);
    const unlabeled = await runStep(dir, { command: "node server.js" });
    assert.equal(unlabeled.code, 2);
    // mcpeval's own invocation errors pass through too.
    const badShard = await runStep(dir, { config: "missing.json", shard: "3/2" });
    assert.equal(badShard.code, 2);
    assert.match(badShard.stderr, /--shard must be I\/N/);
    // mcpeval's exit 2 leaves an annotation with its line, a step summary, and outputs that name
    // no report, since none was written.
    assert.match(badShard.stdout, /^::error title=mcpeval::--shard must be I\/N/m);
    assert.match(badShard.summary, /invalid invocation/);
    assert.match(badShard.summary, /--shard must be I\/N/);
    assert.deepEqual([...badShard.outputs], [["exit-code", "2"]]);
    for (const run of [both, unlabeled]) {
      assert.match(run.summary, /invalid invocation/);
      assert.deepEqual([...run.outputs], [["exit-code", "2"]]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("action: a missing Deno permission (exit 2) names the deno-permissions input and the flags for it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    // The action grants read for the config; its servers need their own run permission.
    const run = await runStep(dir, { config: "fixtures/configs/demo.mcp.json" });
    assert.equal(run.code, 2, run.stderr);
    const annotations = run.stdout.split("\n").filter((line) => line.startsWith("::error"));
    assert.equal(annotations.length, 1, run.stdout);
    assert.match(
      annotations[0],
      /^::error title=mcpeval::Permission to run the server command is missing: add --allow-run=deno; with this action, add it to the deno-permissions input \(deno-permissions: --allow-run=deno\)$/,
    );
    assert.match(run.summary, /deno-permissions: --allow-run=deno/);
    assert.deepEqual([...run.outputs], [["exit-code", "2"]]);
    // mcpeval's own --allow-remote-http is an option, not a Deno flag: no input named for it.
    const remote = await runStep(dir, { url: "https://x.example/mcp", server: "remote" });
    assert.equal(remote.code, 2, remote.stderr);
    assert.match(remote.stdout, /^::error title=mcpeval::--url to a host that is not loopback/m);
    assert.ok(!remote.stdout.includes("deno-permissions"), remote.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("action: the observe input reaches --observe with its own permissions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    // A client the lab cannot run: refused after --observe's permissions were found granted.
    const run = await runStep(dir, {
      command: "deno run --quiet fixtures/demo/server.ts",
      server: "demo",
      observe: "vscode",
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stdout,
      /^::error title=mcpeval::--observe cannot run vscode: an editor, not on the npm registry$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A `deno` that records its arguments (NUL-separated) in RUNNER_TEMP and exits 0. */
async function recordingDeno(dir: string): Promise<string> {
  const bin = await Deno.makeTempDir({ dir, prefix: "bin-" });
  await Deno.writeTextFile(
    join(bin, "deno"),
    '#!/usr/bin/env bash\nprintf \'%s\\0\' "$@" > "$RUNNER_TEMP/deno-args"\n',
    { mode: 0o755 },
  );
  return bin;
}

/** The arguments the step gave `deno`, or undefined when it never ran it. */
async function denoArgs(run: StepRun): Promise<string[] | undefined> {
  try {
    return (await Deno.readTextFile(join(run.temp, "deno-args"))).split("\0").slice(0, -1);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

Deno.test("action: hostile inputs are refused before the permissions are built (exit 2, one annotation), outputs stay delimited", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    const path = await recordingDeno(dir);
    const demo = { command: "node server.js", server: "demo" };
    const payloads: [Record<string, string>, RegExp][] = [
      [{ ...demo, json: "x\nexit-code=0\njson=/etc/passwd" }, /input json holds a line break/],
      [{ ...demo, sarif: "x\rexit-code=0" }, /input sarif holds a line break/],
      [{ ...demo, junit: "a\u001b]52;c;eA==\u0007b" }, /input junit holds a line break/],
      [{ ...demo, "sarif-location": "src/a.ts\njson=/etc/passwd" }, /sarif-location holds/],
      [{ config: "x,/,/etc" }, /input config holds a comma/],
      [{ ...demo, baseline: "b.json,/" }, /input baseline holds a comma/],
      [{ ...demo, text: "report.txt,/etc" }, /input text holds a comma/],
      [{ ...demo, json: "/tmp/a.json,/" }, /input json holds a comma/],
      [{ command: "node,/bin/sh server.js", server: "demo" }, /input command holds a comma/],
      [{ url: "http://127.0.0.1,example.com/mcp", server: "demo" }, /input url is http/],
      [{ url: "http://user:secret@example.com/mcp", server: "demo" }, /input url is http/],
      [{ url: "http://exa mple.com/mcp", server: "demo" }, /input url is http/],
      [{ url: "http://[::1/mcp", server: "demo" }, /input url is http/],
      [{ url: "file:///etc/passwd", server: "demo" }, /input url is http/],
      // Blank means not given: no command under `set -u`, no "--allow-run=".
      [{ command: "   ", server: "demo" }, /give exactly one of the inputs/],
      [{ ...demo, "deno-permissions": "--allow-run=node main.ts" }, /deno-permissions takes only/],
      [{ ...demo, "require-baseline-tools": "yes" }, /require-baseline-tools is true or false/],
    ];
    // A file that a merge glob matches becomes a read permission too.
    await Deno.writeTextFile(join(dir, "x,y.json"), "{}");
    payloads.push([{ merge: `${dir}/x*.json` }, /input merge holds a comma/]);
    for (const [inputs, message] of payloads) {
      const run = await runStep(dir, inputs, { path });
      const what = JSON.stringify(inputs);
      assert.equal(run.code, 2, what);
      assert.equal(await denoArgs(run), undefined, `${what}: deno never ran`);
      assert.deepEqual([...run.outputs], [["exit-code", "2"]], what);
      const annotations = run.stdout.split("\n").filter(Boolean);
      assert.equal(annotations.length, 1, what);
      assert.match(annotations[0], /^::error title=mcpeval::/, what);
      assert.match(annotations[0], message, what);
      assert.match(run.summary, /invalid invocation/, what);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("action: the permission line grants exactly what the inputs name; blank inputs are not given", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    const path = await recordingDeno(dir);
    const run = await runStep(dir, {
      command: "  node   dist/server.js ",
      server: "demo",
      profiles: "  ",
      baseline: "base.json",
      text: "\n",
      "server-stderr": "inherit",
      "sarif-location": "src/server.ts:4",
    }, { path });
    assert.equal(run.code, 0, run.stderr);
    const args = (await denoArgs(run))!;
    const main = args.indexOf(join(ROOT, "main.ts"));
    const perms = args.slice(0, main).filter((arg) => arg.startsWith("--allow-"));
    const out = join(run.temp, "mcpeval");
    assert.deepEqual(perms, [
      "--allow-run=node",
      "--allow-read=base.json",
      "--allow-env=GITHUB_STEP_SUMMARY",
      `--allow-write=${out}/mcpeval.json,${out}/mcpeval.sarif,${out}/mcpeval.junit.xml,${
        join(run.temp, "summary.md")
      }`,
    ]);
    const rest = args.slice(main + 1);
    assert.deepEqual(rest.slice(rest.indexOf("--")), ["--", "node", "dist/server.js"]);
    assert.ok(!rest.includes("--profile"), "a blank profiles input is not given");
    assert.ok(!rest.some((arg) => arg.startsWith("text=")), "a blank text input is not given");
    const stderrAt = rest.indexOf("--server-stderr");
    assert.equal(rest[stderrAt + 1], "inherit");
    // The reports were not written (this deno wrote none): the outputs name none of them.
    assert.deepEqual([...run.outputs], [["exit-code", "0"]]);

    const http = await runStep(dir, { url: "https://[::1]:8443/mcp?x=1", server: "demo" }, {
      path,
    });
    assert.equal(http.code, 0, http.stderr);
    assert.ok((await denoArgs(http))!.includes("--allow-net=[::1]:8443"));
    const named = await runStep(dir, { url: "http://Example.COM/mcp", server: "demo" }, { path });
    assert.ok((await denoArgs(named))!.includes("--allow-net=Example.COM"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("action: server-stderr reaches mcpeval, which validates it (exit 2, annotation, summary)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-action-" });
  try {
    const run = await runStep(dir, {
      command: "deno run --quiet fixtures/demo/server.ts",
      server: "demo",
      "server-stderr": "loud",
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stdout, /^::error title=mcpeval::--server-stderr /m);
    assert.match(run.summary, /--server-stderr/);
    assert.deepEqual([...run.outputs], [["exit-code", "2"]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
