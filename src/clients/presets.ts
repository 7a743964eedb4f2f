/**
 * Client presets: profiles that impersonate a named client (its `clientInfo`, its declared
 * capabilities) and the client-side rules that hide tools from its model. The data is versioned
 * in `clients.json` with a source and a date for every fact; `--client-file` adds or overrides
 * entries and is checked by the same validator.
 *
 * @module
 */
import data from "./clients.json" with { type: "json" };
import { isProtocolVersion, type ProtocolVersion } from "../protocol/versions.ts";
import type { ObservedRef, ParsedRule, RuleEffect } from "./rules/kind.ts";
import { RULE_KIND_IDS, RULE_KINDS, type RuleKindId } from "./rules/registry.ts";

/** The rule kinds a preset can carry (the registry's table, `rules/registry.ts`). */
export const CLIENT_RULE_IDS: readonly [RuleKindId, ...RuleKindId[]] = RULE_KIND_IDS;

/** A rule kind. */
export type ClientRuleId = RuleKindId;

/** One client-side rule that hides tools from the model, with its effect and evidence. */
export interface ClientRule extends ParsedRule {
  /** Which rule. */
  readonly id: ClientRuleId;
}

/** One client preset. */
export interface ClientPreset {
  /** What the client sends as `clientInfo`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The client capabilities it declares. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Whether the client shows the server's instructions to the model (null: unknown). */
  readonly instructionsShown: boolean | null;
  /** The rules that hide tools from its model. */
  readonly rules: readonly ClientRule[];
  /**
   * The protocol revision the client sends (`protocol_version`, with its source); absent: the
   * seed's. The preset negotiates from it unless `--protocol-version` names a revision.
   */
  readonly protocolVersion?: ProtocolVersion;
}

/** A preset name: lower-case letters, digits and `-`, as in `client:NAME`. */
export const CLIENT_NAME: RegExp = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The `--client` value that selects every preset. */
export const ALL_CLIENTS = "all";

/** The date the built-in presets were last checked against their sources. */
export const PRESETS_VERIFIED_AT: string = (data as { verified_at: string }).verified_at;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isPrintable = (value: unknown) =>
  typeof value === "string" && /^[\x20-\x7e]{1,64}$/.test(value);
