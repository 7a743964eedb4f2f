/**
 * The floor for the benchmark: the same server processes as a guidance run, started at once and
 * fed the same messages, without mcpeval. Per profile: initialize (with that profile's client
 * capabilities), notifications/initialized, tools/list, then stdin is closed; a request from the
 * server after that gets SIGTERM at once, as mcpeval does. Ends when every process has exited.
 *
 *   deno run --allow-run scripts/raw_clients.ts [--profiles none,roots,...] -- COMMAND [ARG...]
 *   deno run --allow-run --allow-read scripts/raw_clients.ts [--profiles ...] [--jobs N] --config FILE
 *
 * With `--config FILE` (plain JSON with `mcpServers` of `{command, args?, env?}`, no variables),
 * every server of the file is fed every profile, all processes started at once: the floor of a
 * `--config` run with `--jobs` at least servers x profiles.
 */
import { parseArgs } from "node:util";

const terminator = Deno.args.indexOf("--");
const { values } = parseArgs({
  args: terminator === -1 ? Deno.args : Deno.args.slice(0, terminator),
  options: {
    profiles: { type: "string", default: "none,roots,sampling,elicitation,all" },
    config: { type: "string" },
    // At most this many processes at once (default: all), like `--jobs`.
    jobs: { type: "string" },
  },
  strict: true,
});

interface Server {
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
}

const servers: Server[] = values.config
  ? Object.values(
    (JSON.parse(await Deno.readTextFile(values.config)) as { mcpServers: Record<string, Server> })
      .mcpServers,
  ).map(({ command, args, env }) => ({ command, args: args ?? [], env }))
  : [{ command: Deno.args[terminator + 1], args: Deno.args.slice(terminator + 2) }];

const CAPABILITIES: Record<string, Record<string, object>> = {
  none: {},
  roots: { roots: {} },
  sampling: { sampling: {} },
  elicitation: { elicitation: {} },
  all: { roots: {}, sampling: {}, elicitation: {} },
};

async function feed({ command, args, env }: Server, profile: string): Promise<void> {
  const child = new Deno.Command(command, {
    args,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (message: object) =>
    writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let closed = false;
  const next = async (): Promise<Record<string, unknown> | undefined> => {
    while (!buffer.includes("\n")) {
      const { done, value } = await lines.read();
      if (done) return undefined;
      buffer += value;
    }
    const newline = buffer.indexOf("\n");
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    return JSON.parse(line);
  };
  const answerOf = async (id: number): Promise<unknown> => {
    for (let message = await next(); message; message = await next()) {
      if (message.id === id && !("method" in message)) {
        return (message.result as { nextCursor?: unknown } | undefined)?.nextCursor;
      }
    }
  };
  await send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: CAPABILITIES[profile],
      clientInfo: { name: "raw", version: "0" },
    },
  });
  await answerOf(0);
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  // Every page, as a client follows nextCursor.
  for (let id = 1, cursor: unknown; id === 1 || cursor !== undefined; id++) {
    await send({
      jsonrpc: "2.0",
      id,
      method: "tools/list",
      params: cursor === undefined ? {} : { cursor },
    });
    cursor = await answerOf(id);
  }
  await writer.close();
  closed = true;
  // After stdin closed, a server request can never be answered: end the server at once.
  (async () => {
    for (let message = await next(); message; message = await next()) {
      if (closed && "method" in message && "id" in message) {
        child.kill("SIGTERM");
        return;
      }
    }
  })().catch(() => {});
  await child.status;
}

const profiles = values.profiles.split(",");
const work = servers.flatMap((server) => profiles.map((profile) => () => feed(server, profile)));
const jobs = values.jobs === undefined ? work.length : Number(values.jobs);
const worker = async () => {
  for (let next = work.shift(); next; next = work.shift()) await next();
};
await Promise.all(Array.from({ length: Math.min(jobs, work.length) }, worker));
