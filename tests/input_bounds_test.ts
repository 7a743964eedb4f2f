/** Files a user passes are bounded: size, and nesting that would exhaust a parser's stack. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { run } from "../src/cli/run.ts";
import { parsePresets } from "../src/clients/presets.ts";
import { mcpeval, ROOT, tempDir } from "./_cli.ts";
import { testContext } from "./_context.ts";

Deno.test("a config file nested thousands deep: exit 2 with one line, not an internal error", async () => {
  await using dir = await tempDir();
  const config = join(dir.path, "deep.json");
  const depth = 5000;
  await Deno.writeTextFile(config, `{"mcpServers":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}`);
  const result = await mcpeval(["guidance", "--config", config], {
    permissions: [`--allow-read=${config}`],
  });
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "mcpeval: The config file is nested too deeply to be a client config\n",
  );
});

Deno.test("client presets with deeply nested capabilities are refused with a fixed phrase", () => {
  const presets = JSON.parse(
    Deno.readTextFileSync(join(ROOT, "fixtures", "clients", "test-clients.json")),
  );
  let deep: Record<string, unknown> = {};
  const top = deep;
  for (let i = 0; i < 20_000; i++) deep = (deep.a = {}) as Record<string, unknown>;
  presets.clients.tiny.capabilities.experimental = top;
  assert.equal(
    parsePresets(presets),
    "field clients.tiny.capabilities is nested deeper than 16 levels",
  );
});

Deno.test("a --client-file larger than the bound: exit 2 before anything starts", async () => {
  const ctx = testContext({ readTextFile: () => Promise.reject(new RangeError("too large")) });
  const code = await run(
    ["guidance", "--server", "s", "--client", "tiny", "--client-file", "big.json", "--", "srv"],
    ctx,
  );
  assert.equal(code, 2);
  assert.equal(
    ctx.err(),
    "mcpeval: --client-file cannot be read (it is larger than 4194304 bytes)\n",
  );
  assert.deepEqual(ctx.opened, []);
});
