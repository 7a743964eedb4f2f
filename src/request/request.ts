/**
 * The inputs of a run and the validators of its parts: the settings every server shares
 * ({@linkcode validateSettings}) and one server ({@linkcode validateServer}, also for each entry
 * of a config file). `validateRun` (`run.ts`) puts them together into the one `RunRequest`.
 *
 * @module
 */
import { UserError } from "../errors.ts";
import type { Format } from "../report/formats/mod.ts";
import { CONCURRENCY, type IntegerRange, SETTLE_MS, TIMEOUT_MS } from "../limits.ts";
import { closest, closestTypo, completion } from "../analysis/suggest.ts";
import {
  ALL_CLIENTS,
  byName,
  type ClientPreset,
  knownPresets,
  parsePresets,
  versionsOf,
} from "../clients/presets.ts";
import { CLIENT_VERSION, splitClient } from "../clients/versions.ts";
import {
  canonicalProfiles,
  clientProfile,
  isProfile,
  type Profile,
  PROFILES,
} from "../profiles.ts";
import { RESERVED_HEADERS } from "../protocol/streamable_http.ts";
import {
  AUTO,
  isProtocolVersion,
  PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolSetting,
  revisionOf,
} from "../protocol/versions.ts";
import {
  type HttpTarget,
  SERVER_STDERR_MODES,
  type ServerStderr,
  type StdioTarget,
  type Target,
} from "../target.ts";
import { isToolName, SERVER_LABEL } from "../tool_name.ts";
import type { RunSettings, ServerRequest } from "../discovery/request.ts";
import { OBSERVE_RULE, observeRequests } from "./observe.ts";

export type { RunSettings, ServerRequest };

/** A stdio target as given: only `command` is required. */
export interface StdioTargetInput {
  /** Selects a server started as a subprocess and spoken to over stdio. */
  readonly kind: "stdio";
  /** The program to start: a path, or a name looked up on PATH. */
  readonly command: string;
  /** Its arguments; default none. */
  readonly args?: readonly string[];
  /**
   * `"discard"` (default), `"tail"` or `"inherit"`: what becomes of its stderr (never in a
   * report; `tail` and `inherit` show it masked on this process's stderr).
   */
  readonly stderr?: string;
  /** Variables set for the server over the environment it inherits; default none. */
  readonly env?: Readonly<Record<string, string>>;
  /** The folder the server starts in; default the current one. */
  readonly cwd?: string;
}

/** A Streamable HTTP target as given. */
export interface HttpTargetInput {
  /** Selects a Streamable HTTP endpoint. */
  readonly kind: "streamable-http";
  /**
   * The MCP endpoint: an absolute `http:` or `https:` URL without credentials. A host that is
   * not loopback needs `https:` and {@linkcode HttpTargetInput.allowRemoteHttp}.
   */
  readonly url: string | URL;
  /** Header names and values sent with every request. */
  readonly headers?: readonly (readonly [string, string])[];
  /** Allow an `https:` endpoint that is not loopback. */
  readonly allowRemoteHttp?: boolean;
}

/** A target as given. */
export type TargetInput = StdioTargetInput | HttpTargetInput;

/** The settings every server of a run shares, as given; each has a default. */
export interface SettingsInput {
  /** Profile labels; default all five. */
  readonly profiles?: readonly string[];
  /** Milliseconds to wait after `notifications/initialized`: 0 to 5000, default 1500. */
  readonly settleMs?: number;
  /** The longest wait for one answer, in milliseconds: 100 to 300000, default 30000. */
  readonly timeoutMs?: number;
  /** How many profiles run at once: 1 to 5, default 5. */
  readonly concurrency?: number;
  /**
   * The protocol revision to speak strictly, or `auto` to negotiate it as a real client does;
   * default 2025-06-18 for the five profiles, while client presets negotiate from their
   * client's revision unless a revision is named here.
   */
  readonly protocolVersion?: string;
  /**
   * Client presets to impersonate, each a `client:NAME` profile after the five; with
   * `profiles` omitted, only these run.
   */
  readonly clients?: readonly string[];
  /** A `mcpeval.client-presets/v1` document whose entries add to or replace the built-in ones. */
  readonly clientPresets?: unknown;
  /**
   * Real clients to run once, headless, against the discovery-only proxy (Linux only), each
   * `NAME`, `NAME@VERSION` or `NAME@latest`: a profile `observed:NAME@VERSION` each, after the
   * presets; with `profiles` omitted, only these and the presets run.
   */
  readonly observe?: readonly string[];
  /** Report backticked identifiers that no selected catalog lists. */
  readonly unknownReferences?: boolean;
}

