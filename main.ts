/**
 * The `mcpeval` command line. The library is `jsr:@mcpeval/guidance/lib` (`mod.ts`); it is not
 * re-exported here, so that the CLI starts without loading discovery for --help or --version.
 * This module exports the types a `CliContext` refers to; `run` and `processContext` are
 * exported by the library.
 *
 * ```sh
 * deno run --allow-run=your-mcp-server jsr:@mcpeval/guidance guidance --server example -- your-mcp-server
 * ```
 *
 * @module
 */
// The signal listeners (a module of constants), then types only: nothing else is loaded before
// the command line is read, so that `--version` starts as fast as Deno itself. The CLI's values
// (`run`, `processContext`) are in the library (`mod.ts`).
import { listenForSignals } from "./src/cli/interrupts.ts";
export type { CliContext } from "./src/cli/context.ts";
export type { RunEffects } from "./src/run/effects.ts";
export type { ProtocolSetting, ProtocolVersion } from "./src/protocol/versions.ts";
export type { Launch } from "./src/cli/deno_flags.ts";
export type {
  Closed,
  Incoming,
  Leftover,
  Transport,
  TransportHooks,
} from "./src/transport/transport.ts";
export type { HttpTarget, ServerStderr, StdioTarget, Target } from "./src/target.ts";
export type {
  ConnectionLoss,
  DetailCause,
  Incomplete,
  IncompleteDetail,
  IncompleteReason,
  NetworkFailure,
  SignalName,
} from "./src/protocol/incomplete.ts";
export type {
  JsonRpcError,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResult,
  RequestId,
} from "./src/protocol/messages.ts";

if (import.meta.main) {
  // First: a signal from here on ends mcpeval with its own status (130, 129), never the runtime's.
  listenForSignals();
  const [first, ...rest] = Deno.args;
  // The commands that need nothing but a version or a file: answered without loading the CLI.
  let quick: string | undefined;
  if ((first === "--version" || first === "-V") && rest.length === 0) {
    const { VERSION } = await import("./src/version.ts");
    quick = `mcpeval ${VERSION}\n`;
  } else if (first === "schema" && rest.length === 1) {
    quick = await (await import("./src/cli/schema.ts")).schemaText(rest[0]);
  }
  if (quick !== undefined) {
    const text = new TextEncoder().encode(quick);
    // A short write or a write error takes the full path, which says what happened.
    if (await Deno.stdout.write(text).catch(() => 0) === text.length) Deno.exit(0);
  }
  const { main } = await import("./src/cli/process.ts");
  Deno.exit(await main(Deno.args));
}
