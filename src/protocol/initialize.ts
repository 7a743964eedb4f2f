/**
 * The `initialize` result check. Hand-written rather than the SDK's zod `InitializeResultSchema`,
 * whose import pulls the whole SDK package (and its dependency list) into the runtime just to
 * validate one message; tests/initialize_test.ts checks that the two agree.
 *
 * @module
 */

/** What discovery needs from a valid InitializeResult. */
export interface InitializeFacts {
  readonly protocolVersion: string;
  readonly hasTools: boolean;
  readonly instructions: string | undefined;
}

/**
 * The facts of a valid InitializeResult, or undefined when `value` is not one (as the SDK 1.32.2
 * InitializeResultSchema decides, for any value `JSON.parse` can produce).
 *
 * @example
 * ```ts
 * const facts = parseInitializeResult({
 *   protocolVersion: "2025-06-18",
 *   capabilities: { tools: {} },
 *   serverInfo: { name: "demo", version: "1.0.0" },
 * });
 * // facts: { protocolVersion: "2025-06-18", hasTools: true, instructions: undefined }
 * ```
 */
export function parseInitializeResult(value: unknown): InitializeFacts | undefined {
  if (!isObject(value)) return undefined;
  const { protocolVersion, capabilities, instructions } = value;
  if (
    !isString(protocolVersion) || !isServerCapabilities(capabilities) ||
    !isImplementation(value.serverInfo) ||
    !(instructions === undefined || isString(instructions)) || !optional(value._meta, isMeta)
  ) return undefined;
  return { protocolVersion, hasTools: capabilities.tools !== undefined, instructions };
}

type Json = Record<string, unknown>;

/** An object schema's input: not null, not an array. Unknown keys are always allowed. */
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** The SDK's `AssertObjectSchema`: anything non-null of type object, arrays included. */
const isObjectLike = (value: unknown) =>
  value !== null && (typeof value === "object" || typeof value === "function");
const optional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isBoolean = (value: unknown) => typeof value === "boolean";
const arrayOf = (check: (value: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.every(check);
/** zod's `record(string, …)`: an own `__proto__` key is skipped, not checked. */
const recordOf = (check: (value: unknown) => boolean) => (value: unknown) =>
  isObject(value) &&
  Object.entries(value).every(([key, entry]) => key === "__proto__" || check(entry));
const flags = (...keys: string[]) => (value: unknown) =>
  isObject(value) && keys.every((key) => optional(value[key], isBoolean));

/** `_meta`: a progress token (string or safe integer) and a related task, when present. */
function isMeta(value: unknown): boolean {
  return isObject(value) &&
    optional(
      value.progressToken,
      (token) => isString(token) || Number.isSafeInteger(token),
    ) &&
    optional(
      value["io.modelcontextprotocol/related-task"],
      (task) => isObject(task) && isString(task.taskId),
    );
}

function isIcon(value: unknown): boolean {
  return isObject(value) && isString(value.src) &&
    optional(value.mimeType, isString) &&
    optional(value.sizes, arrayOf(isString)) &&
    optional(value.theme, (theme) => theme === "light" || theme === "dark");
}

function isImplementation(value: unknown): boolean {
  return isObject(value) && isString(value.name) && isString(value.version) &&
    optional(value.title, isString) &&
    optional(value.icons, arrayOf(isIcon)) &&
    optional(value.websiteUrl, isString) &&
    optional(value.description, isString);
}

function isTasksCapability(value: unknown): boolean {
  return isObject(value) &&
    optional(value.list, isObjectLike) &&
    optional(value.cancel, isObjectLike) &&
    optional(
      value.requests,
      (requests) =>
        isObject(requests) &&
        optional(requests.tools, (tools) => isObject(tools) && optional(tools.call, isObjectLike)),
    );
}

function isServerCapabilities(value: unknown): value is Json {
  return isObject(value) &&
    optional(value.experimental, recordOf(isObjectLike)) &&
    optional(value.logging, isObjectLike) &&
    optional(value.completions, isObjectLike) &&
    optional(value.prompts, flags("listChanged")) &&
    optional(value.resources, flags("subscribe", "listChanged")) &&
    optional(value.tools, flags("listChanged")) &&
    optional(value.tasks, isTasksCapability) &&
    optional(value.extensions, recordOf(isObjectLike));
}

/** What discovery needs from a valid 2026-07-28 `server/discover` result. */
export interface DiscoverFacts {
  readonly supportedVersions: readonly string[];
  readonly hasTools: boolean;
  readonly instructions: string | undefined;
}

/**
 * The facts of a valid `server/discover` result (2026-07-28): `supportedVersions` a list of
 * strings, `capabilities` an object, `instructions` absent or a string, and `resultType` absent
 * or `"complete"`; other members are not discovery's concern. Undefined when it is not one.
 */
export function parseDiscoverResult(value: unknown): DiscoverFacts | undefined {
  if (!isObject(value)) return undefined;
  const { supportedVersions, capabilities, instructions, resultType } = value;
  if (
    !Array.isArray(supportedVersions) || !supportedVersions.every(isString) ||
    !isObject(capabilities) ||
    !(instructions === undefined || isString(instructions)) ||
    !(resultType === undefined || resultType === "complete") ||
    !(capabilities.tools === undefined || isObject(capabilities.tools))
  ) return undefined;
  return { supportedVersions, hasTools: capabilities.tools !== undefined, instructions };
}

/** The cache scopes of a 2026-07-28 cacheable result. */
const CACHE_SCOPES: readonly unknown[] = ["public", "private"];

/**
 * Whether a 2026-07-28 result breaks the revision's result schema where discovery checks it:
 * `_meta` present but not an object, `ttlMs` present but not a non-negative integer, or
 * `cacheScope` present but neither `"public"` nor `"private"`. Absent members are tolerated
 * (the specification tells clients to assume a `ttlMs` of 0).
 */
export function breaksResultSchema(result: Record<string, unknown>): boolean {
  const { _meta, ttlMs, cacheScope } = result;
  return (_meta !== undefined && !isObject(_meta)) ||
    (ttlMs !== undefined && !(Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0)) ||
    (cacheScope !== undefined && !CACHE_SCOPES.includes(cacheScope));
}
