/**
 * A client's tool budget across the servers of a fleet: a client sends its model the tools
 * of every configured server, so its tool cap counts the tools of the servers above this one
 * (config order) before this server's own. Pure bookkeeping.
 *
 * @module
 */
import { WHOLE_SERVER_EFFECTS } from "../clients/rules/kind.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { HiddenTool } from "./reachability.ts";

/** What one server showed each client profile's model: its catalog less what rules hid. */
export interface ServerTools {
  readonly profile: ProfileLabel;
  /** How many tools the profile's model sees from this server. */
  readonly visible: number;
}

/**
 * What one client profile's model sees of one server's catalog: its tools that the config
 * file's filter kept and the client's rules did not hide; none when a whole-server effect
 * dropped the server.
 *
 * @example
 * ```ts
 * toolsSent("client:cursor", ["a", "b", "c"], new Map([["a", "off"]]), new Map());
 * // { profile: "client:cursor", visible: 2 }
 * ```
 */
export function toolsSent(
  profile: ProfileLabel,
  tools: readonly string[],
  filtered: ReadonlyMap<string, unknown> | undefined,
  hidden: ReadonlyMap<string, HiddenTool>,
): ServerTools {
  const dropped = [...hidden.values()].some((tool) => WHOLE_SERVER_EFFECTS.has(tool.effect));
  const visible = dropped
    ? 0
    : tools.filter((tool) => !filtered?.has(tool) && !hidden.has(tool)).length;
  return { profile, visible };
}

/**
 * The tools each client profile already took, server by server.
 *
 * @example
 * ```ts
 * const budget = new ToolBudget();
 * budget.add([{ profile: "client:cursor", visible: 30 }]);
 * budget.before().get("client:cursor"); // 30
 * ```
 */
export class ToolBudget {
  readonly #sent = new Map<ProfileLabel, number>();

  /** Per client profile, the tools taken from the servers added so far. */
  before(): ReadonlyMap<ProfileLabel, number> {
    return new Map(this.#sent);
  }

  /** Adds what the next server in config order showed each profile. */
  add(servers: readonly ServerTools[]): void {
    for (const { profile, visible } of servers) {
      this.#sent.set(profile, (this.#sent.get(profile) ?? 0) + visible);
    }
  }
}
