/**
 * The probe catalogs the lab serves to real clients: one tool per case a client rule judges (or
 * that no rule judges yet), each with a description that carries its probe marker so that the
 * tool is found in the recorded model request under whatever name the client gave it.
 *
 * `main` is served as one server, `many` (150 plain tools) as another; each of the `root-*`
 * servers holds one plain tool and one tool whose `inputSchema` root is not `type: "object"`, so
 * that a client that refuses a whole server for one such tool is seen per tool; `paged` lists
 * its tools over three `tools/list` pages; `qualified-...` has a long label, so that a limit on
 * the label and the name together shows apart from one on the name alone.
 *
 * Every probe tool says what it decides ({@linkcode Decision}): the rule, effect and value that
 * reproduce what a client did when it did not send the tool. The decisions are data beside the
 * names, so that the derivation of a preset (`src/lab/derive.ts`) never reads a name: renaming
 * a probe server or tool changes no derived preset.
 *
 * @module
 */

import { PROTOCOL_VERSIONS } from "../protocol/versions.ts";
import type { RuleKindId } from "../clients/rules/registry.ts";
import { MODEL_VIEW_SERVERS } from "./probe_model_view.ts";

type Json = Record<string, unknown>;

import type { Decision, ProbeServer, ProbeTool } from "./probe_types.ts";
export type { Decision, ProbeServer, ProbeTool } from "./probe_types.ts";

export {
  INSTRUCTIONS_MARKER,
  instructionsHead,
  PROBE_MARKER,
  probeDescription,
  probeMarker,
} from "./probe_marker.ts";
import { INSTRUCTIONS_MARKER } from "./probe_marker.ts";

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

const flag = (
  rule: RuleKindId,
  value: string | true = true,
  alsoBy?: readonly RuleKindId[],
): Decision => ({ kind: "flag", rule, value, ...(alsoBy ? { alsoBy } : {}) });

/** A probe of a name of `length` characters. */
const long = (length: number): ProbeTool => ({
  name: named(length),
  inputSchema: object(),
  decides: { kind: "length", rule: "max-name-length", length, name: length },
});

/** The main probe server's tools. */
const MAIN_TOOLS: readonly ProbeTool[] = [
  { name: "plain", inputSchema: object() },
  {
    name: "root-any-of",
    inputSchema: object({ a: { type: "string" }, b: { type: "number" } }, {
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    }),
    decides: flag("schema-root-composition"),
  },
  {
    name: "root-one-of",
    inputSchema: object({}, {
      oneOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "number" } }, required: ["b"] },
      ],
    }),
    decides: flag("schema-root-composition"),
  },
  {
    name: "root-all-of",
    inputSchema: object({ a: { type: "string" } }, {
      allOf: [{ if: { required: ["a"] }, then: { properties: { a: { minLength: 1 } } } }],
    }),
    decides: flag("schema-root-composition"),
  },
  {
    name: "unknown-type",
    inputSchema: object({ x: { type: "strng" } }),
    decides: flag("schema-invalid", "draft-07"),
  },
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
    decides: flag("schema-unresolvable-ref"),
  },
  {
    name: "description-number",
    inputSchema: object({ x: { type: "string", description: 42 } }),
    // A client that validates schemas (schema-invalid, from unknown-type) refuses it too.
    decides: flag("schema-description-not-string", true, ["schema-invalid"]),
  },
  { name: "deep-schema", inputSchema: deep(40) },
  { name: "large-schema", inputSchema: large() },
  {
    name: "app-only",
    inputSchema: object(),
    _meta: { ui: { resourceUri: "ui://lab/app.html", visibility: ["app"] } },
    decides: flag("hide-app-only"),
  },
  // Both become `..._get_user` where a client replaces `.`: one is kept (indexes 11 and 12).
  {
    name: "get.user",
    inputSchema: object(),
    decides: { kind: "collision", partner: 12, unless: "^[^.]*$" },
  },
  { name: "get_user", inputSchema: object(), decides: { kind: "collision", partner: 11 } },
  long(63),
  long(64),
  long(65),
  long(70),
  {
    name: "has space",
    inputSchema: object(),
    decides: flag("name-characters", "^[^ ]*$"),
  },
  {
    name: "café_tool",
    inputSchema: object(),
    decides: flag("name-characters", "^[\\x00-\\x7F]*$"),
  },
  { name: "no-properties", inputSchema: { type: "object" } },
  // A dot in a name that collides with no other: refused only by a client that refuses dots.
  {
    name: "list.items",
    inputSchema: object(),
    decides: flag("name-characters", "^[^.]*$"),
  },
  // Both become `..._find_item` where a client replaces `/` (as every rewriting client observed
  // does, Gemini CLI too, which keeps `.`): one is kept (indexes 21 and 22).
  {
    name: "find/item",
    inputSchema: object(),
    decides: { kind: "collision", partner: 22, unless: "^[^/]*$" },
  },
  { name: "find_item", inputSchema: object(), decides: { kind: "collision", partner: 21 } },
  // A slash in a name that collides with no other once rewritten (`list.items` would become
  // `list_items`, as it does): refused only by a client that refuses slashes.
  {
    name: "show/entries",
    inputSchema: object(),
    decides: flag("name-characters", "^[^/]*$"),
  },
];

const rootServer = (label: string, inputSchema: unknown): ProbeServer => ({
  label,
  tools: [{ name: "plain", inputSchema: object() }, {
    name: label,
    inputSchema,
    decides: flag("schema-root-not-object"),
  }],
});

