/** Bounded waiting (src/time.ts): a deadline that has passed waits for nothing. */
import assert from "node:assert/strict";
import { DEADLINE, ifSettled } from "../src/time.ts";

Deno.test("ifSettled: a settled promise's value, else DEADLINE, with no timer", async () => {
  assert.equal(await ifSettled(Promise.resolve(1)), 1);
  const { promise, resolve } = Promise.withResolvers<number>();
  assert.equal(await ifSettled(promise), DEADLINE);
  resolve(2);
  assert.equal(await ifSettled(promise), 2);
  await assert.rejects(ifSettled(Promise.reject(new Error("failed"))), /failed/);
  // A stream's read of a chunk already queued has arrived.
  const stream = new ReadableStream<number>({ start: (controller) => controller.enqueue(3) });
  const reader = stream.getReader();
  assert.deepEqual(await ifSettled(reader.read()), { value: 3, done: false });
  assert.equal(await ifSettled(reader.read()), DEADLINE);
  await reader.cancel();
});
