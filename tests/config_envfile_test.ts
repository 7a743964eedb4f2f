/** An env file path written with a variable holds its value: the permission line never shows it. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, mcpeval, tempDir } from "./_cli.ts";

Deno.test("an env file path built from a variable is not shown in the permission line", async () => {
  await using dir = await tempDir();
  const config = join(dir.path, "mcp.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: { a: { command: DENO, args: ["run", "x.ts"], envFile: "/tmp/${MY_TOKEN}.env" } },
    }),
  );
  const secret = "s3cr3t-token-value";
  const result = await mcpeval(["guidance", "--config", config], {
    permissions: [`--allow-read=${config}`, "--allow-env=MY_TOKEN", `--allow-run=${DENO}`],
    env: { MY_TOKEN: secret },
  });
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "mcpeval: Permission to read an env file is missing: add --allow-read (for a value that cannot be shown)\n",
  );
  assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret));
});

Deno.test("an entry with an env file asks for the file and its command in one line", async () => {
  await using dir = await tempDir();
  const config = join(dir.path, "mcp.json");
  const envFile = join(dir.path, "server.env");
  await Deno.writeTextFile(envFile, "A=1\n");
  await Deno.writeTextFile(
    config,
    JSON.stringify({ mcpServers: { a: { command: DENO, args: ["run", "x.ts"], envFile } } }),
  );
  const result = await mcpeval(["guidance", "--config", config], {
    permissions: [`--allow-read=${config}`],
  });
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    `mcpeval: Permission to read an env file and run the server command is missing: add --allow-read=${envFile} --allow-run=${DENO}\n`,
  );
});
