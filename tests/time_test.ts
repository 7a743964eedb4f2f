/** Bounded waiting (src/time.ts): a deadline that has passed when it is made waits for nothing. */
import assert from "node:assert/strict";
import { DEADLINE, Deadline } from "../src/time.ts";

Deno.test("a deadline passed when made: a settled promise's value, else DEADLINE, with no timer", async () => {
  using deadline = new Deadline(Date.now());
  assert.equal(await deadline.race(Promise.resolve(1)), 1);
  const { promise, resolve } = Promise.withResolvers<number>();
  assert.equal(await deadline.race(promise), DEADLINE);
  resolve(2);
  assert.equal(await deadline.race(promise), 2);
  await assert.rejects(deadline.race(Promise.reject(new Error("failed"))), /failed/);
  // A stream's read of a chunk already queued has arrived.
  const stream = new ReadableStream<number>({ start: (controller) => controller.enqueue(3) });
  const reader = stream.getReader();
  assert.deepEqual(await deadline.race(reader.read()), { value: 3, done: false });
  assert.equal(await deadline.race(reader.read()), DEADLINE);
  await reader.cancel();
});
