/**
 * The JUnit XML format: one test suite per profile of one server; for a config run, one suite
 * per server (its cases named by profile), a server not checked an errored case.
 *
 * @module
 */
import {
  clientFacts,
  drifted,
  driftText,
  findingHint,
  findingSentence,
  findingsOf,
  gates,
  incompleteExplanation,
  knows,
  profilesDifferSentence,
  reasonText,
  type ReportFinding,
} from "../phrases.ts";
import { notCheckedHint, notCheckedText } from "../fleet/phrases.ts";
import { RULES } from "../../analysis/rules.ts";
import type { FleetServer, FleetStream } from "../fleet/types.ts";
import type { RenderSource } from "../run.ts";
import type { GuidanceReport, ReportIds } from "../types.ts";

function xml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&apos;");
}

/** One JUnit test case. */
export interface Case {
  readonly name: string;
  /** The class name; default the suite's name. */
  readonly classname?: string;
  readonly outcome?: {
    readonly element: "error" | "failure" | "skipped";
    readonly type?: string;
    readonly message: string;
  };
}

/** One JUnit test suite. */
export interface Suite {
  readonly name: string;
  readonly properties: readonly (readonly [string, string])[];
  /** Its cases, made as they are read (each call makes them again). */
  readonly cases: () => Iterable<Case>;
}

/**
 * A finding as a test case outcome: a failure when it gates, else a skipped case. Its message
 * is worded only when it is written (the totals count outcomes first).
 */
function outcomeOf(finding: ReportFinding, report: GuidanceReport<ReportIds>): Case["outcome"] {
  const sentence = () => `${findingSentence(finding, report)}. ${findingHint(finding)}`;
  return gates(finding, report)
    ? {
      element: "failure",
      type: finding.kind,
      get message() {
        return sentence();
      },
    }
    : {
      element: "skipped",
      get message() {
        return `review candidate: ${sentence()}`;
      },
    };
}

/** Items grouped by a key, each group in order (one pass). */
function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** One suite per profile: discovery, each required tool, each review candidate. Linear. */
export function profileSuites(report: GuidanceReport<ReportIds>): Suite[] {
  // Each list indexed once, so that a suite per profile never searches the whole report.
  const findingsByProfile = groupBy(findingsOf(report), (f) => f.profile);
  const resolvedByProfile = groupBy(report.baseline?.resolved ?? [], (f) => f.profile);
  const drifts = new Map<
    string,
    NonNullable<GuidanceReport<ReportIds>["baseline"]>["profiles"][number]
  >();
  for (const entry of report.baseline?.profiles ?? []) {
    if (!drifts.has(entry.profile)) drifts.set(entry.profile, entry);
  }
  return report.profiles.map((profile) => {
    const drift = drifts.get(profile.profile);
    function* cases(): Generator<Case> {
      yield {
        name: "discovery",
        outcome: profile.complete ? undefined : {
          element: "error",
          type: profile.incomplete.reason,
          message: `${reasonText(profile.incomplete)}: ${
            incompleteExplanation(profile.incomplete)
          }`,
        },
      };
      if (drift?.compared) {
        yield {
          name: "baseline catalog",
          outcome: drifted(drift)
            ? { element: "skipped", message: `catalog drift: ${driftText(drift)}` }
            : undefined,
        };
      }
      if (report.complete) {
        const ofProfile = findingsByProfile.get(profile.profile) ?? [];
        // The first finding of each kind and tool.
        const firsts = new Map<string, ReportFinding>();
        for (const f of ofProfile) {
          const key = `${f.kind}\n${f.tool}`;
          if (!firsts.has(key)) firsts.set(key, f);
        }
        const missing = (kind: ReportFinding["kind"], tool: string) =>
          firsts.get(`${kind}\n${tool}`);
        for (const tool of report.required_tools) {
          const defect = missing("required-tool-unavailable", tool);
          yield {
            name: `requires ${tool}`,
            outcome: defect && outcomeOf(defect, report),
          };
        }
        if (drift?.compared && report.baseline?.require_baseline_tools) {
          const added = new Set(drift.added);
          const kept = (profile.tools ?? []).filter((tool) => !added.has(tool));
          for (const tool of [...kept, ...drift.removed].sort()) {
            const defect = missing("baseline-tool-unavailable", tool);
            yield {
              name: `keeps baseline tool ${tool}`,
              outcome: defect && outcomeOf(defect, report),
            };
          }
        }
        for (const finding of ofProfile) {
          // A finding of a kind this version does not know: a case of its own, named by its kind.
          if (!knows(RULES, finding.kind)) {
            yield { name: `${finding.kind} ${finding.tool}`, outcome: outcomeOf(finding, report) };
            continue;
          }
          if (gates(finding, report)) continue; // defects have their own cases above
          yield { name: `references ${finding.tool}`, outcome: outcomeOf(finding, report) };
        }
        for (const finding of resolvedByProfile.get(profile.profile) ?? []) {
          if (finding.kind !== "referenced-tool-unavailable") continue;
          // The case that was skipped in the baseline's report passes now.
          yield { name: `references ${finding.tool}` };
        }
      }
    }
    return {
      name: `mcpeval.${report.server}.${profile.profile}`,
      properties: [
        ["transport", report.transport],
        ["settle_ms", String(report.settings.settle_ms)],
        ["tool_count", String(profile.tool_count ?? "")],
        ["instructions_present", String(profile.instructions_present ?? "")],
        ...clientFacts(profile).map((fact) => ["client", fact] as const),
        ...(report.baseline?.profiles_differ
          ? [
            ["baseline_profiles", profilesDifferSentence(report.baseline.profiles_differ)] as const,
          ]
          : []),
      ],
      cases,
    };
  });
}

