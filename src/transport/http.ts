/**
 * The Streamable HTTP transport (POST only).
 *
 * @module
 */
import type { Transport } from "./transport.ts";

/** How to reach a Streamable HTTP endpoint. */
export interface HttpTarget {
  readonly url: URL;
  readonly headers: readonly (readonly [string, string])[];
  readonly timeoutMs: number;
}

/** Opens a Streamable HTTP connection. */
export function openHttp(_target: HttpTarget): Transport {
  throw new Error("Streamable HTTP is not implemented yet");
}
