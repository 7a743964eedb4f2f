/** Large messages parsed once for every profile: the same value, bounded, emptied at the end. */
import assert from "node:assert/strict";
import { MAX_MESSAGE_CONTAINERS } from "../src/limits.ts";
import {
  parseSharedBytes,
  SHARED_PARSE_MAX_BYTES,
  SHARED_PARSE_MIN_BYTES,
  sharedParseCount,
  useSharedParses,
} from "../src/transport/shared_parse.ts";

const encoder = new TextEncoder();
/** A tools/list answer of about `bytes` bytes. */
const page = (bytes: number, id = 1) =>
  encoder.encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      result: { tools: [{ name: "a", description: "d".repeat(bytes), inputSchema: {} }] },
    }),
  );

Deno.test("shared parses: the same large bytes give the same value, other bytes their own", async () => {
  const end = useSharedParses();
  try {
    const first = await parseSharedBytes(page(SHARED_PARSE_MIN_BYTES));
    const again = await parseSharedBytes(page(SHARED_PARSE_MIN_BYTES));
    const other = await parseSharedBytes(page(SHARED_PARSE_MIN_BYTES, 2));
    assert.equal(typeof first, "object");
    assert.equal(again, first);
    assert.notEqual(other, first);
    assert.deepEqual((other as { id: number }).id, 2);
    assert.equal(sharedParseCount(), 2);
  } finally {
    end();
  }
  assert.equal(sharedParseCount(), 0);
});

Deno.test("shared parses: small messages, non-UTF-8 and unused sharing parse every time", async () => {
  const small = encoder.encode('{"jsonrpc":"2.0","id":1,"result":{}}');
  const large = page(SHARED_PARSE_MIN_BYTES);
  // Without a transport using them, nothing is kept.
  assert.notEqual(await parseSharedBytes(large), await parseSharedBytes(large));
  const end = useSharedParses();
  try {
    assert.notEqual(await parseSharedBytes(small), await parseSharedBytes(small));
    const broken = large.slice();
    broken[100] = 0xff;
    assert.equal(await parseSharedBytes(broken), "malformed-message");
    assert.equal(await parseSharedBytes(broken), "malformed-message");
  } finally {
    end();
    end(); // idempotent
  }
  assert.equal(sharedParseCount(), 0);
});

Deno.test("shared parses: kept values are bounded by bytes and by containers, oldest out", async () => {
  const end = useSharedParses();
  const other = useSharedParses();
  try {
    const size = 1024 * 1024;
    for (let id = 0; id < 40; id++) await parseSharedBytes(page(size, id));
    assert.ok(sharedParseCount() * size <= SHARED_PARSE_MAX_BYTES);
    assert.ok(sharedParseCount() >= SHARED_PARSE_MAX_BYTES / size - 1);
    // The newest is kept, the oldest is not.
    assert.equal(await parseSharedBytes(page(size, 39)), await parseSharedBytes(page(size, 39)));
    assert.notEqual(await parseSharedBytes(page(size, 0)), await parseSharedBytes(page(size, 40)));
    end();
    assert.ok(sharedParseCount() > 0, "kept while another transport uses them");
  } finally {
    other();
  }
  assert.equal(sharedParseCount(), 0);
  // Dense structure: a message of many empty arrays is parsed but counts against the bound.
  const dense = useSharedParses();
  try {
    const half = Math.floor(MAX_MESSAGE_CONTAINERS / 2) + 1;
    const arrays = (id: number) =>
      encoder.encode(`{"jsonrpc":"2.0","id":${id},"result":{"a":[${"[],".repeat(half)}[]]}}`);
    await parseSharedBytes(arrays(1));
    await parseSharedBytes(arrays(2));
    assert.equal(sharedParseCount(), 1, "two of them exceed the containers one message may hold");
  } finally {
    dense();
  }
});
