/**
 * The probe servers of what the model is shown (SPEC 25), served after the probe set of the
 * version issue (`probe_catalog.ts`), which older observations keep:
 *
 * - instructions of several lengths, each server with its own, to find the cut precisely
 *   (40,000, 12,000, 4,097 and 4,096 characters: per server or in total), one of multibyte text
 *   (the unit of the cut: UTF-16 units, code points or bytes), one whose code span the cut at
 *   4,096 splits and one where that cut creates a span; every text is position markers
 *   (`p000123` at offset 123), so that the kept prefix is measured exactly;
 * - descriptions of several lengths (the description cut), and one of multibyte text;
 * - the probes the rule kinds declare (`RuleKind.probes` of `src/clients/rules/`: `outputSchema`
 *   variants, a property of unknown type, another invalid keyword, an array root, boolean
 *   sub-schemas, `$schema` draft-07 and 2020-12, and input schemas with `$schema` draft-07 and
 *   a draft-07-only tuple `items`), each on a server of its own beside a plain tool, so that a
 *   client that refuses the whole server is seen;
 * - tools named as the clients' own built-in tools are (`write_file`, `Read`, `bash`, ...).
 *
 * Every probe tool says what it decides, as in `probe_catalog.ts`.
 *
 * @module
 */
import type { Decision, ProbeServer, ProbeTool } from "./probe_types.ts";
import { instructionsHead, probeMarker } from "./probe_marker.ts";
import { RULE_KINDS } from "../clients/rules/registry.ts";
import type { RuleKind } from "../clients/rules/kind.ts";

type Json = Record<string, unknown>;

const object = (properties: Json = { q: { type: "string" } }, extra: Json = {}) => ({
  type: "object",
  properties,
  ...extra,
});

const plain = (): ProbeTool => ({ name: "plain", inputSchema: object() });

const flag = (rule: string, value: string | true = true): Decision => ({
  kind: "flag",
  rule,
  value,
});

/** A position marker: `p` and the offset it starts at, then a space (8 characters). */
const segment = (offset: number) => `p${String(offset).padStart(6, "0")} `;

/** `text` padded with position markers to exactly `to` characters. */
function pad(text: string, to: number): string {
  let out = text;
  while (out.length < to) out += segment(out.length);
  return out.slice(0, to);
}

/** Position markers of exactly `length` characters, ending with a letter. */
const filled = (length: number) => pad("", length - 1) + "z";

/**
 * A probe text of exactly `length` UTF-16 units: `head`, position markers, each insert at its
 * offset, ending with a letter (a client that trims keeps every character).
 */
export function probeText(
  head: string,
  length: number,
  inserts: readonly (readonly [number, string])[] = [],
): string {
  let out = `${head} `;
  for (const [at, insert] of inserts) out = pad(out, at) + insert;
  return pad(out, length - 1) + "z";
}

/** Multibyte text: `head` (padded to an even length) and `count` emoji of two UTF-16 units. */
export function multibyteText(head: string, count: number): string {
  const start = head.length % 2 === 0 ? `${head} .` : `${head} `;
  return start + "\u{1F600}".repeat(count);
}

/** The cut the instruction probes are placed around (Claude Code's, observed in issue 41). */
const CUT = 4096;

/** A server with instructions and one plain tool. */
const instructed = (label: string, instructions: string): ProbeServer => ({
  label,
  instructions,
  tools: [plain()],
});

/** The instruction probe servers, by id (also the label). */
const INSTRUCTION_SERVERS: Readonly<Record<string, ProbeServer>> = Object.fromEntries(
  [
    ...[40_000, 12_000, CUT + 1, CUT].map((length) => {
      const id = `i${length}`;
      return [id, instructed(id, probeText(instructionsHead(id), length))] as const;
    }),
    // 3,000 emoji: 6,000 UTF-16 units, 3,000 code points, 12,000 bytes in UTF-8.
    ["imulti", instructed("imulti", multibyteText(instructionsHead("imulti"), 3_000))],
    // A code span from before the cut to after it: `cut_str_tool`, cut as `cut_st.
    [
      "isplit",
      instructed(
        "isplit",
        probeText(instructionsHead("isplit"), 4_300, [[CUT - 8, " `cut_str_tool` "]]),
      ),
    ],
    // ``pre `span_tool` post``: cut after `span_tool`, the double backticks have no closer and
    // `span_tool` becomes a span of its own.
    [
      "inew",
      instructed(
        "inew",
        probeText(instructionsHead("inew"), 4_300, [[CUT - 18, " ``pre `span_tool` post`` "]]),
      ),
    ],
  ],
);

/** The description probe server's id (also its label). */
const DESCRIPTIONS = "descs";

/** A tool whose served description (its marker first) is exactly `length` UTF-16 units. */
function described(index: number, length: number): ProbeTool {
  const marker = probeMarker(DESCRIPTIONS, index);
  return {
    name: `d${length}`,
    inputSchema: object(),
    description: filled(length - marker.length - 1),
  };
}

const DESCRIPTION_TOOLS: readonly ProbeTool[] = [
  ...[2_048, CUT, CUT + 1, 10_000].map((length, index) => described(index, length)),
  {
    name: "dmulti",
    inputSchema: object(),
    description: "\u{1F600}".repeat(3_000),
  },
];

/** A server of a plain tool and one probe tool named as its label. */
const beside = (
  label: string,
  probe: Omit<ProbeTool, "name" | "inputSchema"> & { inputSchema?: unknown },
): ProbeServer => ({
  label,
  tools: [plain(), { name: label, inputSchema: object(), ...probe }],
});

/**
 * The schema probe servers, by id (also the label and the probe tool's name): the probes each
 * rule kind declares (`RuleKind.probes`), in the registry's order.
 */
const SCHEMA_SERVERS: Readonly<Record<string, ProbeServer>> = Object.fromEntries(
  Object.values(RULE_KINDS).flatMap((kind: RuleKind) =>
    (kind.probes ?? []).map(({ label, inputSchema, outputSchema, value }) =>
      beside(label, {
        ...(inputSchema === undefined ? {} : { inputSchema }),
        ...(outputSchema === undefined ? {} : { outputSchema }),
        decides: flag(kind.id, value),
      })
    )
  ).map((server) => [server.label, server]),
);

/**
 * Names of the clients' own tools, as the lab saw them declared (Gemini CLI and Qwen Code,
 * Continue CLI, Copilot CLI): a client that names an MCP tool as it is served may shadow it.
 */
export const BUILTIN_NAMES: readonly string[] = [
  "write_file",
  "read_file",
  "replace",
  "run_shell_command",
  "glob",
  "grep_search",
  "list_directory",
  "web_fetch",
  "google_web_search",
  "Read",
  "Write",
  "Edit",
  "Bash",
  "List",
  "bash",
  "edit",
  "view",
];

/** The built-in names server: a plain tool, then one tool per built-in name. */
const BUILTINS: ProbeServer = {
  label: "builtins",
  tools: [
    plain(),
    ...BUILTIN_NAMES.map((name) => ({
      name,
      inputSchema: object(),
      decides: { kind: "builtin", name } as const,
    })),
  ],
};

/** Every probe server of what the model is shown, by id (also the label), in served order. */
export const MODEL_VIEW_SERVERS: Readonly<Record<string, ProbeServer>> = {
  ...INSTRUCTION_SERVERS,
  [DESCRIPTIONS]: { label: DESCRIPTIONS, tools: DESCRIPTION_TOOLS, measuresDescriptions: true },
  ...SCHEMA_SERVERS,
  builtins: BUILTINS,
};
