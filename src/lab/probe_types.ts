/**
 * The shape of the lab's probe catalogs: a probe server, its tools and what each decides
 * (`probe_catalog.ts`, `probe_model_view.ts`).
 *
 * @module
 */
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
 * - `builtin`: named as one of the client's own tools (`name`): the names of those not sent make
 *   a `builtin-name` rule.
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
  | { readonly kind: "builtin"; readonly name: string }
  | { readonly kind: "none" };

/** One probe tool as served (`tools/list` entry). */
export interface ProbeTool {
  /** The tool's name, exactly as served. */
  readonly name: string;
  /** Its `inputSchema` (any JSON: some probes break MCP's Tool shape on purpose). */
  readonly inputSchema: unknown;
  /** `_meta`, where the probe needs one. */
  readonly _meta?: Record<string, unknown>;
  /** `outputSchema`, where the probe has one (any JSON: some break MCP's Tool shape on purpose). */
  readonly outputSchema?: unknown;
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
  /** Server instructions (carry the instructions marker of `probe_marker.ts`), or none. */
  readonly instructions?: string;
  /** How many tools one `tools/list` page holds (absent: every tool on one page). */
  readonly pageSize?: number;
  /** Whether the lab measures how much of each tool's description reached the model. */
  readonly measuresDescriptions?: boolean;
}
