/**
 * The README is a contract too: its sample is what the demo prints, it stays short, its links
 * resolve, and its first screen's commands (install, then a report) work as written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertNoneLeft,
  DENO,
  ProcessMarker,
  ROOT,
  tempDir,
  withoutPlainProgress,
} from "./_cli.ts";
import { commands, installReadmeLine, README } from "./_readme.ts";

Deno.test("README: the sample output is exactly what `deno task demo` prints", async () => {
  const sample = /<!-- demo-output[^\n]*-->\n\n```text\n([\s\S]*?)```\n/.exec(README);
  assert.ok(sample, "the README has the demo-output block");
  const marker = new ProcessMarker();
  const output = await new Deno.Command(DENO, {
    args: ["task", "--quiet", "demo"],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...marker.env },
    stdin: "null",
  }).output();
  assertNoneLeft(await marker.reap(), "deno task demo");
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.equal(new TextDecoder().decode(output.stdout), sample[1]);
});

Deno.test("README: under 1,200 words, and every link to docs/ resolves", async () => {
  const count = README.split(/\s+/).filter((word) => word !== "").length;
  assert.ok(count < 1200, `${count} words`);
  const links = [...README.matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1]);
  assert.ok(links.length >= 4);
  for (const link of links) await Deno.stat(join(ROOT, link));
  for (const moved of ["| case ", "## Hostile servers and bounds", "### Incomplete reasons"]) {
    assert.ok(!README.includes(moved), `${moved} lives in docs/`);
  }
  const docs = await Promise.all(
    ["performance", "hostile-servers", "reference", "ci"].map((name) =>
      Deno.readTextFile(join(ROOT, "docs", `${name}.md`))
    ),
  );
  assert.match(
    docs[0],
    /\| 1\. stdio, 5 profiles at once \(server-everything, settle 0\) +\| +\d+ ms/,
  );
  assert.match(docs[1], /every bound is a named constant/);
  assert.match(docs[2], /### Incomplete reasons/);
  assert.match(docs[3], /upload-sarif/);
  assert.ok(!docs.some((doc) => doc.includes("OWNER")), "no placeholder owner");
});

Deno.test({
  name: "README first screen: install the mcpeval command from the clone, then a report",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using root = await tempDir();
    const lines = commands();
    const marker = new ProcessMarker();
    const run = await installReadmeLine(root.path, marker);
    const version = await run("mcpeval --version");
    assert.match(version.stdout, /^mcpeval \d+\.\d+\.\d+\n$/);
    const demo = lines.find((line) => line.startsWith("mcpeval guidance --server demo"));
    assert.ok(demo, "the README shows the demo");
    const report = await run(demo);
    assert.equal(report.code, 0, report.stderr);
    assert.equal(withoutPlainProgress(report.stderr), "");
    assert.match(report.stdout, /^mcpeval guidance {2}server demo\n[\s\S]*\nResult: passed/);
    assertNoneLeft(await marker.reap(), "the installed mcpeval");
  },
});

Deno.test("README first screen: within 40 lines, what it is, the install with PATH, the demo, a real server, --config", () => {
  const screen = README.split("\n").slice(0, 40).join("\n");
  assert.match(screen, /^# mcpeval guidance\n\nCheck, in CI, that what an MCP server/);
  const first = [...screen.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join("");
  assert.match(first, /deno install -g [^\n]*\\\n[^\n]*--allow-read=\. main\.ts\n/);
  assert.match(first, /export PATH="\$HOME\/\.deno\/bin:\$PATH"/, "how to put it on PATH");
  assert.match(screen, /`\$DENO_INSTALL_ROOT\/bin`, else `~\/\.deno\/bin`/, "where it goes");
  assert.match(first, /^mcpeval guidance --server demo -- deno run fixtures\/demo\/server\.ts$/m);
  assert.match(
    first,
    /^mcpeval guidance --server everything -- npx -y @modelcontextprotocol\/server-everything@/m,
  );
  assert.match(first, /^mcpeval guidance --config \.mcp\.json/m);
});

Deno.test("README second screen: a Develop section names the test command, the demo task and what the tests need", async () => {
  const lines = README.split("\n");
  const start = lines.indexOf("## Develop");
  assert.ok(start > 0 && start < 60, "a Develop section near the top");
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  const section = lines.slice(start, end).join("\n");
  const { tasks } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  for (const task of ["test", "demo"]) {
    assert.ok(section.includes(`\`deno task ${task}\``), task);
    assert.ok(tasks[task], `deno.json has the ${task} task`);
  }
  for (const need of ["`setsid`", "`.ci/run`", "npm registry"]) assert.ok(section.includes(need));
});

Deno.test({
  name:
    "README install line: --config and --baseline in a project folder; a file outside says how to reinstall",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using root = await tempDir();
    await using project = await tempDir();
    const marker = new ProcessMarker();
    const run = await installReadmeLine(root.path, marker);
    const demo = {
      command: DENO,
      args: ["run", "--quiet", join(ROOT, "fixtures", "demo", "server.ts")],
    };
    await Deno.writeTextFile(
      join(project.path, ".mcp.json"),
      JSON.stringify({ mcpServers: { demo } }),
    );
    const fleet = await run(
      "mcpeval guidance --config .mcp.json --settle-ms 100 --output json=baseline.json",
      project.path,
    );
    assert.equal(fleet.code, 0, fleet.stderr);
    assert.equal(withoutPlainProgress(fleet.stderr), "");
    assert.match(fleet.stdout, /\n {2}demo +stdio +5\/5 /);
    const compared = await run(
      "mcpeval guidance --config .mcp.json --settle-ms 100 --baseline baseline.json --format json",
      project.path,
    );
    assert.equal(compared.code, 0, compared.stderr);
    const report = JSON.parse(compared.stdout).servers[0].report;
    assert.ok(
      report.candidates.every((c: { baseline_state: string }) => c.baseline_state === "unchanged"),
    );
    const single = await run(
      `mcpeval guidance --server demo --settle-ms 100 --baseline baseline.json -- ${demo.command} ${
        demo.args.join(" ")
      }`,
      project.path,
    );
    assert.equal(single.code, 0, single.stderr);

    // A file outside the folder: the one line says how to reinstall, not "put it before the script".
    const outside = join(ROOT, "fixtures", "configs", "demo.mcp.json");
    const denied = await run(`mcpeval guidance --config ${outside}`, project.path);
    assert.equal(denied.code, 2);
    assert.equal(
      denied.stderr,
      `mcpeval: Permission to read the config file is missing: add --allow-read=${outside}; the installed mcpeval command takes Deno flags only from its install line: reinstall it with the flag added (from the clone: deno install -g -f -n mcpeval --config deno.json --location=https://mcpeval.invalid/installed ... --allow-read=.,${outside} main.ts)\n`,
    );
    const misplaced = await run("mcpeval guidance --allow-read --config .mcp.json", project.path);
    assert.equal(misplaced.code, 2);
    assert.equal(
      misplaced.stderr,
      "mcpeval: '--allow-read' is a Deno flag, and mcpeval's arguments cannot carry it; the installed mcpeval command takes Deno flags only from its install line: reinstall it with the flag added (from the clone: deno install -g -f -n mcpeval --config deno.json --location=https://mcpeval.invalid/installed ... --allow-read main.ts)\n",
    );
    assertNoneLeft(await marker.reap(), "the installed mcpeval");
  },
});

Deno.test({
  name:
    "launch detection: the installed command and deno run each get their own fix, in the clone and outside it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using root = await tempDir();
    await using elsewhere = await tempDir();
    await using configs = await tempDir();
    // A config outside either folder, like ~/.cursor/mcp.json.
    const config = join(configs.path, "mcp.json");
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: {} }));
    const marker = new ProcessMarker();
    const installed = await installReadmeLine(root.path, marker);
    const reinstall =
      `; the installed mcpeval command takes Deno flags only from its install line: reinstall it with the flag added (from the clone: deno install -g -f -n mcpeval --config deno.json --location=https://mcpeval.invalid/installed ... --allow-read=.,${config} main.ts)\n`;
    const missing =
      `mcpeval: Permission to read the config file is missing: add --allow-read=${config}`;
    for (const cwd of [ROOT, elsewhere.path]) {
      const run = await installed(`mcpeval guidance --config ${config}`, cwd);
      assert.equal(run.code, 2);
      assert.equal(run.stderr, missing + reinstall, `installed, in ${cwd}`);
      const output = await new Deno.Command(DENO, {
        args: [
          "run",
          "--quiet",
          `--allow-run=${DENO}`,
          join(ROOT, "main.ts"),
          "guidance",
          "--config",
          config,
        ],
        cwd,
        env: { NO_COLOR: "1", ...marker.env },
        stdin: "null",
      }).output();
      assert.equal(output.code, 2);
      assert.equal(new TextDecoder().decode(output.stderr), `${missing}\n`, `deno run, in ${cwd}`);
    }
    assertNoneLeft(await marker.reap(), "the installed mcpeval");
  },
});
