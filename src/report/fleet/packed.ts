/**
 * Fleet report entries kept compact: each server's entry as compact JSON, many to a block,
 * each block compressed (DEFLATE), so that a merge of large reports holds its servers in a
 * fraction of the memory of their objects. Entries come back in the order they were added,
 * each parsed again only when it is read. Pure.
 *
 * @module
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { PACKED_BLOCK_CHARS } from "../../limits.ts";
import type { ReportIds } from "../types.ts";
import type { FleetServer } from "./types.ts";

/**
 * Server entries packed into compressed blocks of compact JSON (a line each).
 *
 * @example
 * ```ts
 * const packed = new PackedServers();
 * packed.push({ name: "a", checked: false, reason: "disabled", hint: "..." } as never);
 * for (const server of packed.entries()) console.log(server.name);
 * ```
 */
export class PackedServers {
  readonly #blocks: Uint8Array[] = [];
  #pending: string[] = [];
  #pendingChars = 0;
  #count = 0;
  readonly #blockChars: number;
  /** A store of one block: its entries, parsed once for every pass (no pass parses them again). */
  #only?: readonly FleetServer<ReportIds>[];

  /** `blockChars`: how much compact JSON goes into one block (tests inject a small one). */
  constructor(blockChars: number = PACKED_BLOCK_CHARS) {
    this.#blockChars = blockChars;
  }

  /** How many entries were pushed. */
  get count(): number {
    return this.#count;
  }

  /** Adds an entry (its JSON has no line break: JSON.stringify escapes those in strings). */
  push(server: FleetServer<ReportIds>): void {
    const text = JSON.stringify(server);
    this.#pending.push(text);
    this.#pendingChars += text.length + 1;
    this.#count++;
    if (this.#pendingChars >= this.#blockChars) this.#seal();
  }

  /**
   * The entries in the order pushed, each parsed from its block as it is reached. A store of one
   * block (a few servers, or one large entry) is parsed once and kept: every pass a format makes
   * over it would parse the same text again, a long step no signal can interrupt.
   */
  *entries(): Generator<FleetServer<ReportIds>> {
    this.#seal();
    if (this.#blocks.length === 1) {
      this.#only ??= [...this.#parsed(this.#blocks[0])];
      yield* this.#only;
      return;
    }
    for (const block of this.#blocks) yield* this.#parsed(block);
  }

  *#parsed(block: Uint8Array): Generator<FleetServer<ReportIds>> {
    for (const line of new TextDecoder().decode(inflateRawSync(block)).split("\n")) {
      // What `push` packed: a server entry as it was given.
      yield JSON.parse(line) as FleetServer<ReportIds>;
    }
  }

  #seal(): void {
    if (this.#pending.length === 0) return;
    this.#only = undefined;
    const text = this.#pending.join("\n");
    this.#pending = [];
    this.#pendingChars = 0;
    this.#blocks.push(new Uint8Array(deflateRawSync(new TextEncoder().encode(text), { level: 1 })));
  }
}
