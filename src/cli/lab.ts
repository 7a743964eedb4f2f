/**
 * `mcpeval lab`: observe real clients (`src/lab/`), one observation per client version, and
 * write a `--client-file` whose presets reproduce them, checked. Every line it prints is a fixed
 * phrase with client names, versions, counts and the paths it was given; nothing a client
 * printed reaches it (the lab classifies client output and keeps only the class).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { EXIT } from "../exit.ts";
import {
  CLIENT_VERSION,
  compareVersions,
  monthlyVersions,
  splitClient,
} from "../clients/versions.ts";
import { newestObserved } from "../clients/presets.ts";
import type { Driver } from "../lab/driver.ts";
import type { ProbeServer } from "../lab/probe_catalog.ts";
import type { CliContext } from "./context.ts";
import { whereFlagsGo } from "./deno_flags.ts";
import { InvocationError } from "./errors.ts";
import { LAB_HELP } from "./help.ts";
import { LAB_OPTIONS, type ParseSpec, parseSpec } from "./options.ts";
import { takeOption, unknownOption } from "./args.ts";
import { argsTokens } from "./tokens.ts";

const OPTIONS = parseSpec(LAB_OPTIONS);

/** What the repository adds to the product's lab (`deno task lab`). */
export interface LabExtensions {
  /** Held-out catalogs to serve beside the probes (`fixtures/held_out.ts`). */
  readonly heldOut?: () => Promise<Record<string, ProbeServer>>;
  /** How the observations' `command` starts (default `mcpeval lab`). */
  readonly command?: string;
}

/** The permissions the lab checks before anything starts: every one (`--allow-all`). */
const EVERY_PERMISSION: readonly Deno.PermissionName[] = [
  "read",
  "write",
  "net",
  "env",
  "run",
  "sys",
  "ffi",
];

/** Bounds of the lab's own timeouts, in seconds. */
const SECONDS = { min: 1, max: 7200 } as const;

/** One client version to observe. */
interface Job {
  readonly driver: Driver;
  readonly version: string;
}

