/**
 * What a client rule kind is: its id, how its value is read, the per-tool fact it needs
 * (extracted while a `tools/list` page is parsed, before the raw tool is dropped), which tools
 * it judges, and what the client then does. One module per kind, registered in `registry.ts`.
 *
 * @module
 */

/** What a client does with a tool a rule judges: leave it out, leave out the server, or fail. */
export type ToolEffect = "drop-tool" | "drop-server" | "reject-request";

/** What a client does past its tool cap: send the first N, refuse the server, or only warn. */
export type CapEffect = "truncate" | "refuse-server" | "warn";

/** Any rule's effect. */
export type RuleEffect = ToolEffect | CapEffect;

/** Every effect, in one list (the report's vocabulary). */
export const RULE_EFFECTS = [
  "drop-tool",
  "drop-server",
  "reject-request",
  "truncate",
  "refuse-server",
  "warn",
] as const satisfies readonly RuleEffect[];

/** The effects of a rule that judges single tools; the first is the default. */
export const TOOL_EFFECTS = [
  "drop-tool",
  "drop-server",
  "reject-request",
] as const satisfies readonly [
  ToolEffect,
  ...ToolEffect[],
];

/** Effects that make every tool of the server unreachable in that client. */
export const WHOLE_SERVER_EFFECTS: ReadonlySet<RuleEffect> = new Set([
  "drop-server",
  "reject-request",
  "refuse-server",
]);

type Json = Record<string, unknown>;

/** The bounded facts the catalog keeps of one listed tool (never its schema or description). */
export interface ToolFacts {
  /** The tool's name, as served (rules judge it; it is not always a valid tool identifier). */
  readonly name: string;
  /**
   * A name that is not a valid tool identifier: how everything past the rules names the tool
   * (the fixed phrase and its position in the catalog, `invalidNameKey`); absent otherwise.
   */
  readonly key?: string;
  /** Marked as visible to apps only (`_meta.ui.visibility` without `"model"`). */
  readonly appOnly: boolean;
  /** The `tools/list` page that listed it (1 for the first; absent: not known, the first). */
  readonly page?: number;
  /** Values of the fact extractors the selected rules asked for, by extractor id. */
  readonly facts: Readonly<Record<string, unknown>>;
}

/** A per-tool fact a rule needs, computed from the raw tool while its page is parsed. */
export interface FactExtractor {
  /** The fact's id (the key in {@linkcode ToolFacts.facts}). */
  readonly id: string;
  /** Loads what the extractor needs (a validator), once, before any page is parsed. */
  readonly prepare?: () => Promise<void>;
  /**
   * The fact of one tool that is valid for MCP's Tool shape, or that a client profile reads
   * although it is not (an object `inputSchema` whose root `type` is not `"object"`, a name that
   * is not a valid identifier); small and bounded.
   */
  readonly extract: (tool: Json) => unknown;
}

/** One rule of a preset, as validated: its kind's id, value, effect and evidence. */
export interface ParsedRule {
  /** The rule kind's id. */
  readonly id: string;
  /** A count or length, a pattern, a scheme name, a list of names, or `true`. */
  readonly value: number | string | boolean | readonly string[];
  /** `max-qualified-name-length`, `api-name-length`: what joins the server label and the name. */
  readonly separator?: string;
  /** `api-name-length`: what the client puts before the name (`mcp__`). */
  readonly prefix?: string;
  /** `api-max-tools`: how many tools of its own the client sends before the servers'. */
  readonly builtin?: number;
  /** What the client does with the tools the rule judges. */
  readonly effect: RuleEffect;
  /** Where the fact comes from (a URL). */
  readonly source: string;
  /** When the source was read (YYYY-MM-DD). */
  readonly verified_at: string;
  /** The lab's observation that shows it, where one does (it wins over a read source). */
  readonly observed?: ObservedRef;
}

/** A lab observation a fact rests on (`src/clients/observed/CLIENT@VERSION.json`). */
export interface ObservedRef {
  /** The client (preset name). */
  readonly client: string;
  /** Its version, as run. */
  readonly version: string;
  /** The day observed (YYYY-MM-DD). */
  readonly date: string;
  /** The probe that shows it (`SERVER/TOOL` of the lab's probe catalog). */
  readonly probe: string;
}

/** What a rule sees of the run besides the catalog. */
export interface RuleContext {
  /** The server label (`--server`, or the config entry's name). */
  readonly server: string;
  /** How many tools the client already took from servers before this one (tool caps). */
  readonly toolsBefore: number;
}

/**
 * A probe that decides a rule kind, served by the lab (`src/lab/probe_model_view.ts`): a server
 * of its own, labelled `label`, holding a plain tool and a probe tool named `label` with these
 * schemas. A client that sends the plain tool and not the probe has the rule with `value`
 * (effect `drop-tool`); one that sends neither, with `drop-server`.
 */
export interface RuleProbe {
  /** The server's label and the probe tool's name (short: qualified names stay short). */
  readonly label: string;
  /** The probe tool's `inputSchema` (absent: an object of one string property). */
  readonly inputSchema?: unknown;
  /** Its `outputSchema`, if any (any JSON: some break MCP's Tool shape on purpose). */
  readonly outputSchema?: unknown;
  /** The rule's value the probe shows. */
  readonly value: string | true;
}

/** One rule kind. */
export interface RuleKind {
  /** The id used in preset data and reports. */
  readonly id: string;
  /**
   * What it checks, as a fixed phrase about the tool it judges ("its name is longer than the
   * client accepts"): reports say it with the rule's id, so that a finding says which check hid
   * the tool.
   */
  readonly check: string;
  /** The effects its data may name; the first is the default when the data names none. */
  readonly effects: readonly [RuleEffect, ...RuleEffect[]];
  /** Whether it counts tools (applied after every other rule, to what they left). */
  readonly cap?: boolean;
  /**
   * Whether `value` is of the kind this rule takes, or why not: a fixed phrase that follows the
   * field's path (`is a pattern longer than ...`), never text from the value.
   */
  readonly validValue: (value: unknown, rule: Json) => boolean | string;
  /** The per-tool fact it needs beyond name and app-only, if any. */
  readonly fact?: FactExtractor;
  /**
   * The probes that decide it, each a server of its own, served by the lab after the probes of
   * `src/lab/probe_catalog.ts` (absent: those decide it, or no probe does).
   */
  readonly probes?: readonly RuleProbe[];
  /** Loads what applying it needs (a regular-expression engine), once per run. */
  readonly prepare?: () => Promise<void>;
  /** The tools it judges, in listing order (for a cap: the tools past it). */
  readonly judge: (
    rule: ParsedRule,
    tools: readonly ToolFacts[],
    context: RuleContext,
  ) => readonly string[];
}

/** A positive safe integer (counts and lengths). */
export const isCount = (value: unknown): boolean =>
  Number.isSafeInteger(value) && (value as number) > 0;

/** The judge of a yes-or-no fact: the tools whose fact `id` is true, in listing order. */
export function toolsWithFact(id: string): RuleKind["judge"] {
  return (_rule, tools) => tools.filter((tool) => tool.facts[id] === true).map((tool) => tool.name);
}
