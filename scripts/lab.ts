/**
 * `deno task lab`: `mcpeval lab` from the repository, with the held-out catalogs
 * (`fixtures/held_out.ts`) served beside the probes, so that each observation also records what
 * the client did with tools the derivation of presets never sees. The committed observations
 * are made this way (`deno task lab --all`).
 *
 *   deno task lab --client NAME[@VERSION]... | --all [options]
 *
 * @module
 */
import { UserError } from "../src/errors.ts";
import { listenForSignals } from "../src/cli/interrupts.ts";
import { runLab } from "../src/cli/lab.ts";
import { processContext } from "../src/cli/process.ts";
import { heldOutServers } from "../fixtures/held_out.ts";

listenForSignals();
const context = processContext();
let code: number;
try {
  code = await runLab(Deno.args, context, { heldOut: heldOutServers, command: "deno task lab" });
} catch (error) {
  // As `mcpeval lab` ends: one line, exit 2 for a mistake, 70 for a bug.
  if (!(error instanceof UserError)) throw error;
  await context.stderr(`mcpeval: ${error.message}\n`);
  code = error.exitCode;
}
Deno.exit(code);
