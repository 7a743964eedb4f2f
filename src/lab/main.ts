/**
 * `deno task lab`: runs real clients against the probe servers and the model stand-in, and
 * writes one observation per client version to `src/clients/observed/CLIENT@VERSION.json`.
 *
 *   deno task lab [--client ID]... [--check] [--timeout-s N] [--install-timeout-s N]
 *
 * `--check` writes nothing: it compares each observation with the committed one and prints the
 * differences (one line each). A client that cannot be installed or run is one line, and does
 * not change the exit code; a usage error exits 2.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { DRIVERS, UNAVAILABLE } from "./clients/mod.ts";
import { endScopes, LAB, LabError, runClient } from "./run.ts";
import { scopeKind } from "./scope.ts";
import { Observation } from "./observation.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    client: { type: "string", multiple: true },
    check: { type: "boolean", default: false },
    "timeout-s": { type: "string", default: "180" },
    "install-timeout-s": { type: "string", default: "300" },
  },
  strict: true,
});

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);
/**
 * The one line saying how the processes that escaped a client's process group were ended: with
 * its PID namespaces, or (the fallback) how many the lab found by their marker and ended.
 */
const escapedLine = (count: number, label?: string) =>
  `lab: ${label ? `${label}: ` : ""}${
    scopeKind() === "namespace"
      ? `escaped processes ended with ${label ? "the client's" : "the clients'"} PID namespaces`
      : `ended ${count} escaped processes`
  }`;
// Stopped from outside (a CI timeout, ^C): the clients run in scopes of their own, so end them
// (and what escaped their groups), once.
let stopping = false;
const onSignal = () => {
  if (stopping) return;
  stopping = true;
  void endScopes().then((count) => {
    say(escapedLine(count));
    Deno.exit(130);
  }, () => Deno.exit(130));
};
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, onSignal);
const known = new Set(DRIVERS.map((d) => d.id));
for (const name of values.client ?? []) {
  if (!known.has(name)) {
    const reason = UNAVAILABLE.find((u) => u.id === name)?.reason;
    say(reason ? `lab: ${name} cannot be run here: ${reason}` : `lab: no client ${name}`);
    Deno.exit(2);
  }
}
const chosen = values.client ? DRIVERS.filter((d) => values.client!.includes(d.id)) : DRIVERS;
const OBSERVED = join(LAB, "..", "clients", "observed");
const date = new Date().toISOString().slice(0, 10);

/** The differences between two observations, one line each, ignoring date and request count. */
function differences(was: Observation, now: Observation): string[] {
  const lines: string[] = [];
  if (was.instructions_shown !== now.instructions_shown) lines.push("instructions_shown");
  if (JSON.stringify(was.initialize) !== JSON.stringify(now.initialize)) lines.push("initialize");
  for (const server of now.servers) {
    const old = was.servers.find((s) => s.label === server.label);
    for (const tool of server.tools) {
      const before = old?.tools.find((t) => t.name === tool.name);
      if (!before || before.sent !== tool.sent || before.model_name !== tool.model_name) {
        lines.push(
          `${server.label}/${JSON.stringify(tool.name)}: sent ${before?.sent} -> ${tool.sent}`,
        );
      }
    }
  }
  for (const revision of now.revisions ?? []) {
    const before = was.revisions?.find((r) => r.revision === revision.revision);
    if (JSON.stringify(before) !== JSON.stringify(revision)) {
      lines.push(`revision ${revision.revision}: sent ${before?.sent} -> ${revision.sent}`);
    }
  }
  return lines;
}

for (const driver of chosen) {
  const label = `${driver.id}@${driver.version}`;
  let escaped = 0;
  try {
    const observation = await runClient(driver, {
      installTimeoutMs: Number(values["install-timeout-s"]) * 1000,
      runTimeoutMs: Number(values["timeout-s"]) * 1000,
      date,
      onEscaped: (count) => escaped += count,
    });
    const tools = observation.servers.flatMap((s) => s.tools);
    const sent = tools.filter((t) => t.sent).length;
    const file = join(OBSERVED, `${label}.json`);
    if (values.check) {
      let was: Observation | undefined;
      try {
        was = Observation.parse(JSON.parse(await Deno.readTextFile(file)));
      } catch {
        say(`lab: ${label}: no committed observation to compare`);
      }
      if (was) {
        const diff = differences(was, observation);
        say(
          `lab: ${label}: ${sent}/${tools.length} probe tools sent, ${diff.length} differences from the committed observation`,
        );
        for (const line of diff) say(`lab:   ${line}`);
      }
    } else {
      await Deno.mkdir(OBSERVED, { recursive: true });
      await Deno.writeTextFile(file, JSON.stringify(observation, null, 2) + "\n");
      say(`lab: ${label}: ${sent}/${tools.length} probe tools sent; wrote ${file}`);
    }
  } catch (error) {
    // One line per client, whatever went wrong (npm or setsid missing, a broken install).
    say(
      `lab: ${label}: ${
        error instanceof LabError ? error.message : `failed (${(error as Error).name})`
      }`,
    );
  }
  say(escapedLine(escaped, label));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.removeSignalListener(signal, onSignal);
