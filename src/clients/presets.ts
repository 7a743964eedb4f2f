/**
 * Client presets: profiles that impersonate a named client at a version (its `clientInfo`, its
 * declared capabilities, the revisions it sends and accepts) and the client-side rules that hide
 * tools from its model. Every client the lab can run has one preset per observed version, keyed
 * `NAME@VERSION`, derived from its observation (`derived.json`, written by `mcpeval lab` from
 * `observed/`); the clients that cannot run headless keep hand-written data with a source and a
 * date for every fact (`clients.json`, each entry marked `hand_written`). `--client-file` adds or
 * overrides entries and is checked by the same validator.
 *
 * @module
 */
import data from "./clients.json" with { type: "json" };
import derived from "./derived.json" with { type: "json" };
import {
  isProtocolVersion,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
} from "../protocol/versions.ts";
import { CLIENT_VERSION, compareVersions, splitClient } from "./versions.ts";
import { CUT_UNITS, type CutUnit } from "./cut.ts";
export type { CutUnit } from "./cut.ts";
import { isCount, type ObservedRef, type ParsedRule, type RuleEffect } from "./rules/kind.ts";
import { RULE_KIND_IDS, RULE_KINDS, type RuleKindId } from "./rules/registry.ts";

/** One client-side rule that hides tools from the model, with its effect and evidence. */
export interface ClientRule extends ParsedRule {
  /** Which rule. */
  readonly id: RuleKindId;
}

/** How much of a text (a server's instructions, a tool's description) the client shows. */
export interface TextCut {
  /** The most it keeps (null: whole, as far as observed). */
  readonly maxChars: number | null;
  /** What it counts (absent: not observed; UTF-16 units are assumed). */
  readonly unit?: CutUnit;
  /** What it appends where it cuts (absent: nothing, or not observed). */
  readonly marker?: string;
}

/** Whether and how a client shows each server's instructions to its model. */
export interface InstructionsHandling extends TextCut {
  /** Whether it shows them (null: not known). */
  readonly shown: boolean | null;
  /** The setting it was observed under (`NAME=VALUE`; null: its defaults). */
  readonly setting: string | null;
}

/** What a client defers: every tool, none, or some (deferral kinds, in one list). */
export const DEFERRAL_KINDS = ["all", "none", "some"] as const;

/** Whether a client shows its model only tool names behind a search tool (deferral). */
export interface Deferral {
  /** With its defaults: every tool deferred, none, or some. */
  readonly default: typeof DEFERRAL_KINDS[number];
  /** The setting the lab changes it with, and what it then does (null: none). */
  readonly setting: string | null;
  /** What it does under that setting (null: no setting). */
  readonly withSetting: "all" | "none" | "some" | null;
}

/** One client preset. */
export interface ClientPreset {
  /** What the client sends as `clientInfo`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The client capabilities it declares. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Whether the client shows the server's instructions to the model (null: unknown). */
  readonly instructionsShown: boolean | null;
  /** How it shows them: under which setting, and the cut (absent: only whether it shows them). */
  readonly instructions?: InstructionsHandling;
  /** How much of each tool's description it shows (absent: not observed). */
  readonly descriptions?: TextCut;
  /** Deferral, a fact of the profile (absent: not observed). */
  readonly deferral?: Deferral;
  /** The rules that hide tools from its model. */
  readonly rules: readonly ClientRule[];
  /**
   * The protocol revision the client sends (`protocol_version`, with its source); absent: the
   * seed's. The preset negotiates from it unless `--protocol-version` names a revision.
   */
  readonly protocolVersion?: ProtocolVersion;
  /**
   * The revisions its client accepts (`accepts`: observed with the lab's revision probe servers),
   * newest first; absent: its own revision and every older one.
   */
  readonly accepts?: readonly ProtocolVersion[];
  /** The client's version the preset is of (`version`; absent: not known). */
  readonly version?: string;
  /** Why its data is hand-written rather than derived from an observation (`hand_written`). */
  readonly handWritten?: string;
}

