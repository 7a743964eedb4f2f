/** Bounded newline framing, at the limit and one past it. */
import assert from "node:assert/strict";
import { lineReader, MessageTooLargeError } from "../src/transport/lines.ts";

/** Each line as its own copy. */
const lineSplitter = (maxBytes: number, maxContainers?: number) =>
  lineReader(maxBytes, maxContainers, (line) => line.slice());

async function split(chunks: string[], maxBytes: number): Promise<string[]> {
  const encoder = new TextEncoder();
  const source = ReadableStream.from(chunks.map((chunk) => encoder.encode(chunk)));
  const lines: string[] = [];
  for await (const line of source.pipeThrough(lineSplitter(maxBytes))) {
    lines.push(new TextDecoder().decode(line));
  }
  return lines;
}

Deno.test("lines: split on \\n, strip one \\r, join partial lines across chunks", async () => {
  assert.deepEqual(await split(["a\r\nb", "c\n", "\n", "d\r", "\ne"], 10), [
    "a",
    "bc",
    "",
    "d",
    "e",
  ]);
});

Deno.test("lines: a line of exactly the limit passes, with or without \\r", async () => {
  assert.deepEqual(await split(["12345\n", "123", "45\r\n"], 5), ["12345", "12345"]);
});

Deno.test("lines: one byte past the limit fails, in one chunk or across chunks", async () => {
  await assert.rejects(split(["123456\n"], 5), MessageTooLargeError);
  await assert.rejects(split(["1234", "56"], 5), MessageTooLargeError);
  await assert.rejects(split(["1234", "56\r\n"], 5), MessageTooLargeError);
});

async function splitCounting(chunks: string[], maxContainers: number): Promise<string[]> {
  const encoder = new TextEncoder();
  const source = ReadableStream.from(chunks.map((chunk) => encoder.encode(chunk)));
  const lines: string[] = [];
  for await (const line of source.pipeThrough(lineSplitter(1_000, maxContainers))) {
    lines.push(new TextDecoder().decode(line));
  }
  return lines;
}

Deno.test("lines: containers are counted once a line is longer than their bound, from its start", async () => {
  // Six containers: the first chunks are held uncounted, then counted when the line grows.
  await assert.rejects(splitCounting(["[[", "[[", "[[", "]]]]]]\n"], 5), MessageTooLargeError);
  await assert.rejects(splitCounting(["[[[[[[]]]]]]\n"], 5), MessageTooLargeError);
  // Five containers and brackets inside a string pass, however long the line.
  assert.deepEqual(await splitCounting(["[[[", "[[]]", "]]]\n", '["[[[[[[[["]\n'], 5), [
    "[[[[[]]]]]",
    '["[[[[[[[["]',
  ]);
  // The next line starts uncounted again.
  assert.deepEqual(await splitCounting(['["[[[[[[', '[["]\n[[]]\n'], 5), ['["[[[[[[[["]', "[[]]"]);
});

Deno.test("lines: a reader's line stays whole while it is taken, though its buffer is reused", async () => {
  const encoder = new TextEncoder();
  const lines = ["a".repeat(300), "b".repeat(500), "c".repeat(200), "d"];
  // Each line split over several chunks, the next one starting in the same chunk.
  const text = lines.join("\n") + "\n";
  const chunks = Array.from(
    { length: Math.ceil(text.length / 128) },
    (_, i) => encoder.encode(text.slice(i * 128, (i + 1) * 128)),
  );
  const taken: string[] = [];
  const reader = lineReader(1_000, undefined, async (line) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    taken.push(new TextDecoder().decode(line));
    return line.length;
  });
  const lengths: number[] = [];
  for await (const length of ReadableStream.from(chunks).pipeThrough(reader)) lengths.push(length);
  assert.deepEqual(taken, lines);
  assert.deepEqual(lengths, [300, 500, 200, 1]);
});
