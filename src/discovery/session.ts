/**
 * One profile's discovery on one connection: the opening its revision has (`initialize`, or
 * `server/discover`, negotiated when the profile does), the settle window, then paged
 * tools/list. The JSON-RPC loop is in `connection.ts`, the openings in `opening.ts`, the answers
 * to server requests in `answers.ts`. Transport-agnostic.
 *
 * @module
 */
import { inlineCodeSpans } from "../analysis/code_spans.ts";
import { MAX_INSTRUCTIONS_BYTES } from "../limits.ts";
import { breaksResultSchema } from "../protocol/initialize.ts";
import { planOf, type ProtocolVersion, revisionOf } from "../protocol/versions.ts";
import type { ProfileLabel } from "../profiles.ts";
import type { Transport } from "../transport/transport.ts";
import { CatalogBuilder } from "./catalog.ts";
import type { FactExtractor, ToolFacts } from "../clients/rules/kind.ts";
import type { DiscoveryObserver } from "./events.ts";
import { isToolName } from "../tool_name.ts";
import { cutText, type CutUnit } from "../clients/cut.ts";
import { explain, type Incomplete } from "../protocol/incomplete.ts";
import { ServerRequests } from "./answers.ts";
import { Connection } from "./connection.ts";
import { type Identity, type Opened, openProfile, paramsOf } from "./opening.ts";
import type { RevisionPlan } from "../protocol/versions.ts";
import type { RunSettings } from "./request.ts";
import { VERSION } from "../version.ts";

/** What one session reads of the run's settings. */
export type SessionSettings = Pick<
  RunSettings,
  "settleMs" | "timeoutMs" | "protocolVersion" | "presetsStrict"
>;

/** What a profile declares: its label, client capabilities and, for a preset, its clientInfo and revision. */
export interface ProfileDeclaration {
  readonly profile: ProfileLabel;
  /** The client capabilities sent (a fresh object per use is taken). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** A client preset's `clientInfo`; mcpeval's own otherwise. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** A client preset's own revision: the one its client sends (it negotiates from it). */
  readonly protocolVersion?: ProtocolVersion;
  /** The revisions a client preset's client was observed to accept (absent: not observed). */
  readonly accepts?: readonly ProtocolVersion[];
  /** The per-tool facts its client rules need, kept by the catalog (prepared already). */
  readonly facts?: readonly FactExtractor[];
  /**
   * A client preset that cuts each server's instructions (SPEC 25): the most it keeps, in its
   * unit, and what it appends; the profile then also reads the references of the text as that
   * client shows it.
   */
  readonly instructionsCut?: {
    readonly maxChars: number;
    readonly unit?: CutUnit;
    readonly marker?: string;
  };
}

/** What one profile's discovery observed. Instruction text never leaves the session. */
export type ProfileOutcome =
  | {
    readonly profile: ProfileLabel;
    readonly complete: true;
    readonly instructionsPresent: boolean;
    /** Inline code spans of the instructions that are valid tool identifiers. */
    readonly codeSpans: ReadonlySet<string>;
    /**
     * A client preset whose cut the instructions exceed: the inline code spans (valid tool
     * identifiers) of the text as that client shows it, the kept prefix and its marker, parsed
     * anew, and the cut.
     */
    readonly shown?: { readonly codeSpans: ReadonlySet<string>; readonly cut: number };
    /** The catalog, sorted. */
    readonly tools: readonly string[];
    /** The catalog in the order the server listed it. */
    readonly listed: readonly string[];
    /** Tools the server marked as visible to apps only. */
    readonly appOnly: ReadonlySet<string>;
    /** Client presets: each listed tool's bounded facts, in listing order. */
    readonly facts?: readonly ToolFacts[];
    readonly pages: number;
    /** The revision negotiated, when the profile negotiated. */
    readonly protocolVersion?: ProtocolVersion;
  }
  | {
    readonly profile: ProfileLabel;
    readonly complete: false;
    readonly instructionsPresent: boolean | null;
    readonly pages: number;
    readonly incomplete: Incomplete;
    /** The revision negotiated, when the profile negotiated and the opening settled on one. */
    readonly protocolVersion?: ProtocolVersion;
  };

export { SAMPLING_DECLINED } from "./answers.ts";

/**
 * What the discovery-only proxy (`--observe`, `src/lab/proxy.ts`) changes in a session: it opens
 * the connection with the real client's own opening, and it hears each accepted `tools/list`
 * result (to hand the tools on to that client) before the catalog drops them.
 */
export interface SessionHooks {
  /** Opens the connection in place of the profile's own opening (`opening.ts`). */
  readonly open?: (
    connection: Connection,
    plan: RevisionPlan,
    identity: Identity,
  ) => Promise<Opened>;
  /** Hears each `tools/list` result the catalog accepted, in order; it must not modify it. */
  readonly page?: (result: Record<string, unknown>) => void;
}

