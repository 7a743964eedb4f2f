/**
 * The `mcpeval` command line. The library is `jsr:@mcpeval/guidance/lib` (`mod.ts`); it is not
 * re-exported here, so that the CLI starts without loading discovery for --help or --version.
 * This module exports nothing: the command line's own modules are not an API.
 *
 * ```sh
 * deno run --allow-run=your-mcp-server jsr:@mcpeval/guidance guidance --server example -- your-mcp-server
 * ```
 *
 * @module
 */
// The signal listeners (a module of constants) and nothing else before the command line is
// read, so that `--version` starts as fast as Deno itself.
import { listenForSignals } from "./src/cli/interrupts.ts";

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