/**
 * The label of the server whose label and names are long together: 24 characters, so that a
 * client that cuts `mcp_LABEL_NAME` in the middle keeps `mcp_LABEL_` whole in the part before
 * the cut (Gemini CLI keeps 30: a cut name without it is no longer its trusted server's, and a
 * headless run leaves it out, which is the run's approval rule, not the client's limit).
 */
const QUALIFIED_LABEL = "qualified-length-probe-x";

/**
 * A probe of a name of `length` characters on the long-labelled server, told apart at its end
 * (`xx..._q28`): a client that cuts the label and name in the middle (Gemini CLI, at 63) keeps
 * them apart, so that only a limit on their length hides them.
 */
const qualified = (length: number): ProbeTool => ({
  name: `${"x".repeat(length - 2 - String(length).length)}_q${length}`,
  inputSchema: object(),
  decides: {
    kind: "length",
    rule: "max-qualified-name-length",
    length: QUALIFIED_LABEL.length + length,
    name: length,
  },
});

/**
 * The probe set of the version issue (issue 40), by catalog id (the id is also the server
 * label): what the older observations were made with.
 */
const BASE_PROBE_SERVERS: Readonly<Record<string, ProbeServer>> = {
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
      decides: { kind: "cap" },
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
  // Three pages of two tools: does the client read the pages after the first?
  paged: {
    label: "paged",
    pageSize: 2,
    tools: Array.from({ length: 6 }, (_, k) => ({
      name: `page${Math.floor(k / 2) + 1}_tool${k % 2}`,
      inputSchema: object(),
      decides: { kind: "page", page: Math.floor(k / 2) + 1 },
    })),
  },
  [QUALIFIED_LABEL]: {
    label: QUALIFIED_LABEL,
    tools: [{ name: "plain", inputSchema: object() }, ...[20, 36, 40, 44].map(qualified)],
  },
};

/**
 * Every probe server of the newest probe set, by catalog id (also the server label): the base
 * set, then what the model is shown (`probe_model_view.ts`, issue 41).
 */
export const PROBE_SERVERS: Readonly<Record<string, ProbeServer>> = {
  ...BASE_PROBE_SERVERS,
  ...MODEL_VIEW_SERVERS,
};

/** The catalog ids, in the order the lab configures them. */
export const PROBE_SERVER_IDS: readonly string[] = Object.keys(PROBE_SERVERS);

/** The probe servers in the order the lab configures them (an observation's `servers`). */
export const PROBE_CATALOG: readonly ProbeServer[] = PROBE_SERVER_IDS.map((id) =>
  PROBE_SERVERS[id]
);

/** The base probe set (issue 40), in its order: the older observations' `servers`. */
export const BASE_PROBE_CATALOG: readonly ProbeServer[] = Object.values(BASE_PROBE_SERVERS);

/** Every probe set an observation may have been made with, oldest first. */
export const PROBE_SETS: readonly (readonly ProbeServer[])[] = [BASE_PROBE_CATALOG, PROBE_CATALOG];

/**
 * The probe set an observation's `servers` were made with, told by their shape (each server's
 * label and how many tools it has, in order): one of {@linkcode PROBE_SETS}, or else, for an observation
 * made before probes were added (a rule kind's own, `RuleKind.probes`), the newest set's servers
 * it recorded, found by label, in the set's order: probes added since say nothing about it.
 * Undefined when it is neither.
 */
export function probeSetOf(
  servers: readonly { readonly label: string; readonly tools: readonly unknown[] }[],
): readonly ProbeServer[] | undefined {
  const known = PROBE_SETS.find((set) =>
    set.length === servers.length &&
    set.every((probe, at) =>
      probe.label === servers[at].label && probe.tools.length === servers[at].tools.length
    )
  );
  if (known) return known;
  const order = new Map(PROBE_CATALOG.map((probe, at) => [probe.label, at]));
  const at = servers.map((server) => order.get(server.label) ?? -1);
  const subset = at.every((index, k) =>
    index >= 0 && (k === 0 || index > at[k - 1]) &&
    PROBE_CATALOG[index].tools.length === servers[k].tools.length
  );
  return subset && servers.length > 0 ? at.map((index) => PROBE_CATALOG[index]) : undefined;
}

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

/**
 * A probe set's fingerprint (the newest by default): a short hash of every probe server's label,
 * tools (names, schemas, `_meta`, and the output schema and description of those that have
 * them), page size and instructions, and of the revision servers. An observation records it;
 * `mcpeval lab --all` observes again what was observed with none of the known sets.
 */
export async function probeSetId(catalog: readonly ProbeServer[] = PROBE_CATALOG): Promise<string> {
  const text = JSON.stringify([
    catalog.map(({ label, tools, instructions, pageSize }) => [
      label,
      instructions ?? null,
      pageSize ?? null,
      tools.map((t) =>
        t.outputSchema === undefined && t.description === undefined
          ? [t.name, t.inputSchema, t._meta ?? null]
          : [t.name, t.inputSchema, t._meta ?? null, t.outputSchema ?? null, t.description ?? null]
      ),
    ]),
    REVISION_SERVER_IDS,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 6)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** The fingerprints of every known probe set ({@linkcode PROBE_SETS}), oldest first. */
export function knownProbeSetIds(): Promise<string[]> {
  return Promise.all(PROBE_SETS.map((set) => probeSetId(set)));
}
