/**
 * The command line's options, one row each: how `parseArgs` reads it, its help line, the
 * request field it is validated as, and the kinds of run it applies to. The formats' own options
 * (`--sarif-location`) are rows made from their declarations (`src/report/formats/options.ts`).
 * The parser (`args.ts`, `merge.ts`), the help (`help.ts`) and the field labels are generated
 * from the rows; `tests/options_test.ts` checks docs/reference.md's option table against them.
 *
 * Loaded by every `--help`: it imports only constants and types.
 *
 * @module
 */
import { INPUT_RULE } from "../config_facts.ts";
import {
  DEFAULT_FORMAT,
  FORMAT_OPTIONS,
  type FormatOption,
  FORMATS,
} from "../report/formats/mod.ts";
import { CONCURRENCY, JOBS, MAX_SHARDS, SETTLE_MS, TIMEOUT_MS } from "../limits.ts";
import { PROFILES } from "../profiles.ts";
import { AUTO, PROTOCOL_VERSION, PROTOCOL_VERSIONS } from "../protocol/versions.ts";
import type { FieldLabels, RequestField } from "../request/request.ts";
import { SERVER_STDERR_MODES } from "../target.ts";
import { InvocationError } from "./errors.ts";
import type { TokenOption } from "./tokens.ts";