/** A comparison with an earlier report, as given; default none. */
export interface BaselineInput {
  /**
   * An earlier report (a parsed `mcpeval.guidance-report/v1` or `mcpeval.guidance-fleet/v1`
   * JSON value): each server of the run is compared with its own report, or its entry.
   */
  readonly baseline?: unknown;
  /** With `baseline`: every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools?: boolean;
}

/** A run of one server as given; everything but `server` and `target` has a default. */
export interface GuidanceInput extends SettingsInput, BaselineInput {
  /** The report's server label. */
  readonly server: string;
  /** Where the server is. */
  readonly target: TargetInput;
  /** Tools every selected profile's catalog must list; default none. */
  readonly requiredTools?: readonly string[];
}

/** A report written to a file, besides the one on stdout. */
export interface ReportFile {
  /** Its format. */
  readonly format: Format;
  /** Where it is written. */
  readonly path: string;
}

/** Where and how reports are written (the command line only). */
export interface OutputRequest {
  /** The format on stdout. */
  readonly format: Format;
  /** `--output FORMAT=PATH`. */
  readonly files: readonly ReportFile[];
  /** With `--format github`: the GITHUB_STEP_SUMMARY file a Markdown summary is appended to. */
  readonly stepSummary?: string;
  /**
   * The formats' own options given (`--sarif-location`), by name, each read by its declaration
   * (`src/report/formats/options.ts`); absent when none is given.
   */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** A baseline given as its parsed JSON (the library), not as a file to read. */
export interface BaselineValue {
  /** The earlier guidance or fleet report, parsed. */
  readonly value: unknown;
  /** Whether every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools: boolean;
}

/** `--baseline FILE` and `--require-baseline-tools` (the command line only), before reading. */
export interface BaselineFile {
  /** The earlier JSON report to compare with; `-` is standard input. */
  readonly path: string;
  /** Whether every tool of a baseline catalog is required in its profile. */
  readonly requireBaselineTools: boolean;
}

/** The fields of a request, as the library names them; those of a target follow `target.`. */
const FIELDS = {
  run: [
    "server",
    "profiles",
    "requiredTools",
    "settleMs",
    "timeoutMs",
    "concurrency",
    "protocolVersion",
    "clients",
    "clientPresets",
    "observe",
    "baseline",
    "requireBaselineTools",
    "unknownReferences",
    "config",
    "jobs",
    "inputs",
    "shard",
    "project",
  ],
  target: ["command", "args", "stderr", "env", "cwd", "url", "allowRemoteHttp", "headers"],
} as const;

/** The fields a {@linkcode RequestError} can name. */
export type RequestField = (typeof FIELDS)[keyof typeof FIELDS][number];

/** How each audience names the fields: the library by property, the CLI by option. */
export type FieldLabels = Readonly<Record<RequestField, string>>;

/** The library's names for the fields. */
export const LIBRARY_LABELS: FieldLabels = Object.fromEntries([
  ...FIELDS.run.map((field) => [field, field]),
  ...FIELDS.target.map((field) => [field, `target.${field}`]),
]) as FieldLabels;

/**
 * A request that breaks a rule. The message names the field (in the caller's terms) and the
 * rule, never the value given: a URL, a command or a header may carry a secret.
 */
export class RequestError extends UserError {
  /**
   * The field that breaks the rule, as the library's input names it (a target's by its own
   * name: `command`, `url`, `headers`, ...).
   */
  readonly field: string;

