/**
 * Opens the transport for a target.
 *
 * @module
 */
import type { ProtocolVersion } from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import { openHttp } from "./http.ts";
import { openStdio } from "./stdio.ts";
import type { Transport } from "./transport.ts";

export { SpawnError } from "./stdio.ts";

/**
 * Opens a connection to `target` speaking `version`: starts the process (stdio) or prepares the endpoint (HTTP,
 * nothing is sent yet). Throws {@linkcode SpawnError} when a command cannot be started.
 */
export function openTransport(target: Target, version: ProtocolVersion): Transport {
  return target.kind === "stdio" ? openStdio(target) : openHttp(target, version);
}