/** A preset name: lower-case letters, digits and `-`, as in `client:NAME`. */
export const CLIENT_NAME: RegExp = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** A preset's key in a presets document: `NAME`, or `NAME@VERSION` for one version of it. */
export function isPresetKey(key: string): boolean {
  const { name, version } = splitClient(key);
  return CLIENT_NAME.test(name) && (version === undefined || CLIENT_VERSION.test(version));
}

/** The `--client` value that selects every preset. */
export const ALL_CLIENTS = "all";

/** The date the built-in presets were last checked against their sources. */
export const PRESETS_VERIFIED_AT: string = (data as { verified_at: string }).verified_at;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Why a document is refused: a fixed phrase that names the field by its path (`clients.NAME.
 * rules[0].verified_at`: known field names, array indexes and valid client names only), never
 * the field's value, which could be a secret.
 */
const refused = (path: string, rule: string) => `field ${path} ${rule}`;

/** A `YYYY-MM-DD` string that is a day of the calendar (`2026-13-45` and `2026-02-30` are not). */
function isDate(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

const isPrintable = (value: unknown): value is string =>
  typeof value === "string" && /^[\x20-\x7e]{1,64}$/.test(value);

/** A date field: undefined when it is one, else why not. */
const date = (value: unknown, path: string) =>
  isDate(value) ? undefined : refused(path, "must be a date (YYYY-MM-DD)");

/** A name or version field: 1-64 printable ASCII characters. */
const printable = (value: unknown, path: string) =>
  isPrintable(value) ? undefined : refused(path, "must be 1-64 printable ASCII characters");

/**
 * A source field: an `https:` URL, or a published package as `npm:NAME@VERSION` (never a
 * registry's web address).
 */
const https = (value: unknown, path: string) =>
  typeof value === "string" &&
    (/^https:\/\/\S+$/.test(value) ||
      /^npm:(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/
        .test(value))
    ? undefined
    : refused(path, "must be an https URL or npm:NAME@VERSION");

/** A free-text field (`what`, `note`, `licence`): absent or a string. */
const text = (value: unknown, path: string) =>
  value === undefined || typeof value === "string" ? undefined : refused(path, "must be a string");

/**
 * An optional observation reference: `{client, version, date, probe?}` (the lab's observation of
 * that client version, `src/clients/observed/CLIENT@VERSION.json`).
 */
function observed(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return refused(path, "must be {client, version, date, probe?}");
  return printable(value.client, `${path}.client`) ??
    printable(value.version, `${path}.version`) ??
    date(value.date, `${path}.date`) ??
    (value.probe === undefined ? undefined : printable(value.probe, `${path}.probe`));
}

/**
 * The presets of a `mcpeval.client-presets/v1` document, or the first problem as a fixed
 * phrase (never text from the document). Every field is type-checked; every rule and every
 * preset needs a source and a date.
 */
export function parsePresets(value: unknown): Map<string, ClientPreset> | string {
  if (!isObject(value) || value.schema !== "mcpeval.client-presets/v1") {
    return "is not a mcpeval.client-presets/v1 document";
  }
  if (value.verified_at !== undefined) {
    const problem = date(value.verified_at, "verified_at");
    if (problem) return problem;
  }
  if (!isObject(value.clients)) return "has no clients object";
  const presets = new Map<string, ClientPreset>();
  for (const [key, entry] of Object.entries(value.clients)) {
    if (!isPresetKey(key)) {
      return "names a client that is not 1-32 of a-z, 0-9 and '-' (with an optional @VERSION)";
    }
    const { name, version } = splitClient(key);
    if (name === ALL_CLIENTS) return "names a client 'all', which --client all means";
    const preset = parsePreset(entry, `clients.${key}`, version);
    if (typeof preset === "string") return preset;
    presets.set(key, preset);
  }
  return presets;
}

function parsePreset(
  entry: unknown,
  path: string,
  keyVersion: string | undefined,
): ClientPreset | string {
  if (!isObject(entry)) return refused(path, "must be an object");
  const version = entry.version;
  if (version !== undefined && (typeof version !== "string" || !CLIENT_VERSION.test(version))) {
    return refused(`${path}.version`, "must be a version (MAJOR.MINOR.PATCH)");
  }
  if (keyVersion !== undefined && version !== keyVersion) {
    return refused(`${path}.version`, "must be the version its key names");
  }
  const handWritten = entry.hand_written;
  if (
    handWritten !== undefined &&
    !(isObject(handWritten) && typeof handWritten.reason === "string")
  ) {
    return refused(`${path}.hand_written`, "must be {reason}");
  }
  const info = entry.client_info;
  if (!isObject(info)) return refused(`${path}.client_info`, "must be {name, version}");
  const problem = printable(info.name, `${path}.client_info.name`) ??
    (info.version === null ? undefined : printable(info.version, `${path}.client_info.version`)) ??
    capabilitiesProblem(entry.capabilities, `${path}.capabilities`) ??
    (entry.instructions_shown === undefined && entry.instructions !== undefined ||
        entry.instructions_shown === true || entry.instructions_shown === false ||
        entry.instructions_shown === null
      ? undefined
      : refused(`${path}.instructions_shown`, "must be true, false or null")) ??
    instructionsProblem(entry.instructions, `${path}.instructions`, entry.instructions_shown) ??
    cutProblem(entry.descriptions, `${path}.descriptions`) ??
    deferralProblem(entry.deferral, `${path}.deferral`) ??
    sourcesProblem(entry.sources, `${path}.sources`) ??
    revisionProblem(entry.protocol_version, `${path}.protocol_version`) ??
    acceptsProblem(entry.accepts, `${path}.accepts`) ??
    (Array.isArray(entry.rules) ? undefined : refused(`${path}.rules`, "must be a list"));
  if (problem) return problem;
  const rules: ClientRule[] = [];
  for (const [index, rule] of (entry.rules as unknown[]).entries()) {
    const parsed = parseRule(rule, `${path}.rules[${index}]`);
    if (typeof parsed === "string") return parsed;
    rules.push(parsed);
  }
  const revision = entry.protocol_version;
  const accepts = entry.accepts;
  const instructions = isObject(entry.instructions) ? entry.instructions : undefined;
  return {
    // MCP requires a version; one the evidence does not give is sent as "unknown".
    clientInfo: { name: info.name as string, version: (info.version ?? "unknown") as string },
    capabilities: structuredClone(entry.capabilities as Json),
    instructionsShown: (instructions ? instructions.shown : entry.instructions_shown) as
      | boolean
      | null,
    ...(instructions
      ? {
        instructions: {
          shown: instructions.shown as boolean | null,
          setting: (instructions.setting ?? null) as string | null,
          ...cutOf(instructions),
        },
      }
      : {}),
    ...(isObject(entry.descriptions) ? { descriptions: cutOf(entry.descriptions) } : {}),
    ...(isObject(entry.deferral)
      ? {
        deferral: {
          default: entry.deferral.default as Deferral["default"],
          setting: (entry.deferral.setting ?? null) as string | null,
          withSetting: (entry.deferral.with_setting ?? null) as Deferral["withSetting"],
        },
      }
      : {}),
    rules,
    ...(isObject(revision) ? { protocolVersion: revision.value as ProtocolVersion } : {}),
    ...(isObject(accepts)
      ? {
        accepts: PROTOCOL_VERSIONS.filter((v) => (accepts.value as unknown[]).includes(v))
          .reverse(),
      }
      : {}),
    ...(typeof version === "string" ? { version } : {}),
    ...(isObject(handWritten) ? { handWritten: handWritten.reason as string } : {}),
  };
}

/** A text cut's fields, as parsed. */
function cutOf(value: Json): TextCut {
  return {
    maxChars: (value.max_chars ?? null) as number | null,
    ...(typeof value.unit === "string" ? { unit: value.unit as CutUnit } : {}),
    ...(typeof value.marker === "string" ? { marker: value.marker } : {}),
  };
}

/** A marker a client appends: at most 32 characters, none a control character. */
// deno-lint-ignore no-control-regex
const MARKER = /^[^\x00-\x1f\x7f]{0,32}$/u;

/** The evidence fields a fact of a preset carries: `source`, `verified_at`, `observed?`, `what?`. */
const evidenceProblem = (value: Json, path: string) =>
  https(value.source, `${path}.source`) ??
    date(value.verified_at, `${path}.verified_at`) ??
    observed(value.observed, `${path}.observed`) ??
    text(value.what, `${path}.what`);

/** A text cut: `{max_chars, unit?, marker?}` and its evidence; absent is fine. */
function cutProblem(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return refused(path, "must be {max_chars, source, verified_at}");
  return (value.max_chars === null || isCount(value.max_chars)
    ? undefined
    : refused(`${path}.max_chars`, "must be a positive integer or null")) ??
    (value.unit === undefined || (CUT_UNITS as readonly unknown[]).includes(value.unit)
      ? undefined
      : refused(`${path}.unit`, `must be one of: ${CUT_UNITS.join(", ")}`)) ??
    (value.marker === undefined || (typeof value.marker === "string" && MARKER.test(value.marker))
      ? undefined
      : refused(`${path}.marker`, "must be at most 32 characters, none a control character")) ??
    evidenceProblem(value, path);
}

/**
 * `instructions`: absent, or `{shown, setting, max_chars, unit?, marker?}` and its evidence;
 * with `instructions_shown` too, the two agree.
 */
function instructionsProblem(value: unknown, path: string, shown: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return refused(path, "must be {shown, setting, max_chars}");
  return (value.shown === true || value.shown === false || value.shown === null
    ? undefined
    : refused(`${path}.shown`, "must be true, false or null")) ??
    (shown === undefined || shown === value.shown
      ? undefined
      : refused(`${path}.shown`, "must be what instructions_shown says")) ??
    (value.setting === undefined || value.setting === null || isPrintable(value.setting)
      ? undefined
      : refused(`${path}.setting`, "must be null or 1-64 printable ASCII characters")) ??
    cutProblem(value, path);
}

const DEFERRALS: readonly string[] = DEFERRAL_KINDS;

/** `deferral`: absent, or `{default, setting, with_setting}` and its evidence. */
function deferralProblem(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return refused(path, "must be {default, setting, with_setting}");
  return (DEFERRALS.includes(value.default as string)
    ? undefined
    : refused(`${path}.default`, "must be all, none or some")) ??
    (value.setting === undefined || value.setting === null || isPrintable(value.setting)
      ? undefined
      : refused(`${path}.setting`, "must be null or 1-64 printable ASCII characters")) ??
    (value.with_setting === undefined || value.with_setting === null ||
        DEFERRALS.includes(value.with_setting as string)
      ? undefined
      : refused(`${path}.with_setting`, "must be all, none, some or null")) ??
    evidenceProblem(value, path);
}

/** `accepts`: absent, or `{value, source, verified_at, observed?, what?}`, value a list of revisions. */
function acceptsProblem(accepts: unknown, path: string): string | undefined {
  if (accepts === undefined) return undefined;
  if (!isObject(accepts)) return refused(path, "must be {value, source, verified_at}");
  const value = accepts.value;
  return (Array.isArray(value) && value.length > 0 && value.length <= PROTOCOL_VERSIONS.length &&
      value.every(isProtocolVersion) && new Set(value).size === value.length
    ? undefined
    : refused(`${path}.value`, "must be a list of protocol revisions mcpeval knows, each once")) ??
    https(accepts.source, `${path}.source`) ??
    date(accepts.verified_at, `${path}.verified_at`) ??
    observed(accepts.observed, `${path}.observed`) ??
    text(accepts.what, `${path}.what`);
}

/** `sources`: a non-empty list of `{url, verified_at, what?, licence?}`. */
function sourcesProblem(sources: unknown, path: string): string | undefined {
  if (!Array.isArray(sources) || sources.length === 0) {
    return refused(path, "must be a non-empty list of {url, verified_at}");
  }
  for (const [index, source] of sources.entries()) {
    const at = `${path}[${index}]`;
    if (!isObject(source)) return refused(at, "must be {url, verified_at}");
    const problem = https(source.url, `${at}.url`) ??
      date(source.verified_at, `${at}.verified_at`) ??
      text(source.what, `${at}.what`) ??
      text(source.licence, `${at}.licence`);
    if (problem) return problem;
  }
  return undefined;
}

/** `protocol_version`: absent, or `{value, source, verified_at, observed?, what?}`. */
function revisionProblem(revision: unknown, path: string): string | undefined {
  if (revision === undefined) return undefined;
  if (!isObject(revision)) return refused(path, "must be {value, source, verified_at}");
  return (isProtocolVersion(revision.value)
    ? undefined
    : refused(`${path}.value`, "must be a protocol revision mcpeval knows")) ??
    https(revision.source, `${path}.source`) ??
    date(revision.verified_at, `${path}.verified_at`) ??
    observed(revision.observed, `${path}.observed`) ??
    text(revision.what, `${path}.what`);
}

/** `capabilities`: an object of JSON values, nested at most {@linkcode MAX_CAPABILITY_DEPTH}. */
function capabilitiesProblem(value: unknown, path: string): string | undefined {
  if (!isObject(value)) return refused(path, "must be an object");
  const shape = jsonShape(value, MAX_CAPABILITY_DEPTH);
  return shape === "deep"
    ? refused(path, `is nested deeper than ${MAX_CAPABILITY_DEPTH} levels`)
    : shape === "not-json"
    ? refused(path, "must hold only JSON values")
    : undefined;
}

function parseRule(rule: unknown, path: string): ClientRule | string {
  if (!isObject(rule)) return refused(path, "must be an object");
  if (!(RULE_KIND_IDS as readonly unknown[]).includes(rule.id)) {
    return refused(`${path}.id`, `must be one of: ${RULE_KIND_IDS.join(", ")}`);
  }
  const id = rule.id as RuleKindId;
  const kind = RULE_KINDS[id];
  const problem = https(rule.source, `${path}.source`) ??
    date(rule.verified_at, `${path}.verified_at`) ??
    observed(rule.observed, `${path}.observed`) ??
    text(rule.note, `${path}.note`) ??
    (rule.separator === undefined ||
        (typeof rule.separator === "string" && /^[\x20-\x7e]{0,64}$/.test(rule.separator))
      ? undefined
      : refused(`${path}.separator`, "must be at most 64 printable ASCII characters")) ??
    (rule.prefix === undefined ||
        (typeof rule.prefix === "string" && /^[\x20-\x7e]{0,64}$/.test(rule.prefix))
      ? undefined
      : refused(`${path}.prefix`, "must be at most 64 printable ASCII characters")) ??
    (rule.builtin === undefined ||
        (Number.isSafeInteger(rule.builtin) && (rule.builtin as number) >= 0)
      ? undefined
      : refused(`${path}.builtin`, "must be an integer of at least 0"));
  if (problem) return problem;
  const valid = kind.validValue(rule.value, rule);
  if (typeof valid === "string") return refused(`${path}.value`, valid);
  if (!valid) return refused(`${path}.value`, `is not of the kind a ${id} rule takes`);
  const effect = rule.effect ?? kind.effects[0];
  if (!(kind.effects as readonly unknown[]).includes(effect)) {
    return refused(`${path}.effect`, `must be one of: ${kind.effects.join(", ")}`);
  }
  return {
    id,
    value: (Array.isArray(rule.value) ? [...rule.value] : rule.value) as ClientRule["value"],
    effect: effect as RuleEffect,
    ...(typeof rule.separator === "string" ? { separator: rule.separator } : {}),
    ...(typeof rule.prefix === "string" ? { prefix: rule.prefix } : {}),
    ...(typeof rule.builtin === "number" ? { builtin: rule.builtin } : {}),
    source: rule.source as string,
    verified_at: rule.verified_at as string,
    ...(isObject(rule.observed) ? { observed: rule.observed as unknown as ObservedRef } : {}),
  };
}

/** Client capabilities are small objects; deeper nesting than this is refused. */
const MAX_CAPABILITY_DEPTH = 16;

/**
 * Whether `value` is JSON (plain objects and arrays of strings, finite numbers, booleans and
 * null) nested at most `max` deep: `deep` past it, `not-json` for anything else (a function, a
 * class instance: the library's callers pass values, not text). Iterative: no recursion.
 */
function jsonShape(value: unknown, max: number): "json" | "deep" | "not-json" {
  const pending: [unknown, number][] = [[value, 1]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node === "string" || typeof node === "boolean") continue;
    if (typeof node === "number" && Number.isFinite(node)) continue;
    if (typeof node !== "object") return "not-json";
    const prototype = Object.getPrototypeOf(node);
    if (!Array.isArray(node) && prototype !== Object.prototype && prototype !== null) {
      return "not-json";
    }
    if (depth > max) return "deep";
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return "json";
}

let known: Map<string, ClientPreset> | undefined;

/**
 * Every built-in preset, by key: the hand-written ones by `NAME` (`clients.json`), and one per
 * observed client version by `NAME@VERSION` (`derived.json`). Validated once; a broken data
 * file is a bug, so it throws.
 */
export function knownPresets(): Map<string, ClientPreset> {
  if (known) return known;
  const written = parsePresets(data);
  if (typeof written === "string") throw new Error(`clients.json ${written}`);
  const observed = parsePresets(derived);
  if (typeof observed === "string") throw new Error(`derived.json ${observed}`);
  return known = new Map([...written, ...observed]);
}

/**
 * The built-in presets `--client NAME` selects, by name: each hand-written one, and the newest
 * observed version of every other client.
 */
export function builtinPresets(): Map<string, ClientPreset> {
  return byName(knownPresets());
}

/**
 * The presets of `presets` by name, in their order: an entry keyed `NAME` as it is, else the
 * newest version of NAME ({@linkcode newestVersion}).
 */
export function byName(presets: ReadonlyMap<string, ClientPreset>): Map<string, ClientPreset> {
  const named = new Map<string, ClientPreset>();
  for (const key of presets.keys()) {
    const { name } = splitClient(key);
    if (named.has(name)) continue;
    named.set(name, presets.get(name) ?? presets.get(`${name}@${newestVersion(presets, name)}`)!);
  }
  return named;
}

/** The versions of client `name` among `presets`, oldest first. */
export function versionsOf(presets: ReadonlyMap<string, ClientPreset>, name: string): string[] {
  return [...presets.keys()].flatMap((key) => {
    const split = splitClient(key);
    return split.name === name && split.version !== undefined ? [split.version] : [];
  }).sort(compareVersions);
}

/** The newest version of client `name` among `presets` (`NAME@VERSION` keys), or undefined. */
export function newestVersion(
  presets: ReadonlyMap<string, ClientPreset>,
  name: string,
): string | undefined {
  return versionsOf(presets, name).at(-1);
}

/**
 * The newest observed version of client `name` (of the built-in presets, one per committed
 * observation), or undefined when it has none: the version `--client NAME` and `--observe NAME`
 * select.
 */
export function newestObserved(name: string): string | undefined {
  return newestVersion(knownPresets(), name);
}
