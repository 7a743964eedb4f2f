/**
 * Answering the server's requests during discovery: `ping`, an empty `roots/list` (bounded per
 * client request), a fixed refusal of sampling, a declined elicitation, and `Method not found`
 * for everything else or for a capability the profile did not declare.
 *
 * @module
 */
import { MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST } from "../limits.ts";
import type { Incomplete } from "../protocol/incomplete.ts";
import type { JsonRpcRequest } from "../protocol/messages.ts";

/** The fixed error answer to `sampling/createMessage` in profiles that declare sampling. */
export const SAMPLING_DECLINED = {
  code: -1,
  message: "sampling is not performed during discovery",
} as const;

const METHOD_NOT_FOUND = { code: -32601, message: "Method not found" } as const;

/** What to send back to one server request, or why discovery stops instead. */
export type ServerRequestAnswer =
  | { readonly result: Record<string, unknown> }
  | { readonly error: { readonly code: number; readonly message: string } }
  | { readonly incomplete: Incomplete };

/** Answers the server's requests for one profile, counting `roots/list` per client request. */
export class ServerRequests {
  readonly #capabilities: Readonly<Record<string, unknown>>;
  #rootsRequests = 0;

  /** `capabilities`: the client capabilities the profile declared. */
  constructor(capabilities: Readonly<Record<string, unknown>>) {
    this.#capabilities = capabilities;
  }

  /** A new client request was sent: the `roots/list` count starts again. */
  reset(): void {
    this.#rootsRequests = 0;
  }

  /** The answer to `request`. */
  answer(request: JsonRpcRequest): ServerRequestAnswer {
    const capabilities = this.#capabilities;
    switch (request.method) {
      case "ping":
        return { result: {} };
      case "roots/list":
        if (!capabilities.roots) break;
        this.#rootsRequests += 1;
        if (this.#rootsRequests > MAX_ROOTS_REQUESTS_PER_CLIENT_REQUEST) {
          return { incomplete: { reason: "roots-request-limit" } };
        }
        return { result: { roots: [] } };
      case "sampling/createMessage":
        if (!capabilities.sampling) break;
        return { error: { ...SAMPLING_DECLINED } };
      case "elicitation/create":
        if (!capabilities.elicitation) break;
        return { result: { action: "decline" } };
    }
    return { error: { ...METHOD_NOT_FOUND } };
  }
}
