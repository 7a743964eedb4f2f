/**
 * The strict stand-in (SPEC 25): the limits each model API documents, each answered as the API
 * answers a request that breaks it (the documented status and body), and the scenarios the lab
 * runs against it to observe what a client does when its request is refused.
 *
 * A limit is here only where a document with its address and date, or a thread that quotes the
 * real body word for word, gives the status and the body ({@linkcode ApiLimit.evidence}); every
 * other limit has no rule. A preset rule derived from a strict scenario carries both pieces of
 * evidence: this document (read), and the client's reaction (observed).
 *
 * Read on 2026-12-07:
 *
 * - Anthropic Messages, `tools[].name` at most 128 characters: the body of claude-code#96152
 *   (2026-09-22, Claude Code 2.1.280). The pattern `^[a-zA-Z0-9_-]{1,128}$`: the body of
 *   jedisct1/openapi-mcp#9 (2025-06-29). Earlier threads quote `{1,64}` (claude-code#1423,
 *   2025-05-30); claude-code#16425 (2026-01-06) says the limit rose to 128 in June 2025, and 64
 *   is now the limit of `tool_reference.tool_name` only (tool search results).
 * - Anthropic Messages, `input_schema` validated as JSON Schema 2020-12: the body of
 *   claude-code#63673 (2026-05-29); kintone/mcp-server#553 (2026-08-18) finds a draft-07 tuple
 *   `items` is what fails.
 * - OpenAI Chat Completions, at most 128 tools: the body of vishalmysore/Tools4AI#16
 *   (2024-05-15), status 400 in julep-ai/julep#330 (2024-05-09), again in obot-platform#516
 *   (2025-11-19). A function name of at most 64 characters: the body of ravitemer/mcphub.nvim#243
 *   (2025-09-08); the pattern `^[a-zA-Z0-9_-]+$`: the body of brekkylab/ailoy#109 (2025-06-09).
 * - Gemini generateContent, at most 512 function declarations: the body of gemini-cli#19083
 *   (2026-02-14); a function name (letter or underscore first, a-z, A-Z, 0-9, `_`, `.`, `-`, at
 *   most 64): the body of SuperClaude-Org/SuperGemini_Framework#12 (2025-10-02).
 * - OpenAI Responses: none. The 64-character name body of openai/codex#1289 (2025-06-09) is
 *   outdated (openai/codex#46188, 2026-09-17: the Responses API takes 128), and no thread quotes
 *   the body of the newer limit or of a tool count on that API.
 *
 * @module
 */
import type { ModelApi } from "./driver.ts";
import type { ObservedStrict, StrictReaction } from "./observation.ts";
import { declaredTools, observeCatalogs } from "./observe.ts";
import type { ProbeServer } from "./probe_catalog.ts";
import { PROBE_MARKER, probeMarker } from "./probe_marker.ts";
import type { Recorded } from "./stand_in.ts";
import EVIDENCE_DATA from "./api_limits.json" with { type: "json" };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Where a limit's status and body come from. */
export interface LimitEvidence {
  /** The document or thread (an `https:` address). */
  readonly url: string;
  /** Its date (the thread's post quoting the body, or the document's). */
  readonly date: string;
  /** When the lab's authors read it. */
  readonly read: string;
}

/** A refusal: the status and body the API answers, and which tool of the request broke it. */
export interface Refusal {
  readonly status: number;
  readonly body: unknown;
  /** The index of the offending tool among the request's declarations (-1: the whole list). */
  readonly tool: number;
  /** Whether the offending tool is a probe tool (its description carries a probe marker). */
  readonly probe: boolean;
}

/** The kind of rule a limit becomes in a preset. */
export type LimitRule = "api-name-length" | "api-max-tools" | "schema-invalid-2020-12";

/** One documented limit of a model API. */
export interface ApiLimit {
  /** Its id (recorded in observations). */
  readonly id: string;
  /** The API. */
  readonly api: ModelApi;
  /**
   * The rule kind it becomes, and its value (none: no scenario shows a client breaking it, since
   * the clients observed rewrite names to the characters every API takes).
   */
  readonly rule?: LimitRule;
  readonly value?: number | true;
  /** What its rule judges: the request's count of tools (a cap), or each name as sent. */
  readonly judges?: "count" | "name";
  /** The scenario that shows the client's reaction to it (none: no client was seen to break it). */
  readonly scenario?: string;
  readonly evidence: LimitEvidence;
  /** The refusal of a request body that breaks it, or undefined. */
  readonly refuse: (declared: readonly DeclaredTool[], body: Json) => Refusal | undefined;
}

