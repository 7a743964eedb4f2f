/**
 * The goals the bench holds its cases to, each stated once: the goal column of `deno task bench`
 * (scripts/bench.ts and the benches it runs) reads them, and `tests/bench_goals_test.ts` checks
 * the tables of docs/performance.md against them. Each goal names the row it belongs to by the
 * start of that row's case.
 *
 * @module
 */

/** One goal: what it asks, and the row of the bench's table it is the goal of. */
export interface Goal {
  /** As the goal column writes it: `≤ 1.03x`, `< 2 s, < 200 MiB`. */
  readonly goal: string;
  /** The start of its row's case, as the bench writes it. */
  readonly row: string;
}

/** Every goal of the bench, by case. */
export const GOALS = {
  /** Five profiles at once against the floor of five server processes fed without mcpeval. */
  fiveProfiles: {
    goal: "≤ 1.03x",
    row: "1. floor: the same 5 server processes at once",
  },
  /** Five profiles against the MCP Inspector CLI listing tools once. */
  inspector: { goal: "< 1.00x", row: "2. MCP Inspector CLI" },
  /** 10,000 large tools under the five profiles. */
  largeTools: { goal: "< 2 s, < 250 MB", row: "3. 10,000 large tools" },
  /** The same with the binaries' V8 flag. */
  largeToolsTuned: { goal: "< 2 s, < 250 MB", row: "3. the same with `--v8-flags" },
  /** A hostile input at a bound: peak memory. */
  emptyObjects: { goal: "< 1 GiB", row: "3. 5 profiles of 20 million `{}`" },
  /** Nested arrays in one line. */
  nesting: { goal: "< 1 GiB", row: "3. 5 profiles of 30 million nested arrays" },
  /** A line at the message bound. */
  lineAtLimit: { goal: "< 1 GiB", row: "3. 5 profiles of one 64 MiB stdio line" },
  /** A gzip bomb over HTTP. */
  gzipBomb: { goal: "< 1 GiB", row: "3. 5 profiles of a gzip bomb" },
  /** A baseline with many resolved findings. */
  largeBaseline: { goal: "< 1 GiB", row: "3. a baseline with" },
  /** `mcpeval --version` against an empty script. */
  version: { goal: "≤ 1.50x", row: "4. `mcpeval --version`" },
  /** `mcpeval schema guidance` against an empty script. */
  schema: { goal: "≤ 1.50x", row: "4. `mcpeval schema guidance`" },
  /** A whole run on a minimal server against the server fed without mcpeval. */
  minimalRun: { goal: "≤ 1.50x", row: "4. `mcpeval guidance` start to finish" },
  /** Five profiles over Streamable HTTP against one. */
  http: { goal: "≤ 1.30x", row: "5. Streamable HTTP, 5 profiles" },
  /** Ten slow servers at once against one. */
  slowFleet: { goal: "≤ 1.50x", row: "8. `--config`: 10 servers each taking 1 s" },
  /** 100 servers against their floor. */
  hundredServers: { goal: "≤ 1.20x", row: "9. `--config`: 100 servers" },
  /** The same 100 servers: peak memory. */
  hundredServersMemory: { goal: "< 200 MiB", row: "9. the same 100 servers: mcpeval's peak" },
  /** Merging four shard reports. */
  mergeFour: { goal: "< 1 s", row: "9. `merge` of those 4 shard reports" },
  /** Merging the reports of 1,000 servers. */
  mergeThousand: { goal: "< 2 s", row: "9. `merge` of 8 shard reports of 1,000 servers" },
  /** Merging eight large reports: peak memory. */
  mergeMemory: { goal: "< 600 MiB", row: "9. `merge` of 8 shard reports of" },
  /** The same merge in every format in one run (json on stdout, the others to files). */
  mergeMemoryAll: { goal: "< 1 GiB", row: "9. `merge` of 8 shard reports in every format at once" },
  /** SIGINT during a merge's render, in each format. */
  mergeInterrupt: { goal: "< 1 s, exit 130", row: "9. SIGINT a second into that merge's render" },
  /** `--observe` on the demo server against the client's headless run alone. */
  observe: { goal: "≤ 1.20x, < 60 s", row: "10. `--observe" },
  /** Every client preset (and the five profiles) over 10,000 realistic tools. */
  everyPreset: { goal: "< 2 s, < 200 MiB", row: "9. 10,000 realistic tools" },
} as const satisfies Readonly<Record<string, Goal>>;
