/**
 * How an observed client reaches the proxies (`--observe`): its config names, for each server,
 * only the relay, a small script written into the run's temporary folder that joins its
 * standard input and output to the proxies' listener on 127.0.0.1, introduced by the token of
 * its server (read from a file of the temporary folder, so that neither the token nor anything
 * of the server is in the client's config). The listener ({@linkcode ProxyHost}) hands each
 * connection to the proxy its token names, and refuses any other.
 *
 * @module
 */
import { join } from "node:path";
import type { ServerSpec } from "./driver.ts";
import type { DiscoveryProxy } from "./proxy.ts";
import { MAX_MESSAGE_BYTES, MAX_MESSAGE_CONTAINERS, PROXY_HELLO_MS } from "../limits.ts";
import { before, DEADLINE } from "../time.ts";
import { lineReader } from "../transport/lines.ts";

/**
 * The relay (plain JavaScript, no imports): `deno run RELAY PORT TOKEN_FILE`. It ends when
 * either side does.
 */
const RELAY_SOURCE =
  `// mcpeval --observe: this server's standard input and output, to mcpeval's proxy.
const [port, tokenFile] = Deno.args;
const token = Deno.readTextFileSync(tokenFile).trim();
const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
const hello = conn.writable.getWriter();
await hello.write(new TextEncoder().encode(token + "\\n"));
hello.releaseLock();
await Promise.race([
  Deno.stdin.readable.pipeTo(conn.writable).catch(() => {}),
  conn.readable.pipeTo(Deno.stdout.writable).catch(() => {}),
]);
Deno.exit(0);
`;

const encoder = new TextEncoder();

/** The proxies of one observed run behind one loopback listener. */
export class ProxyHost {
  readonly #listener: Deno.TcpListener;
  readonly #dir: string;
  readonly #relay: string;
  readonly #proxies = new Map<string, DiscoveryProxy>();
  readonly #connections = new Set<Deno.Conn>();
  readonly #serving = new Set<Promise<void>>();
  readonly #accepting: Promise<void>;
  #count = 0;

  private constructor(dir: string) {
    this.#dir = dir;
    this.#relay = join(dir, "relay.js");
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#accepting = this.#accept();
  }

  /** Starts the listener; `dir` (in the run's temporary folder) holds the relay and the tokens. */
  static async start(dir: string): Promise<ProxyHost> {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(join(dir, "relay.js"), RELAY_SOURCE, { mode: 0o600 });
    return new ProxyHost(dir);
  }

  /** Adds `proxy` for the server labelled `label`: the command the client's config names. */
  async add(label: string, proxy: DiscoveryProxy): Promise<ServerSpec> {
    const token = crypto.randomUUID().replaceAll("-", "") + crypto.randomUUID().replaceAll("-", "");
    const file = join(this.#dir, `${this.#count++}.token`);
    await Deno.writeTextFile(file, `${token}\n`, { mode: 0o600 });
    this.#proxies.set(token, proxy);
    const { port } = this.#listener.addr as Deno.NetAddr;
    return {
      label,
      command: Deno.execPath(),
      args: [
        "run",
        "--quiet",
        "--no-config",
        "--no-prompt",
        `--allow-read=${file}`,
        `--allow-net=127.0.0.1:${port}`,
        this.#relay,
        String(port),
        file,
      ],
      env: {},
    };
  }

  /** Closes the listener and every connection (the client has ended), and waits for them. */
  async close(): Promise<void> {
    try {
      this.#listener.close();
    } catch { /* closed */ }
    for (const conn of this.#connections) {
      try {
        conn.close();
      } catch { /* closed */ }
    }
    await this.#accepting;
    await Promise.all(this.#serving);
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        const serving = this.#serve(conn).finally(() => {
          this.#connections.delete(conn);
          this.#serving.delete(serving);
          try {
            conn.close();
          } catch { /* closed */ }
        });
        this.#connections.add(conn);
        this.#serving.add(serving);
      }
    } catch { /* the listener was closed */ }
  }

  /** One relay's connection: its token, then its server's messages, a line each. */
  async #serve(conn: Deno.Conn): Promise<void> {
    const decoder = new TextDecoder();
    const lines = conn.readable.pipeThrough(
      lineReader(MAX_MESSAGE_BYTES, MAX_MESSAGE_CONTAINERS, (line) => decoder.decode(line)),
    );
    const reader = lines.getReader();
    const hello = await before(Date.now() + PROXY_HELLO_MS, reader.read().catch(() => undefined));
    const proxy = hello === DEADLINE || hello === undefined || hello.done
      ? undefined
      : this.#proxies.get(hello.value);
    if (proxy === undefined) {
      await reader.cancel().catch(() => {});
      return;
    }
    const writer = conn.writable.getWriter();
    const send = (message: unknown) =>
      void writer.write(encoder.encode(JSON.stringify(message) + "\n")).catch(() => {});
    const messages = async function* () {
      while (true) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    };
    await proxy.serve(messages(), send);
    await reader.cancel().catch(() => {});
    await writer.close().catch(() => {});
  }
}