/** Each limit's evidence, by limit id (`api_limits.json`: the address, its date, when read). */
const EVIDENCE: Readonly<Record<string, LimitEvidence>> = EVIDENCE_DATA;

/** One tool of a request, as the strict checks see it. */
export interface DeclaredTool {
  readonly name: string;
  readonly description: string;
  readonly schema: unknown;
}

const isProbe = (tool: DeclaredTool | undefined) =>
  tool !== undefined && tool.description.includes(PROBE_MARKER);

/** The first declared tool that `broken` holds for, refused with `answer(index, tool)`. */
function firstBroken(
  declared: readonly DeclaredTool[],
  broken: (tool: DeclaredTool) => boolean,
  answer: (index: number, tool: DeclaredTool) => unknown,
): Refusal | undefined {
  const index = declared.findIndex(broken);
  if (index === -1) return undefined;
  return {
    status: 400,
    body: answer(index, declared[index]),
    tool: index,
    probe: isProbe(declared[index]),
  };
}

const anthropicError = (message: string) => ({
  type: "error",
  error: { type: "invalid_request_error", message },
  request_id: "req_lab",
});

let validate2020: ((schema: unknown) => boolean) | undefined;

/** Loads the JSON Schema 2020-12 meta-schema validator (ajv), once. */
export async function prepareStrict(): Promise<void> {
  if (validate2020) return;
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const meta = ajv.getSchema("https://json-schema.org/draft/2020-12/schema");
  if (!meta) throw new Error("ajv has no 2020-12 meta-schema");
  validate2020 = (schema) => {
    try {
      return meta(schema) as boolean;
    } catch {
      return false;
    }
  };
}

/** Whether `schema` is a valid JSON Schema 2020-12 (its meta-schema; `prepareStrict` first). */
export function valid2020(schema: unknown): boolean {
  if (!validate2020) throw new Error("the strict stand-in was not prepared");
  return validate2020(schema);
}

const openAiError = (error: Json) => ({ error });

/** Every documented limit, per API, in the order the stand-in checks them. */
export const API_LIMITS: readonly ApiLimit[] = [
  {
    id: "anthropic-name-length",
    api: "anthropic",
    rule: "api-name-length",
    value: 128,
    judges: "name",
    scenario: "name",
    evidence: EVIDENCE["anthropic-name-length"],
    refuse: (declared) =>
      firstBroken(
        declared,
        (tool) => tool.name.length > 128,
        (index) =>
          anthropicError(`tools.${index}.custom.name: String should have at most 128 characters`),
      ),
  },
  {
    id: "anthropic-name-pattern",
    api: "anthropic",
    evidence: EVIDENCE["anthropic-name-pattern"],
    refuse: (declared) =>
      firstBroken(
        declared,
        (tool) => !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name),
        (index) =>
          anthropicError(
            `tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
          ),
      ),
  },
  {
    id: "anthropic-schema-2020-12",
    api: "anthropic",
    rule: "schema-invalid-2020-12",
    value: true,
    scenario: "schema",
    evidence: EVIDENCE["anthropic-schema-2020-12"],
    refuse: (declared) =>
      firstBroken(declared, (tool) => !valid2020(tool.schema), (index) =>
        anthropicError(
          `tools.${index}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.`,
        )),
  },
  {
    id: "chat-tool-count",
    api: "chat",
    rule: "api-max-tools",
    value: 128,
    judges: "count",
    scenario: "count",
    evidence: EVIDENCE["chat-tool-count"],
    refuse: (declared) =>
      declared.length <= 128 ? undefined : {
        status: 400,
        body: openAiError({
          message:
            `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${declared.length} instead.`,
          type: "invalid_request_error",
          param: "tools",
          code: "array_above_max_length",
        }),
        tool: -1,
        probe: true,
      },
  },
  {
    id: "chat-name-length",
    api: "chat",
    rule: "api-name-length",
    value: 64,
    judges: "name",
    scenario: "name",
    evidence: EVIDENCE["chat-name-length"],
    refuse: (declared) =>
      firstBroken(declared, (tool) => tool.name.length > 64, (index, tool) =>
        openAiError({
          message:
            `Invalid 'tools[${index}].function.name': string too long. Expected a string with maximum length 64, but got a string with length ${tool.name.length} instead.`,
          code: "string_above_max_length",
        })),
  },
  {
    id: "chat-name-pattern",
    api: "chat",
    evidence: EVIDENCE["chat-name-pattern"],
    refuse: (declared) =>
      firstBroken(declared, (tool) => !/^[a-zA-Z0-9_-]+$/.test(tool.name), (index) =>
        openAiError({
          message:
            `Invalid 'tools[${index}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
          type: "invalid_request_error",
          param: `tools[${index}].function.name`,
          code: "invalid_value",
        })),
  },
  {
    id: "gemini-tool-count",
    api: "gemini",
    rule: "api-max-tools",
    value: 512,
    judges: "count",
    scenario: "count",
    evidence: EVIDENCE["gemini-tool-count"],
    refuse: (declared) =>
      declared.length <= 512 ? undefined : {
        status: 400,
        body: {
          error: {
            code: 400,
            message:
              "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations: [FIELD_INVALID] At most 512 function declarations can be specified.",
            status: "INVALID_ARGUMENT",
          },
        },
        tool: -1,
        probe: true,
      },
  },
  {
    id: "gemini-name",
    api: "gemini",
    rule: "api-name-length",
    value: 64,
    judges: "name",
    scenario: "name",
    evidence: EVIDENCE["gemini-name"],
    refuse: (declared) =>
      firstBroken(
        declared,
        (tool) => !/^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/.test(tool.name),
        (index) => {
          const message =
            `The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[${index}].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64.`;
          return {
            error: {
              code: 400,
              message,
              errors: [{ message, domain: "global", reason: "badRequest" }],
              status: "INVALID_ARGUMENT",
            },
          };
        },
      ),
  },
];

