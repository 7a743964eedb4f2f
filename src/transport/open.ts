/**
 * Opens the transport for a target.
 *
 * @module
 */
import type { ProtocolVersion } from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import { openHttp } from "./http.ts";
import { openStdio } from "./stdio.ts";
import type { Transport, TransportHooks } from "./transport.ts";

export { SpawnError } from "./stdio.ts";

/**
 * Opens a connection to `target` speaking `version`: starts the process (stdio) or prepares the endpoint (HTTP,
 * nothing is sent yet). Throws {@linkcode SpawnError} when a command cannot be started. `hooks`
 * hear what is not a message (a stdio server's stderr lines).
 */
export function openTransport(
  target: Target,
  version: ProtocolVersion,
  hooks: TransportHooks = {},
): Transport {
  return target.kind === "stdio" ? openStdio(target, hooks) : openHttp(target, version);
}
