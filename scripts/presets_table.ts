/**
 * The table of observed client versions in docs/client-presets.md, computed from the committed
 * observations (offline): per client and version, the probe tools sent, the rules its derived
 * preset has, the revisions it accepts, how many probe tools the newest version's preset gets
 * right on it (the drift), and its derived preset's agreement on the held-out catalogs; and the
 * versions the lab could not drive, with why. `tests/observed_test.ts` holds the docs to it.
 *
 *   deno run --allow-read --allow-run --allow-env scripts/presets_table.ts
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePresets } from "../src/clients/presets.ts";
import { compareVersions } from "../src/clients/versions.ts";
import { PROTOCOL_VERSIONS } from "../src/protocol/versions.ts";
import { agreement } from "../src/lab/check.ts";
import { DRIVERS } from "../src/lab/clients/mod.ts";
import { derivePreset, PRESETS_SCHEMA } from "../src/lab/derive.ts";
import type { Observation } from "../src/lab/observation.ts";
import { PROBE_CATALOG, type ProbeServer, probeSetOf } from "../src/lab/probe_catalog.ts";
import { observationsIn } from "../src/lab/presets_file.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Where the table is in docs/client-presets.md. */
export const TABLE_START = "<!-- versions-table: written by scripts/presets_table.ts -->";
export const TABLE_END = "<!-- end versions-table -->";

/** A list of revisions (oldest first) as the table writes it. */
function spelled(revisions: readonly string[]): string {
  if (revisions.length === 0) return "none";
  const prefix = PROTOCOL_VERSIONS.slice(0, revisions.length).join() === revisions.join();
  return prefix ? `up to ${revisions.at(-1)}` : revisions.join(", ");
}

function presetOf(observation: Observation) {
  const derived = derivePreset(observation);
  if ("problem" in derived) throw new Error(`${derived.problem}`);
  const parsed = parsePresets({
    schema: PRESETS_SCHEMA,
    clients: { [derived.key]: derived.entry },
  });
  if (typeof parsed === "string") throw new Error(parsed);
  return { preset: parsed.get(derived.key)!, entry: derived.entry };
}

/** A derived rule, short: its id, its value unless `true`, its effect unless `drop-tool`. */
const ruleText = (rule: { id: string; value: unknown; effect: string }) =>
  [
    rule.id,
    rule.value === true ? "" : String(rule.value),
    rule.effect === "drop-tool" ? "" : rule.effect,
  ]
    .filter((part) => part !== "").join(" ");

/** A text cut as the table writes it: its characters kept, or whole. */
const cutText = (cut: { max_chars?: unknown } | undefined) =>
  cut === undefined
    ? "not observed"
    : typeof cut.max_chars === "number"
    ? `first ${cut.max_chars}`
    : "whole";

/** What the model is shown (SPEC 25): the instruction cut, the description cut, the deferral. */
function modelView(entry: Record<string, unknown>): string {
  const instructions = entry.instructions as
    | { shown: boolean | null; setting?: string | null; max_chars?: unknown }
    | undefined;
  if (instructions === undefined) return "not observed";
  const shown = instructions.shown === false
    ? "none shown"
    : instructions.shown === null
    ? "not known"
    : cutText(instructions);
  const deferral = entry.deferral as
    | { default: string; setting: string | null; with_setting: string | null }
    | undefined;
  const deferred = deferral === undefined
    ? "not observed"
    : `${deferral.default}${
      deferral.setting ? ` (${deferral.with_setting} with \`${deferral.setting}\`)` : ""
    }`;
  return `${shown}; ${
    cutText(entry.descriptions as { max_chars?: unknown } | undefined)
  }; ${deferred}`;
}

/** Each strict scenario the lab ran: the limit the stand-in refused with, and the reaction. */
function refusals(observation: Observation): string {
  const strict =
    (observation as { strict?: { scenario: string; limit: string | null; reaction: string }[] })
      .strict;
  if (strict === undefined) return "not observed";
  return strict.map((s) =>
    `${s.scenario}: ${s.limit === null ? "not refused" : `${s.limit} ${s.reaction}`}`
  )
    .join(", ") || "none";
}

/** The table's markdown, between its markers. */
export async function versionsTable(
  observations: readonly Observation[],
  heldOut: Readonly<Record<string, ProbeServer>>,
): Promise<string> {
  const rows: string[][] = [];
  const notDriven: string[] = [];
  for (const driver of DRIVERS) {
    const mine = observations.filter((o) => o.client === driver.id)
      .sort((a, b) => compareVersions(b.version, a.version));
    const versions = [
      ...mine.map((o) => o.version),
      ...Object.keys(driver.notDriven ?? {}),
    ].sort((a, b) => compareVersions(b, a));
    const newest = mine[0] && presetOf(mine[0]).preset;
    const reasons = new Map<string, string[]>();
    for (const [version, why] of Object.entries(driver.notDriven ?? {})) {
      reasons.set(why, [...(reasons.get(why) ?? []), version]);
    }
    for (const [why, versions] of reasons) {
      notDriven.push(`- ${driver.id} ${versions.join(", ")}, not driven: ${why}.`);
    }
    for (const version of versions) {
      const observation = mine.find((o) => o.version === version);
      if (!observation) {
        rows.push([driver.id, version, "not driven (below)", "", "", "", "", "", ""]);
        continue;
      }
      const { preset, entry } = presetOf(observation);
      const probes = observation.servers.flatMap((s) => s.tools);
      // Against the probe set it was observed with (older observations lack later probes).
      const drift = await agreement(
        newest!,
        observation.servers,
        probeSetOf(observation.servers) ?? PROBE_CATALOG,
      );
      const held = observation.held_out
        ? await agreement(
          preset,
          observation.held_out,
          observation.held_out.map((s) => heldOut[s.label]),
        )
        : undefined;
      const init = observation.initialize!;
      rows.push([
        driver.id,
        version,
        `${probes.filter((t) => t.sent).length} of ${probes.length}`,
        (entry.rules as { id: string; value: unknown; effect: string }[]).map(ruleText).join(
          ", ",
        ) ||
        "none",
        `${init.protocol_version}${init.discover_first ? " after `server/discover`" : ""}; ${
          spelled(observation.revisions!.filter((r) => r.sent).map((r) => r.revision))
        }`,
        `${drift.agreed} of ${drift.tools}`,
        held
          ? `${held.agreed} of ${held.tools} (${(100 * held.agreed / held.tools).toFixed(1)} %)`
          : "",
        modelView(entry),
        refusals(observation),
      ]);
    }
  }
  const header = [
    "client",
    "version",
    "probe tools sent",
    "derived rules",
    "`initialize`; revisions accepted",
    "newest preset agrees",
    "held-out agreement",
    "instructions; descriptions; deferral",
    "reaction to API refusals",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [
    TABLE_START,
    "",
    line(header),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...rows.map(line),
    "",
    ...notDriven,
    ...(notDriven.length > 0 ? [""] : []),
    TABLE_END,
  ].join("\n");
}

if (import.meta.main) {
  const { heldOutServers } = await import("../fixtures/held_out.ts");
  const observations = await observationsIn(join(ROOT, "src", "clients", "observed"));
  // deno-lint-ignore no-console
  console.log(await versionsTable(observations, await heldOutServers()));
}
