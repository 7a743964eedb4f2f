/**
 * A stand-in for a model API on 127.0.0.1 (a random port): records every request body and
 * answers each API's minimal reply that ends the turn ("ok", no tool call). Anthropic Messages,
 * OpenAI Responses and Chat Completions, Gemini generateContent and streamGenerateContent;
 * streaming (SSE) where the request asks for it.
 *
 * @module
 */

/** One recorded request. */
export interface Recorded {
  /** The request path (no query). */
  readonly path: string;
  /** The parsed JSON body (null when it was not JSON). */
  readonly body: unknown;
  /** A strict stand-in refused it: for which limit, and which tool (`src/lab/strict.ts`). */
  readonly refused?: { readonly limit: string; readonly tool: number; readonly probe: boolean };
}

/**
 * How a strict stand-in answers a request that breaks a documented limit: the status, the body
 * and the limit, or undefined for the lenient answer.
 */
export type Refuse = (
  path: string,
  body: unknown,
) =>
  | {
    readonly status: number;
    readonly body: unknown;
    readonly limit: string;
    readonly tool: number;
    readonly probe: boolean;
  }
  | undefined;

/** A running stand-in. */
export interface StandIn {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: Recorded[];
  /** Stops the server (bounded). */
  readonly close: () => Promise<void>;
}

const TEXT = "ok";
const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json" },
  });
const sse = (events: [string | null, unknown][], done = false) =>
  new Response(
    events.map(([event, data]) =>
      `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`
    ).join("") + (done ? "data: [DONE]\n\n" : ""),
    { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } },
  );

function anthropic(body: Record<string, unknown>): Response {
  const message = {
    id: "msg_lab",
    type: "message",
    role: "assistant",
    model: body.model ?? "lab",
    content: [{ type: "text", text: TEXT }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  if (!body.stream) return json(message);
  return sse([
    ["message_start", {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null },
    }],
    ["content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }],
    ["content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: TEXT },
    }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 1 },
    }],
    ["message_stop", { type: "message_stop" }],
  ]);
}

function responses(body: Record<string, unknown>): Response {
  const item = {
    type: "message",
    id: "msg_lab",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: TEXT, annotations: [] }],
  };
  const usage = {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 2,
  };
  const response = {
    id: "resp_lab",
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: body.model ?? "lab",
    status: "completed",
    output: [item],
    usage,
  };
  if (!body.stream) return json(response);
  return sse([
    ["response.created", {
      type: "response.created",
      response: { ...response, status: "in_progress", output: [] },
    }],
    ["response.output_item.added", {
      type: "response.output_item.added",
      output_index: 0,
      item: { ...item, status: "in_progress", content: [] },
    }],
    ["response.output_text.delta", {
      type: "response.output_text.delta",
      item_id: "msg_lab",
      output_index: 0,
      content_index: 0,
      delta: TEXT,
    }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response }],
  ]);
}

function chat(body: Record<string, unknown>): Response {
  const base = {
    id: "chatcmpl-lab",
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? "lab",
  };
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  if (!body.stream) {
    return json({
      ...base,
      object: "chat.completion",
      choices: [{
        index: 0,
        message: { role: "assistant", content: TEXT },
        finish_reason: "stop",
      }],
      usage,
    });
  }
  const chunk = (delta: unknown, finish: string | null, extra = {}) =>
    [null, {
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    }] as [null, unknown];
  return sse([
    chunk({ role: "assistant", content: TEXT }, null),
    chunk({}, "stop", { usage }),
  ], true);
}

function gemini(stream: boolean): Response {
  const answer = {
    candidates: [{
      content: { role: "model", parts: [{ text: TEXT }] },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: "lab",
  };
  return stream ? sse([[null, answer]]) : json(answer);
}

function answer(path: string, body: Record<string, unknown>): Response {
  if (path.endsWith("/messages/count_tokens")) return json({ input_tokens: 1 });
  if (path.endsWith("/messages")) return anthropic(body);
  if (path.endsWith("/responses")) return responses(body);
  if (path.endsWith("/chat/completions")) return chat(body);
  if (path.endsWith(":streamGenerateContent")) return gemini(true);
  if (path.endsWith(":generateContent")) return gemini(false);
  if (path.endsWith(":countTokens")) return json({ totalTokens: 1 });
  if (path.endsWith("/models")) return json({ object: "list", data: [], models: [] });
  return json({ error: { message: "not served by the lab stand-in" } }, 404);
}

/** Starts a stand-in on 127.0.0.1 and a random port; strict with `refuse`. */
export function startStandIn(refuse?: Refuse): StandIn {
  const requests: Recorded[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text().catch(() => "");
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const refusal = refuse?.(path, body);
    if (refusal) {
      const { limit, tool, probe } = refusal;
      requests.push({ path, body, refused: { limit, tool, probe } });
      return json(refusal.body, refusal.status);
    }
    requests.push({ path, body });
    const object = typeof body === "object" && body !== null ? body as Record<string, unknown> : {};
    return answer(path, object);
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        server.shutdown(),
        new Promise((resolve) => timer = setTimeout(resolve, 2_000)),
      ]);
      clearTimeout(timer);
    },
  };
}
