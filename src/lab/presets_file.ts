/**
 * The derived presets as data: one observation's preset, derived and checked
 * ({@linkcode reproduces}), and the package's `src/clients/derived.json`, written from every
 * observation in `src/clients/observed/` ({@linkcode writeDerivedPresets}).
 *
 * @module
 */
import { join } from "node:path";
import { parsePresets } from "../clients/presets.ts";
import { compareVersions } from "../clients/versions.ts";
import { checkPreset } from "./check.ts";
import { derivePreset, PRESETS_SCHEMA } from "./derive.ts";
import { type Observation, parseObservation, readObservation } from "./observation.ts";

/**
 * The preset derived from `observation`, with where it does not reproduce the observation (none:
 * it does), or why none can be derived.
 */
export async function reproduces(
  observation: Observation,
): Promise<
  { key: string; entry: Record<string, unknown>; disagreements: string[] } | string
> {
  const derived = derivePreset(observation);
  if ("problem" in derived) return derived.problem;
  const parsed = parsePresets({
    schema: PRESETS_SCHEMA,
    clients: { [derived.key]: derived.entry },
  });
  if (typeof parsed === "string") return `its derived preset is not valid: ${parsed}`;
  const disagreements = await checkPreset(parsed.get(derived.key)!, observation);
  return { key: derived.key, entry: derived.entry, disagreements };
}

/** The observations in `dir` (`NAME@VERSION.json`), by client and then version. */
export async function observationsIn(dir: string): Promise<Observation[]> {
  const found: Observation[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const observation = await readObservation(join(dir, entry.name));
    if (observation && entry.name === `${observation.client}@${observation.version}.json`) {
      found.push(observation);
    }
  }
  return found.sort((a, b) =>
    a.client === b.client ? compareVersions(a.version, b.version) : a.client < b.client ? -1 : 1
  );
}

/**
 * Writes `derived.json` beside the observations folder `dir` (`src/clients/derived.json` for
 * `src/clients/observed/`): the preset of every observation there that one reproduces, keyed
 * `NAME@VERSION`. Returns the file, how many presets it holds, and each observation left out.
 */
export async function writeDerivedPresets(
  dir: string,
): Promise<{ file: string; presets: number; skipped: string[] }> {
  const clients: Record<string, unknown> = {};
  const skipped: string[] = [];
  for (const observation of await observationsIn(dir)) {
    const label = `${observation.client}@${observation.version}`;
    const result = await reproduces(observation);
    if (typeof result === "string") skipped.push(`${label} (${result})`);
    else if (result.disagreements.length > 0) {
      skipped.push(`${label} (differs in ${result.disagreements.length} places)`);
    } else clients[result.key] = result.entry;
  }
  const file = join(dir, "..", "derived.json");
  const document = {
    schema: PRESETS_SCHEMA,
    generated: "by mcpeval lab from observed/: do not edit (tests/observed_test.ts checks it)",
    clients,
  };
  await Deno.writeTextFile(file, JSON.stringify(document, null, 2) + "\n");
  return { file, presets: Object.keys(clients).length, skipped };
}

/**
 * The presets document of an observation file given as a `--client-file`: its derived preset,
 * keyed `NAME@VERSION`, once it is checked against the observation; or why not, as a fixed
 * phrase (nothing of the file's text).
 */
export async function observationAsPresets(
  value: unknown,
): Promise<{ document: Record<string, unknown> } | { problem: string }> {
  const observation = parseObservation(value);
  if (!observation) {
    return { problem: "is not a mcpeval.client-observation/v1 file this mcpeval can read" };
  }
  const result = await reproduces(observation);
  if (typeof result === "string") return { problem: "is an observation no preset reproduces" };
  if (result.disagreements.length > 0) {
    return {
      problem:
        `is an observation whose derived preset differs from it in ${result.disagreements.length} places`,
    };
  }
  return { document: { schema: PRESETS_SCHEMA, clients: { [result.key]: result.entry } } };
}