/** Runs `mcpeval lab` with the arguments after `lab` and returns the exit code. */
export async function runLab(
  argv: readonly string[],
  context: CliContext,
  extensions: LabExtensions = {},
): Promise<number> {
  const given = collect(argv);
  if (given.has("help")) {
    await context.stdout(LAB_HELP);
    return EXIT.passed;
  }
  const { DRIVERS, UNAVAILABLE } = await import("../lab/clients/mod.ts");
  const all = given.has("all");
  const named = given.get("client") ?? [];
  if (!all && named.length === 0) {
    throw new InvocationError("lab needs --client NAME[@VERSION] or --all");
  }
  const wanted: { driver: Driver; version?: string }[] = [];
  for (const value of named) {
    const { name, version } = splitClient(value);
    const driver = DRIVERS.find((d) => d.id === name);
    if (!driver) {
      const unavailable = UNAVAILABLE.find((u) => u.id === name);
      throw new InvocationError(
        unavailable
          ? `--client ${name}: the lab cannot run it (${unavailable.reason})`
          : `--client must name a client the lab runs: ${DRIVERS.map((d) => d.id).join(", ")}`,
      );
    }
    if (version !== undefined && !CLIENT_VERSION.test(version)) {
      throw new InvocationError(
        `--client ${name}@VERSION: VERSION must be MAJOR.MINOR.PATCH, with an optional -PRERELEASE`,
      );
    }
    if (version !== undefined && all) {
      throw new InvocationError("--all picks the versions: name clients without @VERSION");
    }
    wanted.push({ driver, version });
  }
  const runTimeoutMs = seconds(given, "timeout-s", 180) * 1000;
  const installTimeoutMs = seconds(given, "install-timeout-s", 300) * 1000;
  if (Deno.build.os !== "linux") throw new InvocationError("mcpeval lab runs on Linux only");
  await requireEveryPermission(context);

  const lab = await import("../lab/mod.ts");
  const out = given.get("out")?.[0] ?? lab.packageObservedDir();
  if (out === undefined) {
    throw new InvocationError(
      "lab needs --out DIR here: the package's src/clients/observed is not a folder on this machine",
    );
  }
  const check = given.has("check");
  const clientFileOut = given.get("client-file-out")?.[0];
  const say = (line: string) => context.stdout(`lab: ${line}\n`);
  const signal = context.interrupted?.();
  const onAbort = () => void lab.endScopes();
  signal?.addEventListener("abort", onAbort, { once: true });
  const heldOut = extensions.heldOut ? await extensions.heldOut() : undefined;
  const command = extensions.command ?? "mcpeval lab";
  const date = new Date().toISOString().slice(0, 10);
  // Observed with any known probe set: an older version keeps the set it was observed with.
  const known = new Set(await lab.knownProbeSetIds());
  let failed = 0;
  const observed: import("../lab/observation.ts").Observation[] = [];
  try {
    const jobs: Job[] = [];
    if (all) {
      const drivers = wanted.length > 0 ? wanted.map((w) => w.driver) : DRIVERS;
      for (const driver of new Set(drivers)) {
        if (signal?.aborted) break;
        let published: Map<string, string>;
        try {
          published = await lab.publishedVersions(driver.package, installTimeoutMs);
        } catch (error) {
          failed++;
          await say(`${driver.id}: ${problem(error, lab.LabError)}`);
          continue;
        }
        const versions = new Set([
          ...monthlyVersions(published, new Date()),
          ...[driver.version, ...(driver.alsoObserve ?? [])].filter((v) => published.has(v)),
        ]);
        const sorted = [...versions].sort((a, b) => compareVersions(b, a));
        await say(`${driver.id}: ${sorted.length} versions: ${sorted.join(", ")}`);
        for (const version of sorted) jobs.push({ driver, version });
      }
    } else {
      // NAME is its newest observed version, as for `guidance --client NAME` and `--observe NAME`.
      for (const { driver, version } of wanted) {
        jobs.push({ driver, version: version ?? newestObserved(driver.id) ?? driver.version });
      }
    }
    for (const { driver, version } of jobs) {
      if (signal?.aborted) break;
      const label = `${driver.id}@${version}`;
      const file = join(out, `${label}.json`);
      const notDriven = driver.notDriven?.[version];
      if (notDriven !== undefined) {
        await say(`${label}: not driven: ${notDriven}`);
        if (!all) failed++;
        continue;
      }
      const was = await lab.readObservation(file);
      if (all && !check && was?.probes !== undefined && known.has(was.probes)) {
        await say(`${label}: observed already with these probes; skipped`);
        if (clientFileOut) observed.push(was);
        continue;
      }
      let escaped = 0;
      const started = Date.now();
      try {
        const observation = await lab.runClient(driver, {
          version,
          installTimeoutMs,
          runTimeoutMs,
          date,
          command: `${command} --client ${label}`,
          ...(heldOut ? { heldOut } : {}),
          onEscaped: (count) => escaped += count,
        });
        const seconds = Math.round((Date.now() - started) / 1000);
        const tools = observation.servers.flatMap((s) => s.tools);
        const sent = tools.filter((t) => t.sent).length;
        if (check) {
          if (!was) await say(`${label}: no observation in --out to compare`);
          else {
            const diff = lab.differences(was, observation);
            await say(
              `${label}: ${sent}/${tools.length} probe tools sent, ${diff.length} differences from the observation in --out (${seconds} s)`,
            );
            for (const line of diff) await say(`  ${line}`);
          }
        } else {
          await Deno.mkdir(out, { recursive: true });
          await Deno.writeTextFile(file, JSON.stringify(observation, null, 2) + "\n");
          await say(
            `${label}: ${sent}/${tools.length} probe tools sent; wrote ${file} (${seconds} s)`,
          );
        }
        observed.push(observation);
      } catch (error) {
        failed++;
        // One line per client, whatever went wrong (npm or setsid missing, a broken install).
        await say(`${label}: ${problem(error, lab.LabError)}`);
      }
      await say(escapedLine(lab.scopeKind(), escaped, label));
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (signal?.aborted) {
    const count = await lab.endScopes();
    await say(escapedLine(lab.scopeKind(), count));
    return signal.reason === "SIGHUP" ? EXIT.hangup : EXIT.interrupted;
  }
  // Each preset derived and held to its observation; only presets that reproduce it are kept.
  const reproduced: Record<string, unknown> = {};
  for (const observation of observed) {
    const label = `${observation.client}@${observation.version}`;
    const lines = await lab.reproduces(observation);
    if (typeof lines === "string") {
      await say(`${label}: no preset reproduces it (${lines})`);
      if (clientFileOut) failed++;
      continue;
    }
    if (lines.disagreements.length > 0) {
      await say(
        `${label}: its derived preset differs from the observation in ${lines.disagreements.length} places`,
      );
      for (const line of lines.disagreements) await say(`  ${line}`);
      if (clientFileOut) failed++;
      continue;
    }
    reproduced[lines.key] = lines.entry;
  }
  if (clientFileOut && Object.keys(reproduced).length > 0) {
    const document = { schema: lab.PRESETS_SCHEMA, clients: reproduced };
    await Deno.writeTextFile(clientFileOut, JSON.stringify(document, null, 2) + "\n");
    await say(
      `wrote ${clientFileOut}: the presets of ${
        Object.keys(reproduced).join(", ")
      }, each checked against its observation (pass it as --client-file)`,
    );
  }
  // The package's own observations: its derived presets follow them.
  const own = lab.packageObservedDir();
  if (!check && own !== undefined && resolve(out) === resolve(own) && observed.length > 0) {
    const written = await lab.writeDerivedPresets(out);
    await say(`${written.file}: ${written.presets} derived presets`);
    for (const line of written.skipped) await say(`  not derived: ${line}`);
  }
  return failed > 0 ? EXIT.incomplete : EXIT.passed;
}

/** The options given; unknown options and positionals exit 2. */
function collect(argv: readonly string[]): Map<string, string[]> {
  const given = new Map<string, string[]>();
  for (const token of argsTokens(argv, OPTIONS)) {
    if (token.kind === "positional") {
      throw new InvocationError("lab takes options only: mcpeval lab --client NAME[@VERSION]");
    }
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(OPTIONS, token.name)) {
      throw unknownOption(
        token.rawName,
        Object.keys(OPTIONS).map((name) => `--${name}`),
        " for lab",
      );
    }
    takeOption(given, token.name, (OPTIONS as Record<string, ParseSpec>)[token.name], token);
  }
  return given;
}

/** A timeout option in seconds, or its default. */
function seconds(given: Map<string, string[]>, name: string, fallback: number): number {
  const text = given.get(name)?.[0];
  if (text === undefined) return fallback;
  const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(value >= SECONDS.min && value <= SECONDS.max)) {
    throw new InvocationError(
      `--${name} must be an integer from ${SECONDS.min} to ${SECONDS.max}`,
    );
  }
  return value;
}