/** "a, b or c". */
export const either = (values: readonly string[]): string =>
  `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;

/** The kinds of `guidance` run: a server command after `--`, `--url`, or `--config`. */
export type RunMode = "stdio" | "http" | "config";

/** One option of the command line. */
export interface OptionRow {
  /** The long name, without `--`. */
  readonly name: string;
  readonly type: "string" | "boolean";
  /** Repeatable; `"config"`: repeatable only in a `--config` run. */
  readonly multiple?: true | "config";
  readonly short?: string;
  /** The value's placeholder in the help (`--server NAME`). */
  readonly value?: string;
  /** docs/reference.md's spelling of the value, where the help abbreviates it for width. */
  readonly docValue?: string;
  /** The values it takes; another one is refused, with the closest as a suggestion. */
  readonly choices?: readonly string[];
  /** Its default, as docs/reference.md's table shows it. */
  readonly default?: string;
  /** Its line (and continuation lines) in the help's Options; none: listed only with --config. */
  readonly help?: readonly string[];
  /** Its line under the help's `With --config FILE`, with that section's placeholder. */
  readonly configHelp?: { readonly value?: string; readonly help: readonly string[] };
  /**
   * The request field it is validated as: error messages name the field by this option. The
   * input takes its value under that field as it is, unless it is `built`.
   */
  readonly field?: RequestField;
  /**
   * The command line builds the input from it (a target, a file it reads, a fleet's selection)
   * rather than giving its value as it is.
   */
  readonly built?: true;
  /** Its value parser: the option's text → its field's input (default the text itself). */
  readonly parse?: ValueParser;
  /** The kinds of run it does not apply to, each with the fixed phrase that refuses it there. */
  readonly refused?: Partial<Record<RunMode, string>>;
  /** Also an option of `mcpeval merge`. */
  readonly merge?: true;
  /**
   * Its value can reach a report: refused as it is read, for every command, when it holds a line
   * break or another control, or an invisible format character ({@linkcode UNPRINTABLE_VALUE}).
   */
  readonly reported?: true;
}

/** An option's text → its request field's input; the request's validator checks the result. */
export type ValueParser = (text: string) => unknown;

/** Digits as a number, anything else NaN: the validator refuses it with the range. */
export const integerValue: ValueParser = (text) => /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;

/**
 * `NAME=VALUE` as its two parts, split at the first `=`; throws {@linkcode InvocationError} with
 * `rule` when there is no name before it (the parts are the validator's to check).
 */
export function pairValue(rule: string): (text: string) => readonly [string, string] {
  return (text) => {
    const equals = text.indexOf("=");
    if (equals <= 0) throw new InvocationError(rule);
    return [text.slice(0, equals), text.slice(equals + 1)];
  };
}

/** The one line a malformed `--input` exits 2 with. */
export const INPUT_VALUE_RULE = `--input must be ID=ENV_VAR: ${INPUT_RULE}`;

/** The one line a malformed `--header` exits 2 with. */
export const HEADER_VALUE_RULE =
  "--header must be NAME=ENV_VAR: an HTTP header name and an environment variable name";

/** What no option value that can reach a report may hold: controls, format characters, line and paragraph separators. */
export const UNPRINTABLE_VALUE: RegExp = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const ONLY_CONFIG = "applies only with --config";
const ONLY_URL = "applies only to --url targets";
const ONLY_STDIO = "applies only to stdio targets";
const NOT_SERVER = { stdio: ONLY_CONFIG, http: ONLY_CONFIG } as const;

/**
 * Every option, in the order of the help; the options of `--config` only are listed under it,
 * in this order too.
 */
export const OPTION_TABLE = [
  {
    name: "config",
    type: "string",
    value: "FILE",
    field: "config",
    configHelp: { help: ["check the servers of a client's config file (needs --allow-read)"] },
  },
  {
    name: "server",
    reported: true,
    type: "string",
    multiple: "config",
    value: "NAME",
    field: "server",
    built: true,
    help: [
      "report label (letters, digits, '.', '_', '-'); for a stdio server",
      "the program's name by default (node for 'node dist/server.js');",
      "required with --url",
    ],
    configHelp: { help: ["check only this entry; repeatable (default every entry)"] },
  },
  {
    name: "format",
    type: "string",
    value: "F",
    choices: FORMATS,
    default: DEFAULT_FORMAT,
    help: [`report on stdout: ${either(FORMATS)} (default ${DEFAULT_FORMAT})`],
    merge: true,
  },
  {
    name: "output",
    type: "string",
    multiple: true,
    value: "F=PATH",
    help: ["also write a report in format F to PATH (- for stdout); repeatable"],
    merge: true,
  },
  {
    name: "quiet",
    type: "boolean",
    short: "q",
    help: ["no live progress on stderr (shown only when stderr is a terminal)"],
  },
  {
    name: "profile",
    reported: true,
    type: "string",
    multiple: true,
    value: "P",
    field: "profiles",
    help: [`${either(PROFILES)}; repeatable`, "(default: the five standard profiles)"],
  },
  {
    name: "client",
    reported: true,
    type: "string",
    multiple: true,
    value: "NAME[@VERSION]",
    docValue: "NAME[@VERSION]",
    field: "clients",
    help: [
      "also impersonate a client preset (profile client:NAME, the newest",
      "observed version, or client:NAME@VERSION); repeatable; without",
      "--profile only the presets run; all: every client",
    ],
  },
  {
    name: "client-file",
    type: "string",
    value: "FILE",
    field: "clientPresets",
    built: true,
    help: [
      "client presets that add to or replace the built-in ones (JSON), or an",
      "observation file of mcpeval lab",
    ],
  },
  {
    name: "observe",
    reported: true,
    type: "string",
    multiple: true,
    value: "NAME[@V]",
    docValue: "NAME[@VERSION]",
    field: "observe",
    help: [
      "also run the real client NAME (@V, @latest) once, headless, behind a",
      "discovery-only proxy (profile observed:NAME@VERSION); Linux; repeatable",
    ],
  },
  {
    name: "unknown-references",
    type: "boolean",
    field: "unknownReferences",
    help: ["also report backticked names that no selected catalog lists"],
  },
  {
    name: "require-tool",
    reported: true,
    type: "string",
    multiple: true,
    value: "T",
    field: "requiredTools",
    help: ["a tool every selected profile must list; repeatable"],
    configHelp: {
      value: "S:T",
      help: ["server S must list tool T in every selected profile; repeatable"],
    },
  },
  {
    name: "jobs",
    type: "string",
    value: "N",
    default: String(JOBS.default),
    field: "jobs",
    parse: integerValue,
    refused: NOT_SERVER,
    configHelp: {
      help: [
        `server connections live at once, ${JOBS.min}-${JOBS.max} (default ${JOBS.default})`,
      ],
    },
  },
  {
    name: "shard",
    type: "string",
    value: "I/N",
    field: "shard",
    refused: NOT_SERVER,
    configHelp: {
      help: [
        "check only the servers whose label falls to shard I of N",
        `(FNV-1a 32-bit of the label, mod N; 1 <= I <= N <= ${MAX_SHARDS});`,
        "put the shards' JSON reports together with 'mcpeval merge'",
      ],
    },
  },
  {
    name: "input",
    type: "string",
    multiple: true,
    value: "ID=ENV_VAR",
    field: "inputs",
    built: true,
    parse: pairValue(INPUT_VALUE_RULE),
    refused: NOT_SERVER,
    configHelp: {
      help: ["answer the VS Code input ID with the value of ENV_VAR; repeatable"],
    },
  },
  {
    name: "config-project",
    type: "string",
    value: "PATH",
    field: "project",
    refused: NOT_SERVER,
    configHelp: { help: ["Claude Code's ~/.claude.json: also check this project's servers"] },
  },
  {
    name: "baseline",
    type: "string",
    value: "FILE",
    field: "baseline",
    built: true,
    help: [
      "compare with an earlier JSON report of this server (drift,",
      "new and unchanged candidates); needs --allow-read=FILE; - is stdin",
    ],
  },
  {
    name: "require-baseline-tools",
    type: "boolean",
    field: "requireBaselineTools",
    help: ["every tool of a baseline profile's catalog must still be listed"],
  },
  {
    name: "settle-ms",
    type: "string",
    value: "N",
    default: String(SETTLE_MS.default),
    field: "settleMs",
    parse: integerValue,
    help: [
      `wait after notifications/initialized, ${SETTLE_MS.min}-${SETTLE_MS.max} (default ${SETTLE_MS.default})`,
    ],
  },
  {
    name: "timeout-ms",
    type: "string",
    value: "N",
    default: String(TIMEOUT_MS.default),
    field: "timeoutMs",
    parse: integerValue,
    help: [
      `longest wait for one answer, ${TIMEOUT_MS.min}-${TIMEOUT_MS.max} (default ${TIMEOUT_MS.default})`,
    ],
  },
  {
    name: "protocol-version",
    type: "string",
    value: "V",
    default: PROTOCOL_VERSION,
    field: "protocolVersion",
    help: [
      either([...PROTOCOL_VERSIONS, AUTO]),
      `(default ${PROTOCOL_VERSION}; presets negotiate like their client)`,
    ],
  },
  {
    name: "concurrency",
    type: "string",
    value: "N",
    default: String(CONCURRENCY.default),
    field: "concurrency",
    parse: integerValue,
    help: [
      `profiles run at once, ${CONCURRENCY.min}-${CONCURRENCY.max} (default ${CONCURRENCY.default})`,
    ],
  },
  {
    name: "server-stderr",
    type: "string",
    value: "MODE",
    choices: SERVER_STDERR_MODES,
    default: "tail on a terminal, else discard",
    field: "stderr",
    built: true,
    refused: { http: ONLY_STDIO },
    help: [
      `stdio: ${either(SERVER_STDERR_MODES)} the server's stderr, masked, on stderr only`,
      "(default tail on a terminal, else discard)",
    ],
  },
  {
    name: "url",
    type: "string",
    value: "URL",
    field: "url",
    built: true,
    help: ["Streamable HTTP endpoint; loopback may use http:"],
  },
  {
    name: "allow-remote-http",
    type: "boolean",
    field: "allowRemoteHttp",
    built: true,
    refused: { stdio: ONLY_URL },
    help: ["allow a non-loopback https: endpoint"],
    configHelp: { help: ["also check entries whose https: URL is not loopback"] },
  },
  {
    name: "header",
    type: "string",
    multiple: true,
    value: "NAME=ENV_VAR",
    field: "headers",
    built: true,
    parse: pairValue(HEADER_VALUE_RULE),
    refused: {
      stdio: ONLY_URL,
      config: `${ONLY_URL}; with --config, headers come from the file`,
    },
    help: ["HTTP: send header NAME with the value of ENV_VAR; repeatable"],
  },
  { name: "help", type: "boolean", short: "h", help: ["show this help"], merge: true },
] as const satisfies readonly OptionRow[];