/** The limits of `api`. */
export const limitsOf = (api: ModelApi): readonly ApiLimit[] =>
  API_LIMITS.filter((limit) => limit.api === api);

/** The Anthropic tools the API validates as custom tools (no `type`, or `custom`). */
function anthropicCustom(body: Json): DeclaredTool[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.flatMap((tool) =>
    isObject(tool) && (tool.type === undefined || tool.type === "custom") &&
      typeof tool.name === "string"
      ? [{
        name: tool.name,
        description: typeof tool.description === "string" ? tool.description : "",
        schema: tool.input_schema,
      }]
      : []
  );
}

/**
 * The strict stand-in's answer to a request of `api` at `path`: the refusal of the first limit
 * it breaks, with the limit's id, or undefined (the lenient answer follows).
 */
export function strictAnswer(
  api: ModelApi,
  path: string,
  body: unknown,
): (Refusal & { readonly limit: string }) | undefined {
  if (!isObject(body) || path.endsWith("/count_tokens") || path.endsWith(":countTokens")) {
    return undefined;
  }
  const generates = path.endsWith("/messages") || path.endsWith("/chat/completions") ||
    path.endsWith(":generateContent") || path.endsWith(":streamGenerateContent");
  if (!generates) return undefined;
  const declared = api === "anthropic" ? anthropicCustom(body) : declaredTools(api, body);
  for (const limit of limitsOf(api)) {
    const refusal = limit.refuse(declared, body);
    if (refusal) return { ...refusal, limit: limit.id };
  }
  return undefined;
}

const object = () => ({ type: "object", properties: { q: { type: "string" } } });

/** A name of `length` characters (`n120_xxx...`). */
const named = (length: number) =>
  `n${length}_${"x".repeat(length - 1 - String(length).length - 1)}`;

/** One strict scenario: its servers (the first one plain) and its probe server and tool. */
export interface StrictScenario {
  /** The servers configured, in order: `ok` (one plain tool) and the scenario's. */
  readonly servers: Readonly<Record<string, ProbeServer>>;
  /** The scenario's probe server (its id) and the index of its probe tool there. */
  readonly probe: { readonly server: string; readonly tool: number };
}

const OK: ProbeServer = { label: "ok", tools: [{ name: "plain", inputSchema: object() }] };

