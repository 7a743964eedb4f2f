/**
 * The fleet JUnit renderer: one test suite per server, its cases named by profile; a server
 * not checked is a suite with one errored `configuration` case.
 *
 * @module
 */
import { junitXml, profileSuites, type Suite } from "../junit.ts";
import { notCheckedText } from "./phrases.ts";
import type { FleetReport } from "./types.ts";

/** The fleet report as JUnit XML. */
export function renderFleetJunit(fleet: FleetReport): string {
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
            message: `${notCheckedText(server)}: ${server.hint}`,
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