  /** `rule` may name other fields as `{field}`; each becomes that field's label. */
  constructor(field: RequestField, rule: string, labels: FieldLabels = LIBRARY_LABELS) {
    const text = rule.replaceAll(/\{(\w+)\}/g, (_, name: RequestField) => labels[name] ?? name);
    super(`${labels[field]} ${text}`);
    this.name = "RequestError";
    this.field = field;
  }
}

/** The rule for server labels. */
export const SERVER_RULE =
  "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit";

/** The rule for tool names. */
export const TOOL_RULE = "must be a tool name of 1 to 128 letters, digits, '_', '.', '/' or '-'";

/**
 * Validates the one server of a run of one server: its label, its required tools, and its
 * target against the run's settings. Throws {@linkcode RequestError}.
 */
export function validateDiscovery(
  input: Pick<GuidanceInput, "server" | "target" | "requiredTools">,
  settings: RunSettings,
  labels: FieldLabels = LIBRARY_LABELS,
): ServerRequest {
  const fail = failWith(labels);
  const server = labelOf(input.server, fail);
  const required = input.requiredTools ?? [];
  if (!Array.isArray(required) || !required.every((tool) => isToolName(tool))) {
    fail("requiredTools", TOOL_RULE);
  }
  const requiredTools = [...new Set(required)].sort();
  return { server, requiredTools, target: targetOf(input.target, settings, fail) };
}

/**
 * Validates a fleet's entry (its required tools are valid already): its label, and its target
 * against the run's settings. Throws {@linkcode RequestError}.
 */
export function validateServer(
  server: string,
  target: TargetInput,
  requiredTools: readonly string[],
  settings: RunSettings,
  labels: FieldLabels = LIBRARY_LABELS,
): ServerRequest {
  const fail = failWith(labels);
  return { server: labelOf(server, fail), requiredTools, target: targetOf(target, settings, fail) };
}

function labelOf(server: unknown, fail: Fail): string {
  if (typeof server !== "string" || !SERVER_LABEL.test(server)) fail("server", SERVER_RULE);
  return server as string;
}

/** A target, and whether it can speak the settings' revision. */
function targetOf(input: TargetInput, settings: RunSettings, fail: Fail): Target {
  const target = validateTarget(input, fail);
  if (
    target.kind === "streamable-http" && settings.protocolVersion !== AUTO &&
    !revisionOf(settings.protocolVersion).streamableHttp
  ) {
    fail(
      "protocolVersion",
      `${settings.protocolVersion} has no Streamable HTTP (its HTTP+SSE transport is out of scope): check such a server over stdio`,
    );
  }
  return target;
}

/**
 * What becomes of a stdio server's stderr, as given (`--server-stderr`, a target's `stderr`,
 * a fleet's `serverStderr`): one of {@linkcode SERVER_STDERR_MODES}, `discard` when absent.
 * Throws {@linkcode RequestError} naming the closest mode.
 */
export function stderrOf(value: unknown, fail: Fail): ServerStderr {
  const mode = value ?? "discard";
  if ((SERVER_STDERR_MODES as readonly unknown[]).includes(mode)) return mode as ServerStderr;
  const likely = typeof mode === "string" ? closest(mode, SERVER_STDERR_MODES) : undefined;
  return fail(
    "stderr",
    `must be one of: ${SERVER_STDERR_MODES.join(", ")}${likely ? `; did you mean ${likely}?` : ""}`,
  );
}

/**
 * Validates the settings every server of a run shares (everything but the servers, their
 * required tools and the run's own bounds). Throws {@linkcode RequestError}.
 */
export function validateSettings(
  input: SettingsInput,
  labels: FieldLabels = LIBRARY_LABELS,
): RunSettings {
  const fail = failWith(labels);
  const clients = validateClients(input, fail);
  const observe = input.observe === undefined ? [] : observeRequests(input.observe);
  if (observe === undefined) return fail("observe", OBSERVE_RULE);
  const profiles = input.profiles ?? (clients.size > 0 || observe.length > 0 ? [] : PROFILES);
  if (
    (profiles.length === 0 && clients.size === 0 && observe.length === 0) ||
    !profiles.every((profile) => isProfile(profile))
  ) {
    fail(
      "profiles",
      `must be one of: ${PROFILES.join(", ")}${
        commaList(profiles, PROFILES, "profiles") ?? suggestion(profiles, PROFILES)
      }`,
    );
  }
  const integer = (field: RequestField, value: number | undefined, range: IntegerRange) => {
    if (value === undefined) return range.default;
    if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
      fail(field, `must be an integer from ${range.min} to ${range.max}`);
    }
    return value;
  };
  const protocolVersion: ProtocolSetting =
    isProtocolVersion(input.protocolVersion) || input.protocolVersion === AUTO
      ? input.protocolVersion
      : input.protocolVersion === undefined
      ? PROTOCOL_VERSION
      : fail("protocolVersion", `must be one of: ${[...PROTOCOL_VERSIONS, AUTO].join(", ")}`);
  if (input.unknownReferences !== undefined && typeof input.unknownReferences !== "boolean") {
    fail("unknownReferences", "must be true or false");
  }
  return {
    profiles: [
      ...canonicalProfiles(profiles as readonly Profile[]),
      ...[...clients.keys()].map(clientProfile),
    ],
    clients,
    unknownReferences: input.unknownReferences === true,
    settleMs: integer("settleMs", input.settleMs, SETTLE_MS),
    timeoutMs: integer("timeoutMs", input.timeoutMs, TIMEOUT_MS),
    concurrency: integer("concurrency", input.concurrency, CONCURRENCY),
    protocolVersion,
    ...(isProtocolVersion(input.protocolVersion) ? { presetsStrict: true as const } : {}),
    ...(observe.length > 0 ? { observe } : {}),
  };
}

/** A validator's way out: throws the {@linkcode RequestError} of `field` and `rule`. */
export function failWith(labels: FieldLabels): Fail {
  return (field, rule) => {
    throw new RequestError(field, rule, labels);
  };
}

/** Throws the {@linkcode RequestError} of a field and the rule it breaks. */
export type Fail = (field: RequestField, rule: string) => never;

/**
 * The selected presets, by the label's part after `client:` (`NAME`, or `NAME@VERSION`): built-in
 * ones, with `clientPresets` entries added or replaced. `NAME` is its plain entry (hand-written,
 * or a file's), else the newest observed version; `NAME@VERSION` that version's preset.
 */
function validateClients(
  input: Pick<GuidanceInput, "clients" | "clientPresets">,
  fail: Fail,
): Map<string, ClientPreset> {
  const names = [...new Set(input.clients ?? [])];
  if (names.length === 0 && input.clientPresets === undefined) return new Map();
  const known = new Map(knownPresets());
  if (input.clientPresets !== undefined) {
    const extra = parsePresets(input.clientPresets);
    if (typeof extra === "string") fail("clientPresets", extra);
    for (const [name, preset] of extra as Map<string, ClientPreset>) known.set(name, preset);
  }
  const named = byName(known);
  const selected = new Map<string, ClientPreset>();
  // `--client all`: every client (built-in and from the file) at its newest, in their order.
  const expanded = names.flatMap((name) => name === ALL_CLIENTS ? [...named.keys()] : [name]);
  for (const value of new Set(expanded)) {
    const { name, version } = typeof value === "string" ? splitClient(value) : { name: value };
    const preset = version === undefined ? named.get(name) : known.get(value);
    if (preset) {
      selected.set(value, preset);
      continue;
    }
    if (version !== undefined && named.has(name)) {
      if (!CLIENT_VERSION.test(version)) {
        fail("clients", `${name}@VERSION: VERSION must be MAJOR.MINOR.PATCH (semver)`);
      }
      const versions = versionsOf(known, name);
      fail(
        "clients",
        versions.length === 0
          ? `${name}@VERSION: ${name}'s preset is hand-written (it cannot run headless) and has no versions: give --client ${name}`
          : `${name}@VERSION: no observation of that version (known: ${
            versions.join(", ")
          }); observe it with mcpeval lab --client ${name}@VERSION --client-file-out FILE, then pass --client-file FILE`,
      );
    }
    const unknown = names.filter((n) => typeof n !== "string" || !named.has(splitClient(n).name));
    fail(
      "clients",
      `must name a client preset: ${[...named.keys()].sort().join(", ")}${
        commaList(unknown, [...named.keys()], "clients") ?? suggestion(unknown, [...named.keys()])
      }`,
    );
  }
  return selected;
}

/**
 * `; did you mean X?` for the first value close to a known one (a typo, or the start of exactly
 * one known word: `claude` for `claude-code`), when it can be shown.
 */
function suggestion(values: readonly unknown[], known: readonly string[]): string {
  for (const value of values) {
    if (typeof value !== "string" || known.includes(value) || !/^[\x21-\x7e]{1,64}$/.test(value)) {
      continue;
    }
    const sorted = [...known].sort();
    const close = closestTypo(value, sorted) ?? completion(value, sorted);
    if (close !== undefined) return `; did you mean ${close}?`;
  }
  return "";
}

/**
 * For a value that is known words joined by commas (`roots,sampling`): the clause that says to
 * repeat the option named by `field` for each; else undefined.
 */
function commaList(
  values: readonly unknown[],
  known: readonly string[],
  field: RequestField,
): string | undefined {
  const listed = values.find((value) =>
    typeof value === "string" && value.includes(",") &&
    value.split(",").every((part) => known.includes(part.trim()))
  ) as string | undefined;
  if (listed === undefined) return undefined;
  const parts = listed.split(",").map((part) => part.trim());
  return `; repeat {${field}} for each one (${parts.join(", ")}) instead of a comma-separated list`;
}

function validateTarget(target: TargetInput, fail: Fail): Target {
  if (target?.kind === "stdio") return stdioTarget(target, fail);
  if (target?.kind === "streamable-http") return httpTarget(target, fail);
  return fail("command", "or {url} is required");
}

function stdioTarget(target: StdioTargetInput, fail: Fail): StdioTarget {
  if (typeof target.command !== "string" || target.command === "") fail("command", "is empty");
  if (target.command.includes("\0")) fail("command", "must not contain NUL characters");
  const args = target.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    fail("args", "must be strings");
  }
  if (!args.every((arg) => !arg.includes("\0"))) fail("args", "must not contain NUL characters");
  const stderr = stderrOf(target.stderr, fail);
  const env = target.env;
  if (env !== undefined) {
    if (typeof env !== "object" || env === null || Array.isArray(env)) {
      fail("env", "must map variable names to strings");
    }
    for (const [name, value] of Object.entries(env)) {
      if (!ENV_VARIABLE.test(name)) {
        fail("env", "names must be non-empty and contain no '=' or NUL characters");
      }
      if (typeof value !== "string" || value.includes("\0")) {
        fail("env", "values must be strings without NUL characters");
      }
    }
  }
  if (
    target.cwd !== undefined && (typeof target.cwd !== "string" || !/^[^\0]+$/.test(target.cwd))
  ) {
    fail("cwd", "must be a non-empty folder path");
  }
  return {
    kind: "stdio",
    command: target.command,
    args: [...args],
    stderr,
    ...(env === undefined ? {} : { env: { ...env } }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  };
}

function httpTarget(target: HttpTargetInput, fail: Fail): HttpTarget {
  let url: URL | undefined;
  try {
    url = new URL(target.url);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return fail("url", "must be an absolute http: or https: URL");
  }
  if (url.username !== "" || url.password !== "") {
    fail("url", "must not contain credentials; send them in a header ({headers})");
  }
  if (!isLoopback(url.hostname) && (url.protocol !== "https:" || !target.allowRemoteHttp)) {
    fail("url", "to a host that is not loopback needs https: and {allowRemoteHttp}");
  }
  const headers = target.headers ?? [];
  for (const [name, value] of headers) {
    const problem = headerNameProblem(name) ?? headerValueProblem(value);
    if (problem) fail("headers", problem);
  }
  return { kind: "streamable-http", url, headers: headers.map(([name, value]) => [name, value]) };
}

/** A name the environment can hold: not empty, no '=', no NUL. */
const ENV_VARIABLE = /^[^=\0]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A field value HTTP can carry: visible ASCII, spaces and tabs, no surrounding white space. */
const HEADER_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

/** Why `name` cannot be a `--header` name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (typeof name !== "string" || !HEADER_NAME.test(name)) {
    return "must name an HTTP header (letters, digits and !#$%&'*+.^_`|~-)";
  }
  if (RESERVED_HEADERS.includes(name.toLowerCase())) {
    return "may not set a header that mcpeval sets itself (Accept, Content-Type, Mcp-Session-Id, MCP-Protocol-Version, ...)";
  }
  return undefined;
}

/** Why `value` cannot be sent as an HTTP header value, or undefined when it can. */
export function headerValueProblem(value: string): string | undefined {
  return typeof value === "string" && HEADER_VALUE.test(value)
    ? undefined
    : "values must be visible ASCII characters, spaces or tabs, without leading or trailing white space";
}

/** Whether `hostname` (as `URL` spells it) is `localhost`, in 127.0.0.0/8, or `[::1]`. */
export function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  const octets = hostname.split(".");
  return octets.length === 4 && octets[0] === "127" &&
    octets.every((octet) => /^[0-9]{1,3}$/.test(octet) && Number(octet) <= 255);
}
