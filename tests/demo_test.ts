/** The bundled demo target through the real CLI: the text report a person reads. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixture, guidanceJson, mcpeval, ROOT, withoutPlainProgress } from "./_cli.ts";
import { baseEnv, HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const DEMO = ["--server", "demo", "--settle-ms", "100", "--", ...fixture("demo/server.ts")];

Deno.test("demo: the text report", async () => {
  const result = await mcpeval(["guidance", ...DEMO]);
  assert.equal(result.code, 0);
  assert.equal(withoutPlainProgress(result.stderr), "");
  assert.equal(
    result.stdout,
    `mcpeval guidance  server demo
transport stdio, protocol 2025-06-18, settle window 100 ms, timeout 30000 ms

Profiles
  profile      tools  instructions  discovery
  none         2      yes           complete
  roots        3      yes           complete
  sampling     3      yes           complete
  elicitation  3      yes           complete
  all          5      yes           complete

Tools that depend on client capabilities
  delete-note           listed in elicitation, all
  list-workspace-files  listed in roots, all
  summarize-notes       listed in sampling, all

Review candidates: 9, for 3 tools named in instructions of profiles that do not list them
  delete-note           named by none, roots, sampling; listed in elicitation, all
  list-workspace-files  named by none, sampling, elicitation; listed in roots, all
  summarize-notes       named by none, roots, elicitation; listed in sampling, all
  hint: Each profile named above has instructions that name a tool its catalog does not list; check
        the reference and explain any capability requirement in the instructions.

Result: passed: no required tools declared; 9 review candidates (never fail the gate)
`,
  );
});

Deno.test("demo: defects in text, exit 1", async () => {
  const result = await mcpeval([
    "guidance",
    "--profile",
    "none",
    "--profile",
    "all",
    "--profile",
    "none",
    "--require-tool",
    "delete-note",
    "--require-tool",
    "ghost",
    ...DEMO,
  ]);
  assert.equal(result.code, 1);
  assert.match(
    result.stdout,
    /\nDefects: 3, for 2 required tools missing\n {2}delete-note {2}missing from none; listed in all\n {2}ghost {8}missing from none, all; listed in no selected profile\n/,
  );
  assert.match(result.stdout, /\nResult: failed: 3 required-tool defects; 3 review candidates/);
});

Deno.test("demo: JSON report fields", async () => {
  const { code, report } = await guidanceJson(["--profile", "roots", ...DEMO]);
  assert.equal(code, 0);
  assert.deepEqual(report.settings, {
    settle_ms: 100,
    timeout_ms: 30000,
    max_pages: 20,
    max_tools: 10000,
    max_roots_requests_per_client_request: 8,
    max_message_bytes: 67108864,
  });
  assert.deepEqual(report.profiles, [{
    profile: "roots",
    complete: true,
    instructions_present: true,
    tool_count: 3,
    tools: ["list-workspace-files", "read-note", "search-notes"],
    pages: 1,
    incomplete: null,
  }]);
});

Deno.test({
  name: "colour on a terminal (with narrow permissions), none with NO_COLOR",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    const ESC = String.fromCharCode(0x1b);
    const args = ["guidance", "--quiet", ...DEMO];
    assert.ok((await onTerminal(args)).screen.includes(`${ESC}[32mResult: passed`));
    assert.ok(
      !(await onTerminal(args, { env: { ...baseEnv(), NO_COLOR: "1" } })).screen.includes(ESC),
    );
  },
});

Deno.test("every count says what it counts: section headers and the result line agree", async () => {
  const result = await mcpeval([
    "guidance",
    "--require-tool",
    "delete-note",
    "--require-tool",
    "ghost",
    "--client",
    "claude-code",
    "--profile",
    "none",
    "--profile",
    "all",
    ...DEMO,
  ]);
  assert.equal(result.code, 1);
  const count = (pattern: RegExp) => Number(result.stdout.match(pattern)?.[1]);
  const candidates = count(/\nReview candidates: (\d+), for \d+ tools? named/);
  const defects = count(/\nDefects: (\d+), for \d+ required tools? missing/);
  assert.ok(candidates > 0 && defects > 0, result.stdout);
  assert.match(
    result.stdout,
    new RegExp(
      `\\nResult: failed: ${defects} required-tool defects; ${candidates} review candidates? \\(`,
    ),
  );
  // A grouped list's hint speaks of each profile it names, not of "this profile".
  for (const hint of result.stdout.split("\n").filter((line) => line.startsWith("  hint: "))) {
    assert.ok(!hint.includes("this profile"), hint);
  }
});

Deno.test("demo: its own deno.json and lockfile are the project's pin and entries for the SDK alone", async () => {
  // Its first start from an empty cache installs only these (the README's first command), and a
  // cache the project's lockfile filled already holds every one of them.
  const read = async (path: string) => JSON.parse(await Deno.readTextFile(join(ROOT, path)));
  const [project, demo] = await Promise.all([read("deno.json"), read("fixtures/demo/deno.json")]);
  assert.deepEqual(Object.keys(demo), ["imports"]);
  for (const [name, target] of Object.entries(demo.imports)) {
    assert.equal(target, project.imports[name], name);
  }
  const [projectLock, demoLock] = await Promise.all([
    read("deno.lock"),
    read("fixtures/demo/deno.lock"),
  ]);
  assert.equal(demoLock.version, projectLock.version);
  for (const [specifier, resolved] of Object.entries(demoLock.specifiers)) {
    assert.equal(resolved, projectLock.specifiers[specifier], specifier);
  }
  const packages = Object.entries(demoLock.npm);
  assert.ok(packages.length < Object.keys(projectLock.npm).length);
  for (const [key, entry] of packages) assert.deepEqual(entry, projectLock.npm[key], key);
});