/** An https URL, or a published package as `npm:NAME@VERSION` (never a registry's web address). */
const isSource = (value: unknown) =>
  typeof value === "string" &&
  (/^https:\/\/\S+$/.test(value) ||
    /^npm:(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(
      value,
    ));

/**
 * Whether `value` is absent or an observation reference: `{client, version, date, probe}` (the
 * lab's observation of that client version, `src/clients/observed/CLIENT@VERSION.json`).
 */
const isObservedRef = (value: unknown) =>
  value === undefined ||
  (isObject(value) && isPrintable(value.client) && isPrintable(value.version) &&
    DATE.test(String(value.date)) && isPrintable(value.probe));

/**
 * The presets of a `mcpeval.client-presets/v1` document, or the first problem as a fixed
 * phrase (never text from the document). Every rule and every preset needs a source and a date.
 */
export function parsePresets(value: unknown): Map<string, ClientPreset> | string {
  if (!isObject(value) || value.schema !== "mcpeval.client-presets/v1") {
    return "is not a mcpeval.client-presets/v1 document";
  }
  if (!isObject(value.clients)) return "has no clients object";
  const presets = new Map<string, ClientPreset>();
  for (const [name, entry] of Object.entries(value.clients)) {
    if (!CLIENT_NAME.test(name)) return "names a client that is not 1-32 of a-z, 0-9 and '-'";
    if (name === ALL_CLIENTS) return "names a client 'all', which --client all means";
    const preset = parsePreset(entry);
    if (typeof preset === "string") return `client ${name} ${preset}`;
    presets.set(name, preset);
  }
  return presets;
}

function parsePreset(entry: unknown): ClientPreset | string {
  if (!isObject(entry)) return "is not an object";
  const info = entry.client_info;
  if (
    !isObject(info) || !isPrintable(info.name) ||
    !(info.version === null || isPrintable(info.version))
  ) return "needs client_info with a name and a version (null when not evidenced)";
  if (!isObject(entry.capabilities)) return "needs a capabilities object";
  if (depthExceeds(entry.capabilities, MAX_CAPABILITY_DEPTH)) {
    return `has capabilities nested deeper than ${MAX_CAPABILITY_DEPTH} levels`;
  }
  const shown = entry.instructions_shown;
  if (shown !== true && shown !== false && shown !== null) {
    return "needs instructions_shown: true, false or null";
  }
  const sources = entry.sources;
  if (
    !Array.isArray(sources) || sources.length === 0 ||
    !sources.every((s) => isObject(s) && isSource(s.url) && DATE.test(String(s.verified_at)))
  ) return "needs sources, each with an https url or npm:NAME@VERSION and a verified_at date";
  const revision = entry.protocol_version;
  if (
    revision !== undefined &&
    !(isObject(revision) && isProtocolVersion(revision.value) && isSource(revision.source) &&
      DATE.test(String(revision.verified_at)) && isObservedRef(revision.observed))
  ) {
    return "has a protocol_version without a known revision value, an https or npm:NAME@VERSION source and a date";
  }
  if (!Array.isArray(entry.rules)) return "needs a rules list";
  const rules: ClientRule[] = [];
  for (const rule of entry.rules) {
    const parsed = parseRule(rule);
    if (typeof parsed === "string") return parsed;
    rules.push(parsed);
  }
  return {
    // MCP requires a version; one the evidence does not give is sent as "unknown".
    clientInfo: { name: info.name as string, version: (info.version ?? "unknown") as string },
    capabilities: structuredClone(entry.capabilities),
    instructionsShown: shown,
    rules,
    ...(isObject(revision) ? { protocolVersion: revision.value as ProtocolVersion } : {}),
  };
}

function parseRule(rule: unknown): ClientRule | string {
  if (!isObject(rule) || !(CLIENT_RULE_IDS as readonly unknown[]).includes(rule.id)) {
    return `has a rule that is not one of: ${CLIENT_RULE_IDS.join(", ")}`;
  }
  const id = rule.id as ClientRuleId;
  if (!isSource(rule.source) || !DATE.test(String(rule.verified_at))) {
    return `has a ${id} rule without an https or npm:NAME@VERSION source and a verified_at date`;
  }
  if (!isObservedRef(rule.observed)) {
    return `has a ${id} rule whose observed is not {client, version, date, probe}`;
  }
  const kind = RULE_KINDS[id];
  const valid = kind.validValue(rule.value, rule);
  if (typeof valid === "string") return `has a ${id} rule ${valid}`;
  if (!valid) return `has a ${id} rule with a value of the wrong kind`;
  const effect = rule.effect ?? kind.effects[0];
  if (!(kind.effects as readonly unknown[]).includes(effect)) {
    return `has a ${id} rule whose effect is not one of: ${kind.effects.join(", ")}`;
  }
  return {
    id,
    value: rule.value as ClientRule["value"],
    effect: effect as RuleEffect,
    ...(typeof rule.separator === "string" ? { separator: rule.separator } : {}),
    source: rule.source as string,
    verified_at: rule.verified_at as string,
    ...(isObject(rule.observed) ? { observed: rule.observed as unknown as ObservedRef } : {}),
  };
}

/** Client capabilities are small objects; deeper nesting than this is refused. */
const MAX_CAPABILITY_DEPTH = 16;

/** Whether `value` nests objects or arrays deeper than `max` (iterative: no recursion). */
function depthExceeds(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, depth] = item;
    if (typeof node !== "object" || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

let builtin: Map<string, ClientPreset> | undefined;

/** The built-in presets (validated once; a broken data file is a bug, so it throws). */
export function builtinPresets(): Map<string, ClientPreset> {
  if (builtin) return builtin;
  const parsed = parsePresets(data);
  if (typeof parsed === "string") throw new Error(`clients.json ${parsed}`);
  return builtin = parsed;
}
