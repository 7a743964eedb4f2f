/** The JSON-RPC 2.0 envelope check of MCP 2025-06-18. */
import assert from "node:assert/strict";
import { MAX_MESSAGE_CONTAINERS } from "../src/limits.ts";
import { closingQuote, endsInEscape } from "../src/json_text.ts";
import { ContainerCounter, containersAtMost, parseMessage } from "../src/protocol/messages.ts";

const VALID = [
  { jsonrpc: "2.0", id: 0, method: "roots/list" },
  { jsonrpc: "2.0", id: "a", method: "ping", params: {} },
  { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: "1", error: { code: -32601, message: "Method not found", data: [1] } },
  { jsonrpc: "2.0", id: 2, error: { code: -1, message: "", extra: true } },
];
const INVALID = [
  [{ jsonrpc: "2.0", id: 1, result: {} }],
  null,
  "text",
  { id: 1, result: {} },
  { jsonrpc: "1.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: null, result: {} },
  { jsonrpc: "2.0", id: 1.5, result: {} },
  { jsonrpc: "2.0", id: true, method: "ping" },
  { jsonrpc: "2.0", id: 1 },
  { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } },
  { jsonrpc: "2.0", id: 1, result: [] },
  { jsonrpc: "2.0", id: 1, result: null },
  { jsonrpc: "2.0", id: 1, result: {}, extra: 1 },
  { jsonrpc: "2.0", id: 1, error: { code: "x", message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: 1 } },
  { jsonrpc: "2.0", method: 7 },
  { jsonrpc: "2.0", method: "m", params: [] },
  { jsonrpc: "2.0", method: "m", extra: 1 },
];

Deno.test("envelope: valid messages pass", () => {
  for (const message of VALID) assert.deepEqual(parseMessage(JSON.stringify(message)), message);
});

Deno.test("envelope: batches, wrong members and wrong types are refused", () => {
  for (const message of INVALID) {
    assert.equal(
      parseMessage(JSON.stringify(message)),
      "malformed-message",
      JSON.stringify(message),
    );
  }
  assert.equal(parseMessage("{"), "malformed-message");
  assert.equal(parseMessage(""), "malformed-message");
});

Deno.test("the structure bound: objects and arrays are counted outside strings only", () => {
  assert.equal(containersAtMost(`{"a":[1,{"b":"[{\\"[{"}]}`, 3), true);
  assert.equal(containersAtMost(`{"a":[1,{"b":"[{\\"[{"}]}`, 2), false);
  assert.equal(containersAtMost(`"unterminated [[[`, 0), true);
  assert.equal(containersAtMost(`[[[`, 2), false);
});

Deno.test("a large message with more containers than the bound is message-too-large", () => {
  const empties = (count: number) =>
    `{"jsonrpc":"2.0","id":1,"result":{"tools":[${"{},".repeat(count - 1)}{}]}}`;
  assert.equal(parseMessage(empties(MAX_MESSAGE_CONTAINERS + 1)), "message-too-large");
  const fine = parseMessage(empties(MAX_MESSAGE_CONTAINERS - 3));
  assert.equal(typeof fine, "object");
  // Brackets inside strings do not count, however many.
  const text = `{"jsonrpc":"2.0","id":1,"result":{"d":"${"[{".repeat(MAX_MESSAGE_CONTAINERS)}"}}`;
  assert.equal(typeof parseMessage(text), "object");
});

Deno.test("the byte counter agrees with the text scan, however the bytes are split", () => {
  const texts = [
    `{"a":[1,{"b":"[{\\\\"[{"}],"c":"\\\\\\\\"}`,
    `{"x":"\\\\\\\\\\\\"[[[","y":[[],[]]}`,
    `[{"k":"v"},{"k":"\\\\u005b"},"{[",[]]`,
  ];
  for (const text of texts) {
    const bytes = new TextEncoder().encode(text);
    for (let max = 0; max < 8; max++) {
      const expected = containersAtMost(text, max);
      for (let split = 0; split <= bytes.length; split++) {
        const counter = new ContainerCounter(max);
        const first = counter.feed(bytes, 0, split);
        const second = counter.feed(bytes, split, bytes.length);
        assert.equal(first && second, expected, `${text} max ${max} split ${split}`);
      }
    }
  }
});

Deno.test("a JSON string ends at the first quote after an even run of backslashes, in text and bytes", () => {
  const text = `"a\\"b\\\\" [`;
  for (const units of [text, new TextEncoder().encode(text)]) {
    assert.equal(closingQuote(units, 1, text.length), 7);
    assert.equal(closingQuote(units, 1, 7), -1);
    // A piece that stops inside a string: whether its last backslash escapes the next unit.
    assert.equal(endsInEscape(units, 1, 3), true);
    assert.equal(endsInEscape(units, 1, 7), false);
  }
});
