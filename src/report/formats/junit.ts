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
import type { FleetReport } from "../fleet/types.ts";
import { type RenderSource, wholeReport } from "../run.ts";
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
  readonly cases: readonly Case[];
}

/** A finding as a test case outcome: a failure when it gates, else a skipped case. */
function outcomeOf(finding: ReportFinding, report: GuidanceReport<ReportIds>): Case["outcome"] {
  const sentence = `${findingSentence(finding, report)}. ${findingHint(finding)}`;
  return gates(finding, report)
    ? { element: "failure", type: finding.kind, message: sentence }
    : { element: "skipped", message: `review candidate: ${sentence}` };
}

/** One suite per profile: discovery, each required tool, each review candidate. */
export function profileSuites(report: GuidanceReport<ReportIds>): Suite[] {
  return report.profiles.map((profile) => {
    const cases: Case[] = [{
      name: "discovery",
      outcome: profile.complete ? undefined : {
        element: "error",
        type: profile.incomplete.reason,
        message: `${reasonText(profile.incomplete)}: ${incompleteExplanation(profile.incomplete)}`,
      },
    }];
    const drift = report.baseline?.profiles.find((entry) => entry.profile === profile.profile);
    if (drift?.compared) {
      cases.push({
        name: "baseline catalog",
        outcome: drifted(drift)
          ? { element: "skipped", message: `catalog drift: ${driftText(drift)}` }
          : undefined,
      });
    }
    if (report.complete) {
      const ofProfile = findingsOf(report).filter((f) => f.profile === profile.profile);
      const missing = (kind: ReportFinding["kind"], tool: string) =>
        ofProfile.find((f) => f.kind === kind && f.tool === tool);
      for (const tool of report.required_tools) {
        const defect = missing("required-tool-unavailable", tool);
        cases.push({
          name: `requires ${tool}`,
          outcome: defect && outcomeOf(defect, report),
        });
      }
      if (drift?.compared && report.baseline?.require_baseline_tools) {
        const kept = (profile.tools ?? []).filter((tool) => !drift.added.includes(tool));
        for (const tool of [...kept, ...drift.removed].sort()) {
          const defect = missing("baseline-tool-unavailable", tool);
          cases.push({
            name: `keeps baseline tool ${tool}`,
            outcome: defect && outcomeOf(defect, report),
          });
        }
      }
      for (const finding of ofProfile) {
        // A finding of a kind this version does not know: a case of its own, named by its kind.
        if (!knows(RULES, finding.kind)) {
          cases.push({
            name: `${finding.kind} ${finding.tool}`,
            outcome: outcomeOf(finding, report),
          });
          continue;
        }
        if (gates(finding, report)) continue; // defects have their own cases above
        cases.push({ name: `references ${finding.tool}`, outcome: outcomeOf(finding, report) });
      }
      for (const finding of report.baseline?.resolved ?? []) {
        if (finding.profile !== profile.profile) continue;
        if (finding.kind !== "referenced-tool-unavailable") continue;
        // The case that was skipped in the baseline's report passes now.
        cases.push({ name: `references ${finding.tool}` });
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

/** Suites as a JUnit XML document. */
export function junitXml(suites: readonly Suite[]): string {
  const count = (cases: readonly Case[], element?: string) =>
    cases.filter((c) => element === undefined || c.outcome?.element === element).length;
  const all = suites.flatMap((suite) => suite.cases);
  const totals = (cases: readonly Case[]) =>
    `tests="${count(cases)}" failures="${count(cases, "failure")}" errors="${
      count(cases, "error")
    }" skipped="${count(cases, "skipped")}"`;

  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="mcpeval guidance" ${totals(all)}>`,
  ];
  for (const { name, properties, cases } of suites) {
    const suite = xml(name);
    lines.push(`  <testsuite name="${suite}" ${totals(cases)}>`);
    lines.push("    <properties>");
    for (const [key, value] of properties) {
      lines.push(`      <property name="${xml(key)}" value="${xml(value)}"/>`);
    }
    lines.push("    </properties>");
    for (const { name, classname, outcome } of cases) {
      const open = `    <testcase classname="${
        classname === undefined ? suite : xml(classname)
      }" name="${xml(name)}"`;
      if (!outcome) {
        lines.push(`${open}/>`);
        continue;
      }
      const type = outcome.type === undefined ? "" : ` type="${xml(outcome.type)}"`;
      lines.push(
        `${open}>`,
        `      <${outcome.element}${type} message="${xml(outcome.message)}"/>`,
        "    </testcase>",
      );
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return lines.join("\n") + "\n";
}

/** The fleet report as JUnit XML. */
function fleetXml(fleet: FleetReport<ReportIds>): string {
  const suites: Suite[] = fleet.servers.map((server) => {
    const name = `mcpeval.${server.name}`;
    if (!server.checked) {
      return {
        name,
        properties: [["checked", "false"]],
        cases: [{
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
      cases: profileSuites(report).flatMap((suite, index) =>
        suite.cases.map((c) => ({
          ...c,
          name: `${report.profiles[index].profile}: ${c.name}`,
          classname: suite.name,
        }))
      ),
    };
  });
  return junitXml(suites);
}

/** The source as JUnit XML (a merge's fleet built whole). */
export function render(source: RenderSource): string {
  const run = wholeReport(source);
  return run.kind === "server" ? junitXml(profileSuites(run.report)) : fleetXml(run.fleet);
}
