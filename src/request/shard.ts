/**
 * `--shard I/N`: which servers of a fleet fall to shard I of N. A server's shard depends
 * only on its label and N (FNV-1a, 32 bits, of the label's UTF-8 bytes, modulo N, plus one), so
 * adding or removing a server moves no other one, and every machine of a CI matrix agrees.
 * Pure.
 *
 * @module
 */
import { MAX_SHARDS } from "../limits.ts";

/** One shard of a fleet: `index` (1 to `count`) of `count` (1 to {@linkcode MAX_SHARDS}). */
export interface Shard {
  /** Which shard, from 1. */
  readonly index: number;
  /** How many shards the config is split into. */
  readonly count: number;
}

/** The rule a shard breaks (the command line names it `--shard`; never the value itself). */
export const SHARD_RULE =
  `must be I/N: two whole numbers with 1 <= I <= N <= ${MAX_SHARDS}, for example 2/4`;

/** FNV-1a (32 bits) of `text`'s UTF-8 bytes, as an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The shard (1 to `count`) a server label falls to.
 *
 * @example
 * ```ts
 * shardOfLabel("memory", 4); // the same number on every machine, whatever else is configured
 * ```
 */
export function shardOfLabel(label: string, count: number): number {
  return (fnv1a32(label) % count) + 1;
}

/** `I/N` as a shard, or undefined when it is not one (the caller exits 2 with {@linkcode SHARD_RULE}). */
export function parseShard(text: string): Shard | undefined {
  const match = /^([1-9][0-9]{0,2})\/([1-9][0-9]{0,2})$/.exec(text);
  if (!match) return undefined;
  const [index, count] = [Number(match[1]), Number(match[2])];
  return index <= count && count <= MAX_SHARDS ? { index, count } : undefined;
}

/** The items (config entries) whose `name` falls to `shard`, in their order; all without one. */
export function inShard<T extends { readonly name: string }>(
  items: readonly T[],
  shard: Shard | undefined,
): T[] {
  return shard === undefined
    ? [...items]
    : items.filter((item) => shardOfLabel(item.name, shard.count) === shard.index);
}
