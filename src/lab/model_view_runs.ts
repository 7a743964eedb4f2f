/**
 * The runs of a client beyond its main one that show what its model is shown (SPEC 25): one per
 * strict scenario of its model API (`strict.ts`: the stand-in refuses what the API documents it
 * refuses, and the lab reads the client's reaction), and, for a driver that changes a setting
 * that decides it (`Driver.labSetting`), one with the client's defaults (deferral).
 *
 * @module
 */
import type { Driver } from "./driver.ts";
import type { Observation, ObservedDeferral, ObservedServer } from "./observation.ts";
import { observeCatalogs } from "./observe.ts";
import { PROBE_SERVER_IDS, PROBE_SERVERS, type ProbeServer } from "./probe_catalog.ts";
import type { Recorded, Refuse } from "./stand_in.ts";
import {
  observeStrict,
  prepareStrict,
  scenariosOf,
  STRICT_SCENARIOS,
  strictAnswer,
} from "./strict.ts";

/** What one more run of the client needs: the servers, and how it differs from the main one. */
export type MoreRun = (
  ids: readonly string[],
  more: {
    readonly heldOut?: Readonly<Record<string, ProbeServer>>;
    readonly refuse?: Refuse;
    readonly defaults?: boolean;
  },
) => Promise<
  { readonly requests: readonly Recorded[]; readonly ran: { readonly output: string[] } }
>;

/** Probe tools declared to the model, and those only named (deferred), of observed servers. */
export function deferralCounts(servers: readonly ObservedServer[]): ObservedDeferral["lab"] {
  const tools = servers.flatMap((server) => server.tools);
  return {
    declared: tools.filter((tool) => tool.sent && !tool.deferred).length,
    deferred: tools.filter((tool) => tool.sent && tool.deferred).length,
  };
}

/** Every string of a JSON value. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const item of value) stringsOf(item, out); }
  else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) stringsOf(item, out);
  }
  return out;
}

const NAME_CHAR = /[A-Za-z0-9_.\-/:]/;

/** Whether `name` occurs in `text` as a whole name (not inside a longer one). */
function namedIn(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = at === 0 ? "" : text[at - 1];
    const after = text[at + name.length] ?? "";
    if (!NAME_CHAR.test(before) && !NAME_CHAR.test(after)) return true;
  }
  return false;
}

/**
 * The default run's counts: a probe tool the main run sent is declared when its marker is in a
 * declaration, deferred when only its name (as the main run saw it) is in the request's text
 * (Claude Code lists deferred tools by name behind its tool search).
 */
function defaultCounts(
  driver: Driver,
  requests: readonly Recorded[],
  output: readonly string[],
  main: Observation,
): ObservedDeferral["lab"] {
  const catalogs = PROBE_SERVER_IDS.map((id) => [id, PROBE_SERVERS[id]] as const);
  const seen = observeCatalogs(driver.api, requests, output, catalogs);
  const strings = requests.flatMap((r) => stringsOf(r.body));
  let declared = 0;
  let deferred = 0;
  for (const [at, server] of main.servers.entries()) {
    for (const [index, tool] of server.tools.entries()) {
      if (!tool.sent || tool.model_name === null) continue;
      const now = seen[at]?.tools[index];
      if (now?.sent && !now.deferred) declared++;
      else if (now?.deferred || strings.some((text) => namedIn(text, tool.model_name!))) {
        deferred++;
      }
    }
  }
  return { declared, deferred };
}

/** The strict scenarios' and the default run's parts of `main`, the client's main observation. */
export async function observeModelView(
  driver: Driver,
  run: MoreRun,
  main: Observation,
): Promise<Pick<Observation, "strict" | "deferral">> {
  await prepareStrict();
  const strict = [];
  for (const id of scenariosOf(driver.api)) {
    const seen = await run([], {
      heldOut: STRICT_SCENARIOS[id].servers,
      refuse: (path, body) => strictAnswer(driver.api, path, body),
    });
    strict.push(observeStrict(id, driver.api, seen.requests, seen.ran.output));
  }
  let byDefault: ObservedDeferral["default"] = null;
  if (driver.labSetting !== undefined) {
    const seen = await run(PROBE_SERVER_IDS, { defaults: true });
    byDefault = defaultCounts(driver, seen.requests, seen.ran.output, main);
  }
  return {
    strict,
    deferral: {
      setting: driver.labSetting ?? null,
      lab: deferralCounts(main.servers),
      default: byDefault,
    },
  };
}