/** The scenarios, by id. */
export const STRICT_SCENARIOS: Readonly<Record<string, StrictScenario>> = {
  // Names of 118, 119 and 120 characters on a 3-character label: 128, 129 and 130 qualified as
  // `mcp__srv__NAME` (a client that drops what the API would refuse shows where), past 64 too.
  name: {
    servers: {
      ok: OK,
      srv: {
        label: "srv",
        tools: [
          { name: "plain", inputSchema: object() },
          ...[118, 119, 120].map((length) => ({
            name: named(length),
            inputSchema: object(),
            decides: {
              kind: "length",
              rule: "max-qualified-name-length",
              length: 3 + length,
              name: length,
            } as const,
          })),
        ],
      },
    },
    probe: { server: "srv", tool: 3 },
  },
  // 520 tools: past 128 (OpenAI Chat Completions) and 512 (Gemini) with the client's own.
  count: {
    servers: {
      ok: OK,
      big: {
        label: "big",
        tools: Array.from({ length: 520 }, (_, k) => ({
          name: `t${String(k).padStart(3, "0")}`,
          inputSchema: object(),
          decides: { kind: "cap" } as const,
        })),
      },
    },
    probe: { server: "big", tool: 519 },
  },
  // A draft-07 tuple `items`: valid draft-07, invalid JSON Schema 2020-12.
  schema: {
    servers: {
      ok: OK,
      schema: {
        label: "schema",
        tools: [{ name: "plain", inputSchema: object() }, {
          name: "tuple",
          inputSchema: {
            type: "object",
            properties: {
              pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
            },
          },
          decides: { kind: "flag", rule: "schema-tuple-items", value: true } as const,
        }],
      },
    },
    probe: { server: "schema", tool: 1 },
  },
};

/** The scenarios that show a client of `api` breaking a limit, in order. */
export function scenariosOf(api: ModelApi): string[] {
  return [...new Set(limitsOf(api).flatMap((limit) => limit.scenario ? [limit.scenario] : []))];
}

/**
 * How the client named the scenario's probe tool: `prefix`, then the label and `separator`
 * (`label`), then the name as served; null when the name it sent is not of that form.
 */
function qualifiedOf(
  sent: string | null,
  label: string,
  name: string,
): ObservedStrict["qualified"] {
  if (sent === null || !sent.endsWith(name)) return null;
  const before = sent.slice(0, sent.length - name.length);
  const at = before.lastIndexOf(label);
  if (at === -1) {
    return before.length <= 32 ? { prefix: before, separator: "", label: false } : null;
  }
  const prefix = before.slice(0, at);
  const separator = before.slice(at + label.length);
  return prefix.length <= 32 && separator.length <= 32 ? { prefix, separator, label: true } : null;
}

/** What one run against the strict stand-in shows, from its requests and output. */
export function observeStrict(
  id: string,
  api: ModelApi,
  requests: readonly Recorded[],
  output: readonly string[],
): ObservedStrict {
  const scenario = STRICT_SCENARIOS[id];
  const catalogs = Object.entries(scenario.servers);
  const first = requests.findIndex((r) => r.refused !== undefined);
  const refused = requests.filter((r) => r.refused !== undefined);
  const declares = (r: Recorded) => declaredTools(api, r.body).length > 0;
  const accepted = first === -1
    ? [...requests]
    : requests.slice(first + 1).filter((r) => r.refused === undefined && declares(r));
  const servers = observeCatalogs(
    api,
    first !== -1 && accepted.length === 0 ? [] : accepted,
    output,
    catalogs,
  );
  // How it named the probe tool: from any request that declared it, refused or not.
  const everything = observeCatalogs(api, requests, output, catalogs);
  const probeServer = catalogs.findIndex(([server]) => server === scenario.probe.server);
  const probeTool = everything[probeServer].tools[scenario.probe.tool];
  let reaction: StrictReaction = "not-refused";
  if (first !== -1) {
    const [ok, probe] = [servers[0], servers[probeServer]];
    if (accepted.length === 0) reaction = "turn-fails";
    else if (probe.tools[scenario.probe.tool].sent) reaction = "other";
    else if (probe.tools.some((tool) => tool.sent)) reaction = "tool-dropped";
    else if (ok.tools.some((tool) => tool.sent)) reaction = "server-dropped";
    else reaction = "other";
  }
  const turn = requests.map((r) => declaredTools(api, r.body)).reduce(
    (most, declared) => declared.length > most.length ? declared : most,
    [] as ReturnType<typeof declaredTools>,
  );
  return {
    scenario: id,
    limit: refused[0]?.refused?.limit ?? null,
    probe_refused: refused[0]?.refused?.probe ?? false,
    requests: requests.length,
    refused: refused.length,
    reaction,
    qualified: qualifiedOf(
      probeTool.model_name,
      scenario.probe.server,
      catalogs[probeServer][1].tools[scenario.probe.tool].name,
    ),
    builtin_tools: turn.filter((d) => !d.description.includes(PROBE_MARKER)).length,
    servers,
  };
}

/** The probe marker of a scenario's probe tool (for tests). */
export const scenarioMarker = (id: string): string => {
  const { probe } = STRICT_SCENARIOS[id];
  return probeMarker(probe.server, probe.tool);
};
