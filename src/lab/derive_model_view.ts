/**
 * The parts of a derived preset that say what the model is shown (SPEC 25), from an observation
 * made with the probe set of issue 41 (`probe_model_view.ts`): the instruction and description
 * cuts (the most kept, the unit, the marker), deferral, the built-in names a client leaves out,
 * and the rules the strict stand-in's scenarios show (`strict.ts`). Pure; reads positions and
 * lengths, never a probe's name.
 *
 * @module
 */
import type { Observation, ObservedServer, ObservedStrict } from "./observation.ts";
import type { ProbeServer } from "./probe_catalog.ts";
import { API_LIMITS, STRICT_SCENARIOS } from "./strict.ts";
import { cutText } from "../clients/cut.ts";

type Json = Record<string, unknown>;

/** A cut as a preset records it (`max_chars` null: whole). */
export interface DerivedCut {
  readonly max_chars: number | null;
  readonly unit?: "utf-16" | "code-points" | "bytes";
  readonly marker?: string;
}

/** One text a client was served and how much of it, from the start, reached the model. */
export interface Measured {
  readonly served: string;
  /** UTF-16 units kept (null: none reached the model). */
  readonly kept: number | null;
  /** What followed the kept prefix where it was cut (null: not cut, or not known). */
  readonly after?: string | null;
}

const utf8Length = (text: string) => new TextEncoder().encode(text).length;
const codePoints = (text: string) => [...text].length;
const isAscii = (text: string) => [...text].every((char) => char.charCodeAt(0) < 0x80);

/** How many UTF-16 units of `text` a client with `cut` keeps. */
export function keptUnits(text: string, cut: DerivedCut): number {
  return cut.max_chars === null ? text.length : cutText(text, cut.max_chars, cut.unit).length;
}

/**
 * Whether a measured kept length agrees with a prediction: equal, or one less where the
 * prediction ends inside a surrogate pair (a client that drops the lone half).
 */
export function keptAgrees(served: string, predicted: number, kept: number): boolean {
  if (kept === predicted) return true;
  const code = served.charCodeAt(predicted - 1);
  return kept === predicted - 1 && code >= 0xd800 && code <= 0xdbff;
}

/**
 * The cut that reproduces `measured` (texts a client showed), or a problem: the most kept of
 * the cut ASCII texts (each text cut on its own), the unit told by a multibyte text, and the
 * marker every cut text was followed by. Texts that did not reach the model say nothing.
 */
export function deriveCut(measured: readonly Measured[]): DerivedCut | { problem: string } {
  const seen = measured.filter((m): m is Measured & { kept: number } => m.kept !== null);
  const cut = seen.filter((m) => m.kept < m.served.length);
  if (cut.length === 0) return { max_chars: null };
  const ascii = cut.filter((m) => isAscii(m.served));
  const kept = new Set(ascii.map((m) => m.kept));
  if (kept.size !== 1) {
    return { problem: "texts were cut at different lengths: no cut per text says so" };
  }
  const max = [...kept][0];
  let unit: DerivedCut["unit"] = "utf-16";
  for (const m of seen.filter((m) => !isAscii(m.served))) {
    if (m.kept === m.served.length) {
      if (m.served.length > max && codePoints(m.served) <= max) unit = "code-points";
      continue;
    }
    const prefix = m.served.slice(0, m.kept);
    if (keptAgrees(m.served, max, m.kept)) unit = "utf-16";
    else if (codePoints(prefix) === max) unit = "code-points";
    else if (utf8Length(prefix) <= max && utf8Length(prefix) > max - 4) unit = "bytes";
    else return { problem: "a multibyte text was cut in no unit the cut of the others says" };
  }
  const afters = cut.map((m) => m.after).filter((a): a is string => typeof a === "string");
  let marker = afters[0] ?? "";
  for (const after of afters) {
    let at = 0;
    while (at < marker.length && at < after.length && marker[at] === after[at]) at++;
    marker = marker.slice(0, at);
  }
  return {
    max_chars: max,
    unit,
    ...(marker.trim() !== "" ? { marker: marker.trimEnd() } : {}),
  };
}

/** The instructions each probe server was served and how much reached the model, in order. */
export function measuredInstructions(
  observation: Observation,
  catalog: readonly ProbeServer[],
): Measured[] | undefined {
  const served = catalog.flatMap((probe) =>
    probe.instructions === undefined ? [] : [probe.instructions]
  );
  const observed = observation.instructions;
  if (!observed || observed.length !== served.length) return undefined;
  return observed.map((entry, at) => ({
    served: served[at],
    kept: entry.kept,
    after: entry.after,
  }));
}

