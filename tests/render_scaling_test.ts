/**
 * Every format renders in time linear in the findings (issue 39): rendering 2N findings costs
 * at most 2.5x the work of N, for hostile shapes the schema accepts (N identical candidates, N
 * distinct tools and required tools, N profiles, N findings of kinds a later version writes, N
 * servers). Work is counted, never timed: the elements that arrays hand out (iteration, spread,
 * `filter`, `find`, `includes`, `indexOf`, `join`, ...) and the comparator calls of `sort`, with
 * Array.prototype instrumented while the render runs, so that the figures do not depend on the
 * machine's speed.
 */
import assert from "node:assert/strict";
import { buildReport } from "../src/report/build.ts";
import { buildFleetReport } from "../src/report/fleet/build.ts";
import { type FormatId, FORMATS, loadFormats } from "../src/report/formats/mod.ts";
import type { RenderSource } from "../src/report/run.ts";
import type { GuidanceReport, ReportIds } from "../src/report/types.ts";
import type { ProfileLabel } from "../src/profiles.ts";
import { outcome } from "./_outcomes.ts";

/** A real report: `none` names `beta` but lists only `alpha`; `beta` is required. */
function baseReport(server = "s"): GuidanceReport {
  const profiles: ProfileLabel[] = ["none", "elicitation"];
  return buildReport(
    {
      server,
      requiredTools: ["beta"],
      settleMs: 0,
      timeoutMs: 1_000,
      target: { kind: "stdio" },
      protocolVersion: "2025-06-18",
      profiles,
    },
    [outcome("none", ["alpha"], ["beta"]), outcome("elicitation", ["alpha", "beta"], [])],
  );
}

/** The hostile shapes, each a render source of `n` findings (or servers). */
const SHAPES: Record<string, (n: number) => RenderSource> = {
  "identical candidates (one tool, one profile)": (n) => {
    const report = baseReport();
    return { kind: "server", report: { ...report, candidates: repeat(n, report.candidates[0]) } };
  },
  "distinct candidates and missing required tools": (n) => {
    const report = baseReport();
    const [candidate] = report.candidates;
    const [defect] = report.defects;
    return {
      kind: "server",
      report: {
        ...report,
        passed: false,
        required_tools: Array.from({ length: n }, (_, i) => `r${i}`),
        candidates: Array.from({ length: n }, (_, i) => ({ ...candidate, tool: `t${i}` })),
        // Listed nowhere: each asks for a likely tool (`did you mean`).
        defects: Array.from(
          { length: n },
          (_, i) => ({ ...defect, tool: `r${i}`, available_in: [] }),
        ),
      },
    };
  },
  "a profile per candidate": (n) => {
    const report = baseReport();
    const [none, elicitation] = report.profiles;
    const [candidate] = report.candidates;
    const labels = Array.from({ length: n }, (_, i) => `p${i}` as ProfileLabel);
    return {
      kind: "server",
      report: {
        ...report,
        defects: [],
        required_tools: [],
        profiles: [...labels.map((profile) => ({ ...none, profile })), elicitation],
        candidates: labels.map((profile) => ({ ...candidate, profile })),
      },
    };
  },
  "findings of kinds a later version writes (a merge's server)": (n) => {
    const report: GuidanceReport<ReportIds> = baseReport();
    const [candidate] = report.candidates;
    const [defect] = report.defects;
    const later: GuidanceReport<ReportIds> = {
      ...report,
      passed: false,
      candidates: Array.from({ length: n }, (_, i) => ({
        ...candidate,
        kind: "later-candidate",
        tool: `t${i}`,
      })),
      // Whether each gates is whether it is one of the report's defects.
      defects: Array.from({ length: n }, (_, i) => ({
        ...defect,
        kind: "later-defect",
        tool: `r${i}`,
      })),
    };
    const fleet = buildFleetReport("mcpServers", [{ name: "s", report: baseReport() }]);
    const servers = [{ name: "s", checked: true as const, report: later }];
    return {
      kind: "merge",
      fleet: {
        ...fleet,
        passed: false,
        servers: { [Symbol.iterator]: () => servers[Symbol.iterator]() },
      },
    };
  },
  "servers of a merge": (n) => {
    const report = baseReport();
    const fleet = buildFleetReport(
      "mcpServers",
      Array.from(
        { length: n },
        (_, i) =>
          i % 4 === 3
            ? { name: `s${i}`, reason: "disabled" as const }
            : { name: `s${i}`, report: { ...report, server: `s${i}` } },
      ),
    );
    return {
      kind: "merge",
      fleet: { ...fleet, servers: { [Symbol.iterator]: () => fleet.servers[Symbol.iterator]() } },
    };
  },
};