/** The long name of an option of the table. */
export type OptionName = (typeof OPTION_TABLE)[number]["name"];

/**
 * A format's own option as a row: a value that every command writing that format's reports
 * takes (`merge` too), and that can reach a report.
 */
function formatOptionRow(option: FormatOption): OptionRow {
  return {
    name: option.name,
    reported: true,
    type: "string",
    value: option.value,
    ...(option.docValue === undefined ? {} : { docValue: option.docValue }),
    help: option.help,
    merge: true,
  };
}

/** Every option, in the order of the help: the table's, with the formats' own after `--output`. */
export const OPTION_ROWS: readonly OptionRow[] = [
  ...OPTION_TABLE.slice(0, OPTION_TABLE.findIndex((row) => row.name === "output") + 1),
  ...FORMAT_OPTIONS.map(formatOptionRow),
  ...OPTION_TABLE.slice(OPTION_TABLE.findIndex((row) => row.name === "output") + 1),
];

const ROWS: readonly OptionRow[] = OPTION_ROWS;

/** The options of `mcpeval merge`. */
export const MERGE_OPTIONS: readonly OptionRow[] = ROWS.filter((row) => row.merge);

/** The options of `mcpeval lab`, in the order of its help. */
export const LAB_OPTIONS: readonly OptionRow[] = [
  {
    name: "client",
    type: "string",
    multiple: true,
    value: "NAME[@VERSION]",
    help: [
      "observe this client (at VERSION from the npm registry; default its",
      "newest observed version); repeatable",
    ],
  },
  {
    name: "all",
    type: "boolean",
    help: [
      "every client (or those named): the newest version and those of six",
      "30-day steps back; skips what is observed, goes on after a failure",
    ],
  },
  {
    name: "check",
    type: "boolean",
    help: ["write nothing: print the differences from the observation in --out"],
  },
  {
    name: "out",
    type: "string",
    value: "DIR",
    help: ["where observations go (default the package's src/clients/observed)"],
  },
  {
    name: "client-file-out",
    type: "string",
    value: "FILE",
    help: ["also write a --client-file whose presets reproduce the observations"],
  },
  {
    name: "timeout-s",
    type: "string",
    value: "N",
    help: ["bound on one run of a client, in seconds (default 180)"],
  },
  {
    name: "install-timeout-s",
    type: "string",
    value: "N",
    help: ["bound on one install, in seconds (default 300)"],
  },
  { name: "help", type: "boolean", short: "h", help: ["this help"] },
];