/**
 * Runs discovery for a profile over `transport`. Never throws for anything the server does.
 * `signal` (the run's) also stops the analysis of a page; each page's analysis ends within
 * `settings.timeoutMs` of its arrival. `heard` is called once, when the server first sends
 * anything on this connection.
 */
export async function discoverProfile(
  transport: Transport,
  declaration: ProfileDeclaration,
  settings: SessionSettings,
  observe: DiscoveryObserver = () => {},
  signal?: AbortSignal,
  heard?: () => void,
  hooks: SessionHooks = {},
): Promise<ProfileOutcome> {
  const { profile } = declaration;
  const plan = planOf(
    settings.protocolVersion,
    declaration.protocolVersion,
    settings.presetsStrict,
    undefined,
    declaration.accepts,
  );
  const identity: Identity = {
    capabilities: () => structuredClone(declaration.capabilities) as Record<string, unknown>,
    clientInfo: declaration.clientInfo ?? { name: "mcpeval", version: VERSION },
  };
  const connection = new Connection(
    transport,
    plan.start,
    new ServerRequests(identity.capabilities()),
    settings.timeoutMs,
    heard,
  );
  // Built once the opening has settled the revision, whose row says what a valid Tool is.
  let catalog: CatalogBuilder | undefined;
  let instructionsPresent: boolean | null = null;
  // Recorded only when negotiated: a strict profile speaks the report's revision.
  let negotiated: { protocolVersion: ProtocolVersion } | Record<never, never> = {};
  const stop = (incomplete: Incomplete): ProfileOutcome => ({
    profile,
    complete: false,
    instructionsPresent,
    pages: catalog?.pages ?? 0,
    // The first answer the server gives is the one to initialize (or server/discover).
    incomplete: explain(incomplete, connection.answered),
    ...negotiated,
  });

  try {
    const opened = await (hooks.open ?? openProfile)(connection, plan, identity);
    if ("incomplete" in opened) return stop(opened.incomplete);
    const { version, hasTools, instructions } = opened;
    if (plan.negotiate) negotiated = { protocolVersion: version };
    const { cacheableResults: cacheable, toolShape } = revisionOf(version);
    catalog = new CatalogBuilder(toolShape, declaration.facts);
    instructionsPresent = instructions !== undefined;
    if (instructions !== undefined && utf8Exceeds(instructions, MAX_INSTRUCTIONS_BYTES)) {
      return stop({ reason: "instructions-too-large" });
    }
    const codeSpans = toolSpans(instructions ?? "");
    const cut = declaration.instructionsCut;
    // The text as the client shows it, parsed anew (linear in the text, as the whole's parse).
    const kept = instructions !== undefined && cut
      ? cutText(instructions, cut.maxChars, cut.unit)
      : undefined;
    const shown = kept !== undefined && kept.length < instructions!.length
      ? { codeSpans: toolSpans(kept + (cut!.marker ?? "")), cut: cut!.maxChars }
      : undefined;

    observe({ kind: "settling", profile, ms: settings.settleMs });
    const settled = await connection.idle(settings.settleMs);
    if (settled) return stop(settled);

    if (hasTools) {
      let cursor: string | undefined;
      while (true) {
        observe({ kind: "listing", profile, pages: catalog.pages });
        const page = await connection.request(
          "tools/list",
          paramsOf(version, identity, cursor === undefined ? {} : { cursor }),
        );
        if ("incomplete" in page) return stop(page.incomplete);
        if ("error" in page || !isCompleteResult(page.result)) {
          return stop({ reason: "list-error" });
        }
        if (cacheable && breaksResultSchema(page.result)) {
          return stop({ reason: "malformed-message" });
        }
        const outcome = await catalog.addPage(page.result, {
          deadline: Date.now() + settings.timeoutMs,
          signal,
        });
        if ("incomplete" in outcome) return stop(outcome.incomplete);
        hooks.page?.(page.result);
        if ("done" in outcome) break;
        cursor = outcome.next;
      }
    }
    return {
      profile,
      complete: true,
      instructionsPresent,
      codeSpans,
      ...(shown ? { shown } : {}),
      tools: catalog.tools(),
      listed: catalog.listed(),
      appOnly: catalog.appOnly,
      ...(catalog.facts ? { facts: catalog.facts } : {}),
      pages: catalog.pages,
      ...negotiated,
    };
  } finally {
    connection.release();
  }
}

/** The inline code spans of `markdown` that are valid tool identifiers. */
function toolSpans(markdown: string): Set<string> {
  return new Set([...inlineCodeSpans(markdown)].filter((span) => isToolName(span)));
}

/** A 2026-07-28 result is complete when it has no `resultType` or says `"complete"`. */
function isCompleteResult(result: Record<string, unknown>): boolean {
  return !("resultType" in result) || result.resultType === "complete";
}

/** Whether `text` is longer than `max` bytes in UTF-8 (encoded only when it may be). */
function utf8Exceeds(text: string, max: number): boolean {
  if (text.length > max) return true;
  return text.length * 3 > max && new TextEncoder().encode(text).length > max;
}
