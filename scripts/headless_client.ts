/**
 * One real client's headless run alone, with a server in its config directly (no mcpeval, no
 * proxy): the floor of `--observe` in `deno task bench` (scripts/bench_observe.ts). The client
 * is the lab's, installed in the lab's cache (it must be there already: run `--observe` once),
 * in a temporary HOME, against the model stand-in, in a run scope of its own; exits 0 once the
 * client has, 1 when it sent its model no request.
 *
 *   deno run -A scripts/headless_client.ts CLIENT VERSION -- COMMAND [ARG...]
 *
 * @module
 */
import { join } from "node:path";
import { DRIVERS } from "../src/lab/clients/mod.ts";
import { commonEnv, installDir } from "../src/lab/run.ts";
import { startScope } from "../src/lab/scope.ts";
import { startStandIn } from "../src/lab/stand_in.ts";

const [client, version, separator, command, ...args] = Deno.args;
const driver = DRIVERS.find((candidate) => candidate.id === client);
if (!driver || separator !== "--" || command === undefined) {
  // deno-lint-ignore no-console
  console.error("usage: headless_client.ts CLIENT VERSION -- COMMAND [ARG...]");
  Deno.exit(2);
}
const prefix = installDir(driver.package, version);
// The server runs in the client's environment: it is given the Deno cache it was warmed in.
const denoDir: string = Deno.env.get("DENO_DIR") ?? JSON.parse(
  new TextDecoder().decode(
    (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
      .output()).stdout,
  ),
).denoDir;
const temp = await Deno.makeTempDir({ prefix: "mcpeval-headless-" });
const standIn = startStandIn();
let code = 1;
try {
  const home = join(temp, "home");
  const work = join(temp, "work");
  for (const dir of [home, work, join(home, "tmp")]) await Deno.mkdir(dir, { recursive: true });
  const invocation = await driver.prepare({
    home,
    work,
    model: standIn.url,
    servers: [{ label: "deno", command, args, env: { DENO_DIR: denoDir } }],
    packageDir: join(prefix, "node_modules", driver.package),
    version,
  });
  const scope = await startScope(join(prefix, invocation.bin), invocation.args, {
    env: { ...commonEnv(home, Deno.env.toObject()), ...invocation.env },
    cwd: work,
  });
  await Promise.all([
    scope.child.stdout.pipeTo(new WritableStream()),
    scope.child.stderr.pipeTo(new WritableStream()),
    scope.child.status,
  ]);
  await scope.end();
  code = standIn.requests.length > 0 ? 0 : 1;
} finally {
  await standIn.close();
  await Deno.remove(temp, { recursive: true });
}
Deno.exit(code);
