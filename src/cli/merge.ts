/**
 * `mcpeval merge FILE...`: read fleet reports (the shards of a `--config` run, or runs of
 * disjoint server selections of one config), each bounded and validated like `--baseline` and
 * folded into the merged report before the next is read, and print the one fleet report of all
 * their servers in any format. The exit code is the fleet rule's over the merged report.
 *
 * @module
 */
import { shardOfLabel } from "../request/shard.ts";
import { EXIT } from "../exit.ts";
import { MAX_SHARDS } from "../limits.ts";
import { type PermissionNeed, writeNeeds } from "../request/permissions.ts";
import { shown } from "../printable.ts";
import type { FleetServer, FleetStream } from "../report/fleet/types.ts";
import type { ReportIds } from "../report/types.ts";
import type { RenderSource } from "../report/run.ts";
import type { MergeProblem } from "../report/fleet/merge.ts";
import { reportOutputOf, takeOption, unknownOption } from "./args.ts";
import { parseReportJson, readReportText } from "../run/baseline_file.ts";
import { collectGarbage } from "../run/collect.ts";
import { requirePermissions } from "../run/permissions.ts";
import type { CliContext } from "./context.ts";
import { InvocationError } from "./errors.ts";
import { MERGE_HELP } from "./help.ts";
import { MERGE_OPTIONS, parseSpec } from "./options.ts";
import { argsTokens } from "./tokens.ts";
import { finishRun, reserveReportFiles, runEffects } from "./output.ts";

const OPTIONS = parseSpec(MERGE_OPTIONS);

/** Runs `mcpeval merge` with the arguments after `merge` and returns the exit code. */
export async function runMergeCommand(
  argv: readonly string[],
  context: CliContext,
): Promise<number> {
  const { given, files } = collect(argv);
  if (given.has("help")) {
    await context.stdout(MERGE_HELP);
    return EXIT.passed;
  }
  if (files.length === 0) {
    throw new InvocationError("merge needs the fleet reports to merge: mcpeval merge FILE...");
  }
  if (files.length > MAX_SHARDS) {
    throw new InvocationError(`merge reads at most ${MAX_SHARDS} reports`);
  }
  if (files.filter((file) => file === "-").length > 1) {
    throw new InvocationError("merge reads standard input (-) only once");
  }
  if (files.some((file) => file === "")) throw new InvocationError("merge needs file paths");
  const output = reportOutputOf(given, context.env);
  const reads = files.filter((file) => file !== "-").map((path): PermissionNeed => ({
    descriptor: { name: "read", path },
    what: "read the reports to merge",
    flag: "--allow-read",
    value: shown(path),
  }));
  await requirePermissions(runEffects(context), [...reads, ...writeNeeds(output)]);

  const [fleetSchema, { withoutRetiredFields }, { FleetMerger }, split] = await Promise.all([
    import("../report/fleet/schema.ts"),
    import("../report/schema.ts"),
    import("../report/fleet/merge.ts"),
    import("../report/fleet/split.ts"),
  ]);
  // One report at a time: read, validated and folded in before the next is opened, so that only
  // its servers stay (peak memory: the largest report plus the merged one). The garbage a
  // report leaves (its text, its parsed entries) is collected before the next is read.
  const merger = new FleetMerger();
  for (const [at, path] of files.entries()) {
    const problem = merger.add(
      await readReport(path, at, context, {
        ...fleetSchema,
        ...split,
        withoutRetiredFields,
      }),
    );
    if (problem) throw new InvocationError(mergeProblemMessage(problem));
    await collectGarbage();
  }
  const merged = merger.finishPacked();
  if (!merged.ok) throw new InvocationError(mergeProblemMessage(merged.problem));
  const packed = merged.merged;

  // From here a signal no longer exits at once: a render of any size stops within a slice, and
  // the report files reserved are removed first.
  const signal = context.interrupted?.();
  const reserved = await reserveReportFiles(context, output);
  const { loadFormats } = await import("../report/formats/mod.ts");
  const formats = await loadFormats([output.format, ...reserved.files.map((file) => file.format)]);
  // The merged servers stay packed, and every format renders from them, one server at a time
  // (reading them again for each pass a format needs: totals first, then the servers), in
  // pieces: no format builds the whole report, and none is held while the next is written.
  const source: RenderSource = {
    kind: "merge",
    fleet: {
      ...packed.head,
      servers: { [Symbol.iterator]: () => packed.servers()[Symbol.iterator]() },
      complete: packed.complete,
      passed: packed.passed,
    },
  };
  return await finishRun(
    context,
    reserved,
    signal,
    packed,
    { format: output.format, values: output.options, kind: "merge" },
    (format, options) => formats.get(format)!.render(source, options),
  );
}

/**
 * The report to merge at `path` (position `at`), validated, its servers read once each as they
 * are reached: its text is split into its server entries, each parsed when it is reached (a
 * parsed entry dies young), so that the whole report is never held as objects; text that does
 * not split plainly is parsed whole.
 */