/** Exit 2 unless every permission is granted; the line says how to grant them. */
async function requireEveryPermission(context: CliContext): Promise<void> {
  for (const name of EVERY_PERMISSION) {
    if (await context.permission({ name } as Deno.PermissionDescriptor) === "granted") continue;
    if (context.launch === "compiled") {
      throw new InvocationError(
        "mcpeval lab needs every permission, which the release binary does not have: run it with Deno (deno run --allow-all main.ts lab ...)",
      );
    }
    throw new InvocationError(
      `mcpeval lab needs every permission (it installs and runs real clients, and ends what they start): add --allow-all${
        whereFlagsGo("--allow-all", context.launch)
      }`,
    );
  }
}

/** What went wrong with one client, as a fixed phrase. */
function problem(error: unknown, known: new (...args: never[]) => Error): string {
  return error instanceof known ? error.message : `failed (${(error as Error)?.name ?? "error"})`;
}

/**
 * The one line saying how the processes that escaped a client's process group were ended: with
 * its PID namespaces, or (the fallback) how many the lab found by their marker and ended.
 */
function escapedLine(kind: "namespace" | "marker", count: number, label?: string): string {
  return `${label ? `${label}: ` : ""}${
    kind === "namespace"
      ? `escaped processes ended with ${label ? "the client's" : "the clients'"} PID namespaces`
      : `ended ${count} escaped processes`
  }`;
}
