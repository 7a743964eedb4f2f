/**
 * Opens the transport for a target.
 *
 * @module
 */
import type { ProtocolVersion } from "../protocol/versions.ts";
import type { Target } from "../target.ts";
import { openStdio } from "./stdio.ts";
import type { Transport, TransportHooks, TransportLimits } from "./transport.ts";

export { SpawnError } from "./stdio.ts";

/**
 * Opens a connection to `target` speaking `version`: starts the process (stdio) or prepares the endpoint (HTTP,
 * nothing is sent yet). Throws {@linkcode SpawnError} when a command cannot be started. `hooks`
 * hear what is not a message (a stdio server's stderr lines). The HTTP transport (and its SSE
 * parser) is loaded only for an HTTP target. `limits` (tests only) shrinks the message bound.
 */
export async function openTransport(
  target: Target,
  version: ProtocolVersion,
  hooks: TransportHooks = {},
  limits: TransportLimits = {},
): Promise<Transport> {
  if (target.kind === "stdio") return openStdio(target, hooks, limits);
  const { openHttp } = await import("./http.ts");
  return openHttp(target, version, limits);
}
