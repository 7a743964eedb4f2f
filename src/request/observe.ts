/**
 * `--observe NAME[@VERSION]` (the library's `observe`) as the request validates it: each value a
 * client name, with a version, `latest`, or nothing (the newest observed version); duplicates
 * collapse. Which names the lab can run is the run's to check (it knows the lab).
 *
 * @module
 */
import { CLIENT_NAME } from "../clients/presets.ts";
import { CLIENT_VERSION } from "../clients/versions.ts";
import type { ObserveRequest } from "../discovery/request.ts";

/** The rule an `--observe` value breaks. */
export const OBSERVE_RULE =
  "must be a client name (a-z, 0-9, '-'), optionally with @VERSION (MAJOR.MINOR.PATCH) or @latest";

/**
 * The clients `values` ask to observe, in the order given without duplicates, or undefined when
 * one breaks {@linkcode OBSERVE_RULE}.
 *
 * @example
 * ```ts
 * observeRequests(["claude-code", "codex@0.171.0", "claude-code"]);
 * // [{ client: "claude-code" }, { client: "codex", version: "0.171.0" }]
 * ```
 */
export function observeRequests(values: unknown): ObserveRequest[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const seen = new Map<string, ObserveRequest>();
  for (const value of values) {
    if (typeof value !== "string") return undefined;
    const at = value.indexOf("@");
    const client = at === -1 ? value : value.slice(0, at);
    const version = at === -1 ? undefined : value.slice(at + 1);
    if (!CLIENT_NAME.test(client)) return undefined;
    if (version !== undefined && version !== "latest" && !CLIENT_VERSION.test(version)) {
      return undefined;
    }
    seen.set(value, { client, ...(version === undefined ? {} : { version }) });
  }
  return [...seen.values()];
}