/** The descriptions of the servers that measure them, as served, and how much reached the model. */
export function measuredDescriptions(
  servers: readonly ObservedServer[],
  catalog: readonly ProbeServer[],
): Measured[] {
  return catalog.flatMap((probe, at) =>
    probe.measuresDescriptions
      ? probe.tools.flatMap((tool, index) => {
        const observed = servers[at]?.tools[index];
        if (observed?.description_kept === undefined) return [];
        // The tool's own description after its marker (and a space), as long as it was served.
        const own = tool.description ?? "";
        const length = observed.description_served ?? own.length + 1;
        return [{
          served: "m".repeat(Math.max(0, length - own.length - 1)) + " " + own,
          kept: observed.description_kept,
        }];
      })
      : []
  );
}

/** Deferral as a preset records it, from the observation's counts. */
export function deferralOf(observation: Observation): Json | undefined {
  const deferral = observation.deferral;
  if (!deferral) return undefined;
  const kind = (counts: { declared: number; deferred: number }) =>
    counts.deferred === 0 ? "none" : counts.declared === 0 ? "all" : "some";
  return {
    default: kind(deferral.default ?? deferral.lab),
    setting: deferral.setting,
    with_setting: deferral.default ? kind(deferral.lab) : null,
  };
}

/** One rule a strict scenario shows, with the document it rests on. */
export interface StrictRule {
  readonly id: string;
  readonly value: number | true;
  readonly effect: string;
  readonly separator?: string;
  readonly prefix?: string;
  readonly builtin?: number;
  /** The API limit's document (`strict.ts`), or none: the client's own limit. */
  readonly document?: { readonly url: string; readonly date: string; readonly read: string };
  /** The scenario it was observed in (`strict:SCENARIO`). */
  readonly probe: string;
}

const EFFECTS: Readonly<Record<string, { tool: string; cap: string }>> = {
  "turn-fails": { tool: "reject-request", cap: "reject-request" },
  "tool-dropped": { tool: "drop-tool", cap: "truncate" },
  "server-dropped": { tool: "drop-server", cap: "refuse-server" },
};

/**
 * The rules one strict run shows, or a problem: a refused request, the API limit's rule with the
 * effect of the client's reaction; none refused, the limits the client applies itself to the
 * scenario's tools it did not send (names too long, a cap).
 */
export function strictRules(run: ObservedStrict): StrictRule[] | { problem: string } {
  const scenario = STRICT_SCENARIOS[run.scenario];
  if (!scenario) return { problem: `strict scenario ${run.scenario} is not known` };
  const probe = `strict:${run.scenario}`;
  const catalogs = Object.values(scenario.servers);
  if (run.reaction === "not-refused") {
    // The client did not break the API's limit: the tools it left out show its own rules.
    const rules: StrictRule[] = [];
    const lengths: number[] = [];
    let sentBefore = 0;
    for (const [at, server] of catalogs.entries()) {
      const sent = run.servers[at]?.tools.map((tool) => tool.sent) ?? [];
      for (const [index, tool] of server.tools.entries()) {
        if (sent[index]) continue;
        const decision = tool.decides;
        if (decision?.kind === "length") lengths.push(decision.length);
        else if (decision?.kind === "flag") {
          rules.push({
            id: decision.rule,
            value: decision.value as true,
            effect: "drop-tool",
            probe,
          });
        } else if (decision?.kind === "cap" && sent.slice(index).every((s) => !s)) {
          // The first N tools of the server of many sent: the client's own cap.
          rules.push({ id: "max-tools", value: sentBefore + index, effect: "truncate", probe });
          break;
        } else return { problem: `${probe}: a tool not sent that no rule kind explains` };
      }
      sentBefore += sent.filter(Boolean).length;
    }
    if (lengths.length > 0) {
      rules.push({
        id: "max-qualified-name-length",
        value: Math.min(...lengths) - 1,
        effect: "drop-tool",
        separator: "",
        probe,
      });
    }
    return rules;
  }
  const limit = API_LIMITS.find((l) => l.id === run.limit);
  const effects = EFFECTS[run.reaction];
  if (!limit?.rule || limit.value === undefined || !effects || !run.probe_refused) {
    return { problem: `${probe}: refused, and no rule kind says how the client reacted` };
  }
  const document = limit.evidence;
  if (limit.judges === "count") {
    return [{
      id: limit.rule,
      value: limit.value,
      effect: effects.cap,
      builtin: run.builtin_tools,
      document,
      probe,
    }];
  }
  if (limit.judges === "name") {
    if (!run.qualified) return { problem: `${probe}: the name the client sent is not known` };
    return [{
      id: limit.rule,
      value: limit.value,
      effect: effects.tool,
      prefix: run.qualified.prefix,
      ...(run.qualified.label ? { separator: run.qualified.separator } : {}),
      document,
      probe,
    }];
  }
  return [{ id: limit.rule, value: limit.value, effect: effects.tool, document, probe }];
}