/** What chooses the kind of run, in the order a conflict names them. */
const RUN_CHOICES: readonly (readonly [RunMode, string])[] = [
  ["config", "--config"],
  ["stdio", "a server command after '--'"],
  ["http", "--url"],
];

/**
 * The kind of run that `chosen` (`--config`, a command after `--`, `--url`) asks for, or
 * undefined when none is given. Throws {@linkcode InvocationError} when two are given.
 */
export function runModeOf(chosen: Readonly<Record<RunMode, boolean>>): RunMode | undefined {
  const [first, second] = RUN_CHOICES.filter(([mode]) => chosen[mode]);
  if (second) throw new InvocationError(`Give either ${first[1]} or ${second[1]}, not both`);
  return first?.[0];
}

/**
 * Refuses the first option of `given` (in the order given) that every kind of run still possible
 * (`modes`) refuses, or that is repeated where it is not repeatable. Throws
 * {@linkcode InvocationError} with the table's phrase.
 */
export function checkModes(
  given: ReadonlyMap<string, readonly string[]>,
  modes: readonly RunMode[],
): void {
  for (const [name, values] of given) {
    const row = ROWS.find((row) => row.name === name);
    const refused = row?.refused;
    if (refused && modes.every((mode) => refused[mode] !== undefined)) {
      throw new InvocationError(`--${name} ${refused[modes[0]]}`);
    }
    if (row?.multiple === "config" && !modes.includes("config") && values.length > 1) {
      throw new InvocationError(`--${name} may be given only once`);
    }
  }
}

/** The parseArgs option spec of `rows`. */
export function parseSpec<R extends OptionRow>(
  rows: readonly R[],
): Record<R["name"], ParseSpec> {
  return Object.fromEntries(rows.map((row) => [row.name, {
    type: row.type,
    ...(row.multiple ? { multiple: true } : {}),
    ...(row.short ? { short: row.short } : {}),
    ...(row.reported ? { reported: true } : {}),
  }])) as Record<R["name"], ParseSpec>;
}

/** One option of a parseArgs spec: how it is read, and whether it may be given again. */
export interface ParseSpec extends TokenOption {
  readonly multiple?: boolean;
  /** Its value can reach a report ({@linkcode OptionRow.reported}). */
  readonly reported?: boolean;
}

/**
 * The help's lines of `rows`, in the help's Options or its `With --config FILE` section: the
 * option and its value in 25 columns, then its text.
 */
export function helpLines(rows: readonly OptionRow[], section: "options" | "config"): string {
  let text = "";
  for (const row of rows) {
    const entry = section === "options" ? row : row.configHelp;
    if (entry?.help === undefined) continue;
    const value = entry.value ?? row.value;
    const option = `${row.short ? `-${row.short}, ` : ""}--${row.name}${value ? ` ${value}` : ""}`;
    const [first, ...more] = entry.help;
    text += `  ${option.padEnd(24)} ${first}\n`;
    for (const line of more) text += `${" ".repeat(27)}${line}\n`;
  }
  return text;
}

/**
 * The inputs that `given` holds, by the rows that set them: of `fields`, or else of every row
 * given as it is (not `built`). A flag is `true`, a repeatable option its values, another option
 * its value, each value through its row's parser. Fields not given are left out (the validator
 * gives their defaults).
 */
export function fieldInputs<F extends RequestField>(
  given: ReadonlyMap<string, readonly string[]>,
  fields?: readonly F[],
): Partial<Record<F, unknown>> {
  const inputs: Partial<Record<F, unknown>> = {};
  for (const row of ROWS) {
    const values = given.get(row.name);
    const wanted = fields === undefined ? !row.built : fields.includes(row.field as F);
    if (row.field === undefined || !wanted || values === undefined) continue;
    const parse = row.parse ?? String;
    inputs[row.field as F] = row.type === "boolean"
      ? true
      : row.multiple === true
      ? values.map(parse)
      : parse(values[0]);
  }
  return inputs;
}

/** How the command line names the request's fields: by option, or by the command's place. */
export function fieldLabels(): FieldLabels {
  const labels: Partial<Record<RequestField, string>> = {
    command: "The server command after '--'",
    args: "The server command's arguments",
    env: "The server's environment",
    cwd: "The server's folder",
  };
  for (const row of ROWS) if (row.field) labels[row.field] = `--${row.name}`;
  return labels as FieldLabels;
}
