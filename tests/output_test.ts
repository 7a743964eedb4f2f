/** Report files: checked before discovery, and a late write failure keeps the stdout report. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { run } from "../src/cli/run.ts";
import { openTransport } from "../src/transport/open.ts";
import { DENO, fixture, fixtureLog, hostile, mcpeval, tempDir } from "./_cli.ts";
import { testContext } from "./_context.ts";

Deno.test("--output into a missing folder: exit 2 before any server starts", async () => {
  await using dir = await tempDir();
  {
    await using log = await fixtureLog();
    const path = join(dir.path, "missing", "report.json");
    const result = await mcpeval(
      ["guidance", "--server", "s", "--output", `json=${path}`, "--", ...hostile("default")],
      {
        permissions: [`--allow-run=${DENO}`, `--allow-write=${dir.path}`],
        env: { MCPEVAL_FIXTURE_LOG: log.path },
      },
    );
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      `mcpeval: Cannot write the report file "${path}" given to --output (its folder does not exist)\n`,
    );
    assert.deepEqual(log.entries(), [], "no server was started");
  }
});

Deno.test("a report file reserved for a run that cannot start is removed again", async () => {
  await using dir = await tempDir();
  {
    const path = join(dir.path, "report.json");
    const result = await mcpeval(
      ["guidance", "--server", "s", "--output", `json=${path}`, "--", "mcpeval-no-such-command"],
      { permissions: ["--allow-run", `--allow-write=${dir.path}`] },
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /was not found/);
    assert.deepEqual([...Deno.readDirSync(dir.path)], []);
  }
});

Deno.test("a report file that fails after discovery: stdout report, one stderr line, exit 74", async () => {
  const ctx = testContext({
    openTransport: (target, version) => openTransport(target, version),
    writeFile: () => Promise.reject(new Deno.errors.PermissionDenied("secret path detail")),
  });
  const code = await run([
    "guidance",
    "--server",
    "demo",
    "--profile",
    "none",
    "--settle-ms",
    "0",
    "--output",
    "json=report.json",
    "--",
    ...fixture("demo/server.ts"),
  ], ctx);
  assert.equal(code, 74);
  assert.match(ctx.out(), /^mcpeval guidance {2}server demo\n/);
  assert.equal(
    ctx.err(),
    'mcpeval: the report file "report.json" given to --output could not be written (permission denied); the report on stdout was still printed\n',
  );
});

Deno.test("end to end: a report file whose folder goes away during discovery: exit 74, report on stdout", async () => {
  await using dir = await tempDir();
  const folder = join(dir.path, "reports");
  await Deno.mkdir(folder);
  const path = join(folder, "report.json");
  const run = mcpeval(
    [
      "guidance",
      "--server",
      "demo",
      "--profile",
      "none",
      "--settle-ms",
      "3000",
      "--output",
      `json=${path}`,
      "--",
      ...fixture("demo/server.ts"),
    ],
    { permissions: [`--allow-run=${DENO}`, `--allow-write=${dir.path}`] },
  );
  // The file is reserved before discovery; once it exists, take its folder away.
  for (const started = Date.now(); Date.now() - started < 20_000;) {
    if (await Deno.stat(path).then(() => true, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Deno.remove(folder, { recursive: true });
  const result = await run;
  assert.equal(result.code, 74);
  assert.match(result.stdout, /^mcpeval guidance {2}server demo\n/);
  assert.match(result.stdout, /\nResult: passed/);
  assert.equal(
    result.stderr,
    `mcpeval: the report file "${path}" given to --output could not be written (its folder does not exist); the report on stdout was still printed\n`,
  );
});