/** How many cases, and how many of each outcome. */
interface Totals {
  tests: number;
  failure: number;
  error: number;
  skipped: number;
}

/** Counts one case in `totals`. */
function count(totals: Totals, { outcome }: Case): void {
  totals.tests++;
  if (outcome) totals[outcome.element]++;
}

function newTotals(): Totals {
  return { tests: 0, failure: 0, error: 0, skipped: 0 };
}

function totalsText(totals: Totals): string {
  return `tests="${totals.tests}" failures="${totals.failure}" errors="${totals.error}" skipped="${totals.skipped}"`;
}

/**
 * Suites as a JUnit XML document, a suite at a time: `suites` is read twice and each suite's
 * cases three times (the totals of every suite come first, and each suite's before its cases),
 * each time made as they are read.
 */
export function* junitXml(suites: () => Iterable<Suite>): Generator<string> {
  const all = newTotals();
  for (const suite of suites()) {
    for (const one of suite.cases()) {
      count(all, one);
      // Nothing to write yet: an empty piece lets the writer give the event loop its turn.
      yield "";
    }
  }
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcpeval guidance" ${
    totalsText(all)
  }>\n`;
  for (const { name, properties, cases } of suites()) {
    const suite = xml(name);
    const totals = newTotals();
    for (const one of cases()) {
      count(totals, one);
      yield "";
    }
    const lines = [`  <testsuite name="${suite}" ${totalsText(totals)}>`];
    lines.push("    <properties>");
    for (const [key, value] of properties) {
      lines.push(`      <property name="${xml(key)}" value="${xml(value)}"/>`);
    }
    lines.push("    </properties>");
    for (const { name, classname, outcome } of cases()) {
      const open = `    <testcase classname="${
        classname === undefined ? suite : xml(classname)
      }" name="${xml(name)}"`;
      if (!outcome) {
        lines.push(`${open}/>`);
      } else {
        const type = outcome.type === undefined ? "" : ` type="${xml(outcome.type)}"`;
        lines.push(
          `${open}>`,
          `      <${outcome.element}${type} message="${xml(outcome.message)}"/>`,
          "    </testcase>",
        );
      }
      if (lines.length >= 64) {
        yield lines.join("\n") + "\n";
        lines.length = 0;
      }
    }
    lines.push("  </testsuite>");
    yield lines.join("\n") + "\n";
  }
  yield "</testsuites>\n";
}

/** A fleet server's suite: its cases named by profile, or an errored case when not checked. */
function fleetSuite(server: FleetServer<ReportIds>): Suite {
  const name = `mcpeval.${server.name}`;
  if (!server.checked) {
    return {
      name,
      properties: [["checked", "false"]],
      cases: () => [{
        name: "configuration",
        outcome: {
          element: "error",
          type: server.reason,
          message: `${notCheckedText(server)}: ${notCheckedHint(server)}`,
        },
      }],
    };
  }
  const { report } = server;
  return {
    name,
    properties: [
      ["transport", report.transport],
      ["settle_ms", String(report.settings.settle_ms)],
    ],
    cases: function* () {
      for (const [index, suite] of profileSuites(report).entries()) {
        for (const c of suite.cases()) {
          // The outcome as it is: its message is worded only when it is written.
          yield {
            name: `${report.profiles[index].profile}: ${c.name}`,
            classname: suite.name,
            outcome: c.outcome,
          };
        }
      }
    },
  };
}

/** The fleet report as JUnit XML: its servers read twice, one at a time. */
function fleetXml(fleet: FleetStream<ReportIds>): Generator<string> {
  return junitXml(function* () {
    for (const server of fleet.servers) yield fleetSuite(server);
  });
}

/** The source as JUnit XML, in pieces (a fleet's servers read one at a time). */
export function render(source: RenderSource): Iterable<string> {
  if (source.kind !== "server") return fleetXml(source.fleet);
  const suites = profileSuites(source.report);
  return junitXml(() => suites);
}