function repeat<T>(n: number, item: T): T[] {
  return Array.from({ length: n }, () => item);
}

/** The Array.prototype methods that visit elements, counted by the length they are called on. */
const VISITING = [
  "concat",
  "every",
  "fill",
  "filter",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "flat",
  "flatMap",
  "forEach",
  "includes",
  "indexOf",
  "join",
  "lastIndexOf",
  "map",
  "reduce",
  "reduceRight",
  "reverse",
  "slice",
  "some",
  "splice",
  "toSorted",
] as const;

// deno-lint-ignore no-explicit-any
type AnyFunction = (this: any, ...args: any[]) => any;

/**
 * The work `run` does on arrays: every element their iterators hand out (for-of, spread, array
 * destructuring), the length of every array a visiting method is called on, every item pushed,
 * and every comparator call of `sort` (a sort without one counts its length).
 */
function arrayWork(run: (counted: () => number) => void): number {
  const proto = Array.prototype as unknown as Record<PropertyKey, unknown>;
  const saved = new Map<PropertyKey, unknown>();
  let work = 0;
  const patch = (key: PropertyKey, make: (original: AnyFunction) => AnyFunction) => {
    saved.set(key, proto[key]);
    Object.defineProperty(proto, key, {
      value: make(proto[key] as AnyFunction),
      writable: true,
      configurable: true,
      enumerable: false,
    });
  };
  patch(Symbol.iterator, () =>
    function* (this: unknown[]) {
      for (let at = 0; at < this.length; at++) {
        work++;
        yield this[at];
      }
    });
  for (const name of VISITING) {
    patch(name, (original) =>
      function (this: unknown[], ...args: unknown[]) {
        work += this.length;
        return original.apply(this, args);
      });
  }
  patch("push", (original) =>
    function (this: unknown[], ...items: unknown[]) {
      work += items.length;
      return original.apply(this, items);
    });
  patch(
    "sort",
    (original) =>
      function (this: unknown[], compare?: (a: unknown, b: unknown) => number) {
        if (compare === undefined) {
          work += this.length;
          return original.call(this);
        }
        return original.call(this, (a: unknown, b: unknown) => {
          work++;
          return compare(a, b);
        });
      },
  );
  try {
    run(() => work);
  } finally {
    for (const [key, value] of saved) {
      Object.defineProperty(proto, key, {
        value,
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
  }
  return work;
}

/** The size of the smaller render: large enough that a quadratic step would dominate. */
const N = 2_000;

Deno.test("every format renders 2N findings with at most 2.5x the work of N (hostile shapes)", async () => {
  const formats: FormatId[] = [...FORMATS, "summary"];
  const modules = await loadFormats(formats);
  for (const [shape, source] of Object.entries(SHAPES)) {
    for (const format of formats) {
      const render = modules.get(format)!.render;
      const sources = [source(N), source(2 * N)];
      const [small, large] = sources.map((input) =>
        arrayWork(() => {
          const rendered = render(input, { color: false });
          if (typeof rendered !== "string") { for (const _ of rendered) { /* every piece */ } }
        })
      );
      const ratio = large / small;
      assert.ok(ratio <= 2.5, `${format}, ${shape}: ${small} then ${large} (${ratio.toFixed(2)}x)`);
    }
  }
});

Deno.test("the work counter counts a quadratic step as quadratic", () => {
  const grouped = (n: number) =>
    arrayWork(() => {
      let group: number[] = [];
      for (let i = 0; i < n; i++) group = [...group, i];
    });
  assert.ok(grouped(2 * N) / grouped(N) > 3.5);
  const sorted = (n: number) =>
    arrayWork(() => void Array.from({ length: n }, (_, i) => (i * 7919) % n).sort((a, b) => a - b));
  assert.ok(sorted(2 * N) / sorted(N) < 2.5);
});

Deno.test("every format renders a merge in pieces whose work does not grow with the servers (a signal is acted on between them)", async () => {
  const formats: FormatId[] = [...FORMATS, "summary"];
  const modules = await loadFormats(formats);
  for (const format of formats) {
    const render = modules.get(format)!.render;
    // The most work between two pieces: a pass over the servers that yields nothing grows with N.
    const [small, large] = [N, 4 * N].map((n) => {
      const source = SHAPES["servers of a merge"](n);
      let most = 0;
      arrayWork((counted) => {
        let last = counted();
        for (const _ of render(source, { color: false })) {
          most = Math.max(most, counted() - last);
          last = counted();
        }
      });
      return most;
    });
    assert.ok(large <= 1.5 * small, `${format}: at most ${small} between pieces, then ${large}`);
  }
});
