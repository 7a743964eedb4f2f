/** What mcpeval must answer to each server request, per the profile's capabilities (SPEC 4). */

const NOT_FOUND = { error: { code: -32601, message: "Method not found" } };

/** The answers (without `jsonrpc` and `id`) for a profile declaring these capabilities. */
export function expectedAnswers(
  roots: boolean,
  sampling: boolean,
  elicitation: boolean,
): Record<string, unknown> {
  return {
    "sampling/createMessage": sampling
      ? { error: { code: -1, message: "sampling is not performed during discovery" } }
      : NOT_FOUND,
    "elicitation/create": elicitation ? { result: { action: "decline" } } : NOT_FOUND,
    "roots/list": roots ? { result: { roots: [] } } : NOT_FOUND,
    "ping": { result: {} },
    "x/unknown": NOT_FOUND,
  };
}

/** Expected answers for the five profiles in canonical order. */
export const ANSWERS_BY_PROFILE: Record<string, unknown>[] = [
  expectedAnswers(false, false, false),
  expectedAnswers(true, false, false),
  expectedAnswers(false, true, false),
  expectedAnswers(false, false, true),
  expectedAnswers(true, true, true),
];