async function readReport(
  path: string,
  at: number,
  context: CliContext,
  tools:
    & Pick<typeof import("../report/fleet/schema.ts"), "validateFleetReport">
    & Pick<typeof import("../report/schema.ts"), "withoutRetiredFields">
    & typeof import("../report/fleet/split.ts"),
): Promise<FleetStream<ReportIds>> {
  const name = fileName(at);
  const file = { subject: name, file: name };
  const text = await readReportText({ path }, context, file);
  const split = tools.splitArrayField(text, "servers");
  const value = parseReportJson(split?.envelope ?? text, file);
  // A report of an earlier version may hold fields that are never merged (a stderr tail).
  const current = (entry: unknown) => {
    tools.withoutRetiredFields((entry as { report?: unknown } | null)?.report);
    return entry;
  };
  const servers = (value as { servers?: unknown } | null)?.servers;
  if (!split && Array.isArray(servers)) servers.forEach(current);
  const entries = split && {
    *[Symbol.iterator]() {
      for (let at = 0; at < split.count; at++) {
        yield current(parseReportJson(split.entry(at), file));
      }
    },
  };
  // Each report is validated against the fleet report's schema, a server entry at a time.
  const read = tools.validateFleetReport(value, entries);
  if (!read.success) {
    const where = schemaPath(read.error.issues[0]?.path ?? []);
    throw new InvocationError(
      `${name} is not a mcpeval.guidance-fleet/v1 report that this mcpeval can read${
        where === undefined ? "" : ` (first problem at ${where})`
      }: merge reads the JSON reports of config runs`,
    );
  }
  // The entries were validated one by one as `validateFleetReport` read them.
  const fleet: FleetStream<ReportIds> = entries
    ? { ...read.data, servers: entries as Iterable<FleetServer<ReportIds>> }
    : read.data;
  const stray = fleet.shard &&
    Iterator.from(fleet.servers).find((server) =>
      shardOfLabel(server.name, fleet.shard!.count) !== fleet.shard!.index
    );
  if (stray) {
    throw new InvocationError(
      `${name} says it is shard ${fleet.shard!.index} of ${
        fleet.shard!.count
      }, but server ${stray.name} does not fall to that shard`,
    );
  }
  return fleet;
}

/** A schema issue's path, when every part is a report field name or an index. */
function schemaPath(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return undefined;
  const parts = path.map((part) =>
    typeof part === "number" || (typeof part === "string" && /^[a-z_]{1,40}$/.test(part))
      ? String(part)
      : undefined
  );
  return parts.every((part) => part !== undefined) ? parts.join(".") : undefined;
}

/** A report by its position on the command line (its path is never printed). */
function fileName(at: number): string {
  return `FILE ${at + 1}`;
}

/** Why reports cannot be merged, in fixed words, naming reports by position. */
export function mergeProblemMessage(problem: MergeProblem): string {
  const name = fileName;
  switch (problem.kind) {
    case "overlap":
      return `${name(problem.first)} and ${
        name(problem.second)
      } both list server ${problem.server}: merge takes reports of disjoint servers`;
    case "version":
      return `${name(problem.at)} was written by another version of mcpeval than ${name(0)}`;
    case "config-format":
      return `${name(problem.at)} is of another config format than ${name(0)}`;
    case "profiles":
      return `${name(problem.at)} checked other profiles than the reports before it`;
    case "clients":
      return `${name(problem.at)} impersonated other clients than the reports before it`;
    case "settings":
      return `${
        name(problem.at)
      } was run with other settings (--settle-ms, --timeout-ms, --protocol-version, --unknown-references or --baseline) than the reports before it`;
    case "shard-mixed": {
      const [is, isNot] = problem.sharded ? ["is", "is not"] : ["is not", "is"];
      return `${name(problem.at)} ${is} a shard (--shard) and ${
        name(0)
      } ${isNot}: merge all shards of one run, or whole runs`;
    }
    case "shard-count":
      return `${name(problem.at)} is a shard of another count (--shard I/N with another N) than ${
        name(0)
      }`;
    case "shard-repeated":
      return `${name(problem.first)} and ${
        name(problem.second)
      } are both shard ${problem.index}: merge takes each shard once`;
    case "shard-missing":
      return `shard ${problem.index} of ${problem.count} is missing: merge takes every shard of the run`;
  }
}

/** The options and the files; unknown options exit 2 with a suggestion. */
function collect(argv: readonly string[]): { given: Map<string, string[]>; files: string[] } {
  const tokens = argsTokens(argv, OPTIONS);
  const given = new Map<string, string[]>();
  const files: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      files.push(token.value);
      continue;
    }
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(OPTIONS, token.name)) {
      throw unknownOption(
        token.rawName,
        Object.keys(OPTIONS).map((name) => `--${name}`),
        " for merge",
      );
    }
    takeOption(given, token.name, OPTIONS[token.name], token);
  }
  return { given, files };
}
