/**
 * The README is a contract too: its sample is what the demo prints, it stays short, its links
 * resolve, and its first screen's commands (install, then a report) work as written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertNoneLeft, DENO, ProcessMarker, ROOT, tempDir } from "./_cli.ts";

const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** The shell commands of the README's code blocks, continuation lines joined. */
function commands(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  return blocks.flatMap((block) =>
    block.replaceAll(/\\\n\s*/g, "").split("\n").map((line) => line.replace(/\s+#.*$/, "").trim())
  ).filter((line) => line !== "" && !line.startsWith("#"));
}

/** Splits a README command into words (none of them is quoted). */
const words = (line: string) => line.split(/\s+/);

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
    const install = lines.find((line) =>
      line.startsWith("deno install -g") && line.endsWith("main.ts")
    );
    assert.ok(install, "the README shows how to install from a clone");
    const [, , ...flags] = words(install);
    const marker = new ProcessMarker();
    const installed = await new Deno.Command(DENO, {
      args: ["install", "-g", "--root", root.path, ...flags],
      cwd: ROOT,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(installed.code, 0, new TextDecoder().decode(installed.stderr));
    // The shim calls `deno` by name, as it would on a person's PATH.
    const env = {
      ...marker.env,
      NO_COLOR: "1",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      PATH: `${join(root.path, "bin")}:${DENO.replace(/\/[^/]+$/, "")}:${Deno.env.get("PATH")}`,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    };
    const run = async (line: string) => {
      const [command, ...args] = words(line);
      assert.equal(command, "mcpeval");
      const output = await new Deno.Command(command, {
        args,
        cwd: ROOT,
        env,
        clearEnv: true,
        stdin: "null",
      })
        .output();
      return {
        code: output.code,
        stdout: new TextDecoder().decode(output.stdout),
        stderr: new TextDecoder().decode(output.stderr),
      };
    };
    const version = await run("mcpeval --version");
    assert.match(version.stdout, /^mcpeval \d+\.\d+\.\d+\n$/);
    const demo = lines.find((line) => line.startsWith("mcpeval guidance --server demo"));
    assert.ok(demo, "the README shows the demo");
    const report = await run(demo);
    assert.equal(report.code, 0, report.stderr);
    assert.equal(report.stderr, "");
    assert.match(report.stdout, /^mcpeval guidance {2}server demo\n[\s\S]*\nResult: passed/);
    assertNoneLeft(await marker.reap(), "the installed mcpeval");
  },
});
