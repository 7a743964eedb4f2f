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

type Json = Record<string, unknown>;

/**
 * What a probe tool that the client did not send says about the client:
 *
 * - `flag`: the rule `rule` with `value` hides it (unless a rule of `alsoBy`, already derived
 *   from another probe, hides it too); effect `drop-tool`, or `drop-server` when none of the
 *   server's tools was sent.
 * - `length`: a limit on the name's length (`max-name-length`) or on the label and the name
 *   together (`max-qualified-name-length`), `length` being the probe's; the value is one less
 *   than the shortest such probe that was not sent.
 * - `collision`: it shares its rewritten name with the probe `partner` (an index in its server):
 *   when exactly one of the two was not sent, `name-collision`, keeping the first or the last
 *   (unless the `name-characters` pattern `unless`, derived from another probe, hides it).
 * - `cap`: one of a server of many tools: not sent from position N on, the client sends the
 *   first N (`max-tools`, `truncate`); none sent, it refuses the server (`refuse-server`).
 * - `page`: on page `page` of a paged listing: not sent from a page on, the client reads only
 *   the pages before it (`max-pages`).
 * - `none`: no rule judges it (a plain tool): not sent, no preset can say so.
 */
export type Decision =
  | {
    readonly kind: "flag";
    /** A rule kind's id (`src/clients/rules/registry.ts`). */
    readonly rule: string;
    readonly value: string | true;
    readonly alsoBy?: readonly string[];
  }
  | {
    readonly kind: "length";
    readonly rule: "max-name-length" | "max-qualified-name-length";
    /** The length the rule compares: the name's, or the label's and the name's together. */
    readonly length: number;
    /** The name's own length (a `max-name-length` below it explains a qualified probe). */
    readonly name: number;
  }
  | {
    readonly kind: "collision";
    readonly partner: number;
    /** A `name-characters` pattern that, derived from another probe, hides it too. */
    readonly unless?: string;
  }
  | { readonly kind: "cap" }
  | { readonly kind: "page"; readonly page: number }
  | { readonly kind: "none" };

/** One probe tool as served (`tools/list` entry). */
export interface ProbeTool {
  /** The tool's name, exactly as served. */
  readonly name: string;
  /** Its `inputSchema` (any JSON: some probes break MCP's Tool shape on purpose). */
  readonly inputSchema: unknown;
  /** `_meta`, where the probe needs one. */
  readonly _meta?: Record<string, unknown>;
  /** A description served after the marker (held-out catalogs keep their own; probes have none). */
  readonly description?: string;
  /** What a client that does not send it shows (absent: `none`). */
  readonly decides?: Decision;
}

/** One probe server: its label in the client's config, its tools, its instructions. */
export interface ProbeServer {
  /** The server label written in the client's config (short: qualified names stay short). */
  readonly label: string;
  /** The tools, in listing order. */
  readonly tools: readonly ProbeTool[];
  /** Server instructions (carry {@linkcode INSTRUCTIONS_MARKER}), or none. */
  readonly instructions?: string;
  /** How many tools one `tools/list` page holds (absent: every tool on one page). */
  readonly pageSize?: number;
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

/** The catalog ids, in the order the lab configures them. */
export const PROBE_SERVER_IDS: readonly string[] = Object.keys(PROBE_SERVERS);

/** The probe servers in the order the lab configures them (an observation's `servers`). */
export const PROBE_CATALOG: readonly ProbeServer[] = PROBE_SERVER_IDS.map((id) =>
  PROBE_SERVERS[id]
);

/** The marker of one probe tool: the server's letters and digits, and the tool's index. */
export const probeMarker = (server: string, index: number): string =>
  `${PROBE_MARKER}${server.replace(/[^a-z0-9]/g, "")}x${index}q`;

/**
 * The description a probe tool is served with: its marker first (a client that cuts a long
 * description keeps it), so it is found whatever its name; then the tool's own, if any.
 */
export const probeDescription = (server: string, index: number, own?: string): string =>
  own === undefined
    ? `Lab probe tool. ${probeMarker(server, index)}`
    : `${probeMarker(server, index)} ${own}`;

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
 * The probe set's fingerprint: a short hash of every probe server's label, tools (names,
 * schemas, `_meta`), page size and instructions, and of the revision servers. An observation
 * records it; `mcpeval lab --all` observes again what was observed with another probe set.
 */
export async function probeSetId(): Promise<string> {
  const text = JSON.stringify([
    PROBE_SERVER_IDS.map((id) => {
      const { label, tools, instructions, pageSize } = PROBE_SERVERS[id];
      return [
        label,
        instructions ?? null,
        pageSize ?? null,
        tools.map((t) => [
          t.name,
          t.inputSchema,
          t._meta ?? null,
        ]),
      ];
    }),
    REVISION_SERVER_IDS,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 6)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
