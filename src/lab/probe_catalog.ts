/**
 * The probe catalogs the lab serves to real clients: one tool per case a client rule judges (or
 * that no rule judges yet), each with a description that carries its probe marker so that the
 * tool is found in the recorded model request under whatever name the client gave it.
 *
 * `main` is served as one server, `many` (150 plain tools) as another; each of the `root-*`
 * servers holds one plain tool and one tool whose `inputSchema` root is not `type: "object"`, so
 * that a client that refuses a whole server for one such tool is seen per tool.
 *
 * @module
 */

import { PROTOCOL_VERSIONS } from "../protocol/versions.ts";

type Json = Record<string, unknown>;

/** One probe tool as served (`tools/list` entry). */
export interface ProbeTool {
  /** The tool's name, exactly as served. */
  readonly name: string;
  /** Its `inputSchema` (any JSON: some probes break MCP's Tool shape on purpose). */
  readonly inputSchema: unknown;
  /** `_meta`, where the probe needs one. */
  readonly _meta?: Json;
}

/** One probe server: its label in the client's config, its tools, its instructions. */
export interface ProbeServer {
  /** The server label written in the client's config (short: qualified names stay short). */
  readonly label: string;
  /** The tools, in listing order. */
  readonly tools: readonly ProbeTool[];
  /** Server instructions (carry {@linkcode INSTRUCTIONS_MARKER}), or none. */
  readonly instructions?: string;
}

/** A token in the main server's instructions: found in a model request, the client showed them. */
export const INSTRUCTIONS_MARKER = "labinstr7c1";

/** The marker prefix in each probe tool's description (`labprobe` + index within its server). */
export const PROBE_MARKER = "labprobe";

const object = (properties: Json = { q: { type: "string" } }, extra: Json = {}) => ({
  type: "object",
  properties,
  ...extra,
});

/** A schema nested `levels` objects deep (past mcpeval's schema depth bound at 40). */
function deep(levels: number): Json {
  let schema: Json = { type: "string" };
  for (let level = 0; level < levels; level++) schema = object({ next: schema });
  return schema;
}

const large = () =>
  object(
    Object.fromEntries(
      Array.from({ length: 120 }, (_, k) => [`field_${k}`, { type: "string" }]),
    ),
  );

const named = (length: number) =>
  `n${length}_${"x".repeat(length - 1 - String(length).length - 1)}`;

/** The main probe server's tools. */
const MAIN_TOOLS: readonly ProbeTool[] = [
  { name: "plain", inputSchema: object() },
  {
    name: "root-any-of",
    inputSchema: object({ a: { type: "string" }, b: { type: "number" } }, {
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    }),
  },
  {
    name: "root-one-of",
    inputSchema: object({}, {
      oneOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "number" } }, required: ["b"] },
      ],
    }),
  },
  {
    name: "root-all-of",
    inputSchema: object({ a: { type: "string" } }, {
      allOf: [{ if: { required: ["a"] }, then: { properties: { a: { minLength: 1 } } } }],
    }),
  },
  { name: "unknown-type", inputSchema: object({ x: { type: "strng" } }) },
  {
    name: "ref-resolvable",
    inputSchema: object({ x: { $ref: "#/$defs/thing" } }, {
      $defs: { thing: { type: "string" } },
    }),
  },
  {
    name: "ref-unresolvable",
    inputSchema: object({ x: { $ref: "#/$defs/missing" } }, {
      $defs: { thing: { type: "string" } },
    }),
  },
  {
    name: "description-number",
    inputSchema: object({ x: { type: "string", description: 42 } }),
  },
  { name: "deep-schema", inputSchema: deep(40) },
  { name: "large-schema", inputSchema: large() },
  {
    name: "app-only",
    inputSchema: object(),
    _meta: { ui: { resourceUri: "ui://lab/app.html", visibility: ["app"] } },
  },
  { name: "get.user", inputSchema: object() },
  { name: "get_user", inputSchema: object() },
  { name: named(63), inputSchema: object() },
  { name: named(64), inputSchema: object() },
  { name: named(65), inputSchema: object() },
  { name: named(70), inputSchema: object() },
  { name: "has space", inputSchema: object() },
  { name: "café_tool", inputSchema: object() },
  { name: "no-properties", inputSchema: { type: "object" } },
];

const rootServer = (label: string, inputSchema: unknown): ProbeServer => ({
  label,
  tools: [{ name: "plain", inputSchema: object() }, { name: label, inputSchema }],
});

/** Every probe server, by catalog id (the id is also the server label). */
export const PROBE_SERVERS: Readonly<Record<string, ProbeServer>> = {
  main: {
    label: "main",
    tools: MAIN_TOOLS,
    instructions: `Call \`plain\` before any other tool. ${INSTRUCTIONS_MARKER}`,
  },
  // 150 tools: does the client cut a large server (the `max-tools` rules)?
  many: {
    label: "many",
    tools: Array.from({ length: 150 }, (_, k) => ({
      name: `tool_${String(k).padStart(3, "0")}`,
      inputSchema: object(),
    })),
  },
  "root-array": rootServer("root-array", { type: "array", items: { type: "string" } }),
  "root-untyped": rootServer("root-untyped", { properties: { q: { type: "string" } } }),
  "root-one-of-untyped": rootServer("root-one-of-untyped", {
    oneOf: [{ type: "object", properties: { a: { type: "string" } } }, {
      type: "object",
      properties: { b: { type: "string" } },
    }],
  }),
};

/** The catalog ids, in the order the lab configures them. */
export const PROBE_SERVER_IDS: readonly string[] = Object.keys(PROBE_SERVERS);

/** The marker of one probe tool: the server's letters and digits, and the tool's index. */
export const probeMarker = (server: string, index: number): string =>
  `${PROBE_MARKER}${server.replace(/[^a-z0-9]/g, "")}x${index}q`;

/** The description a probe tool is served with: its marker, so it is found whatever its name. */
export const probeDescription = (server: string, index: number): string =>
  `Lab probe tool. ${probeMarker(server, index)}`;

/**
 * The revision probe servers, by catalog id (also the server label): each answers only one
 * protocol revision and serves one plain tool. An `initialize` asking for another revision is
 * answered with the server's own (as the specification says); the 2026-07-28 server answers
 * `server/discover` and refuses `initialize` with `-32022` listing its revision (as a
 * modern-only server does); the others answer `server/discover` with `-32601`, as servers of
 * the initialize era do.
 */
export const REVISION_SERVERS: Readonly<Record<string, string>> = Object.fromEntries(
  PROTOCOL_VERSIONS.map((revision) => [`rev${revision.replaceAll("-", "")}`, revision]),
);

/** The one tool every revision probe server serves. */
export const REVISION_TOOL: ProbeTool = { name: "plain", inputSchema: object() };

/** The revision probe servers' ids, oldest revision first. */
export const REVISION_SERVER_IDS: readonly string[] = Object.keys(REVISION_SERVERS);
