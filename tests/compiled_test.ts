/**
 * The compiled binary end to end. `deno compile` needs a `denort` runtime that this test can
 * only use when DENORT_BIN points to one; otherwise the test is skipped, and says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { binaryName } from "../scripts/compile.ts";
import { assertNoneLeft, DENO, fixture, ProcessMarker, ROOT, tempDir } from "./_cli.ts";
import { builtinPresets } from "../src/clients/presets.ts";

const denort = Deno.env.get("DENORT_BIN");
if (!denort) {
  await Deno.stderr.write(
    new TextEncoder().encode(
      "SKIPPED compiled binary test: set DENORT_BIN to a denort runtime to run it (deno compile cannot download one here)\n",
    ),
  );
}

Deno.test({
  name: "compiled binary: --help, schema guidance, and a fixture server, also under every preset",
  ignore: !denort,
  fn: async () => {
    await using temp = await tempDir({ prefix: "mcpeval-compile-" });
    const out = temp.path;
    const target = Deno.build.target;
    const build = await new Deno.Command(DENO, {
      args: ["run", "-A", join(ROOT, "scripts", "compile.ts"), "--target", target, "--out", out],
      cwd: ROOT,
    }).output();
    assert.equal(build.code, 0, new TextDecoder().decode(build.stderr));
    const binary = join(out, binaryName(target));
    const run = async (...args: string[]) => {
      const marker = new ProcessMarker();
      const output = await new Deno.Command(binary, { args, env: { NO_COLOR: "1", ...marker.env } })
        .output();
      assertNoneLeft(await marker.reap(), `${binary} ${args.join(" ")}`);
      return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
    };
    assert.equal((await run("--help")).code, 0);
    const schema = await run("schema", "guidance");
    assert.equal(JSON.parse(schema.stdout).title, "mcpeval.guidance-report/v1");
    const demo = (...options: string[]) =>
      run(
        "guidance",
        "--server",
        "demo",
        "--format",
        "json",
        "--settle-ms",
        "100",
        ...options,
        "--",
        ...fixture("demo/server.ts"),
      );
    const report = await demo();
    assert.equal(report.code, 0);
    assert.equal(JSON.parse(report.stdout).candidates.length, 9);
    // Every preset's rules: ajv and re2js load from the npm snapshot the binary embeds.
    const presets = await demo("--client", "all");
    assert.equal(presets.code, 0);
    const { profiles } = JSON.parse(presets.stdout) as { profiles: { complete: boolean }[] };
    assert.equal(profiles.length, builtinPresets().size);
    assert.ok(profiles.every((profile) => profile.complete));
  },
});
