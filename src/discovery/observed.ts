/**
 * What an observed profile's outcome carries beside a profile's (`--observe`): the real client
 * that ran, how it opened the server through the discovery-only proxy, and what reached its
 * model. The proxy and the lab fill it (`src/lab/`); the report reads it. Validated names and
 * numbers only: nothing the client printed.
 *
 * @module
 */
import type { ProfileOutcome } from "./session.ts";

/** How the client opened the server, as the proxy received it (validated). */
export interface ClientOpening {
  /** `initialize`, or `server/discover`. */
  readonly method: "initialize" | "server/discover";
  /** The revision it asked for, when it is a revision's date. */
  readonly protocolVersion: string | null;
  /** Its declared client capabilities, as sorted paths (`elicitation`, `elicitation.form`). */
  readonly capabilities: readonly string[];
  /** Its `clientInfo`, when name and version are printable ASCII. */
  readonly clientInfo: { readonly name: string; readonly version: string } | null;
}

/** The observation behind one observed profile. */
export interface ObservedFacts {
  /** The lab's name for the client, and the version installed and run. */
  readonly client: string;
  readonly version: string;
  /** How it opened this server, or null when it never did. */
  readonly opening: ClientOpening | null;
  /** How many requests reached the model stand-in. */
  readonly modelRequests: number;
  /** A complete profile: the listed tools (by key) its model received. */
  readonly received?: ReadonlySet<string>;
  /** A complete profile with instructions: their length, and how much reached the model. */
  readonly instructions?: { readonly chars: number; readonly shownChars: number };
}

/** A profile's outcome with, for an observed profile, its observation. */
export type ObservedOutcome = ProfileOutcome & { readonly observed: ObservedFacts };

/** The observation of `outcome`, when it is an observed profile's. */
export function observationOf(outcome: ProfileOutcome): ObservedFacts | undefined {
  return "observed" in outcome ? (outcome as ObservedOutcome).observed : undefined;
}
