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
  /** The block being filled: its entries as given, and as compact JSON for when it is sealed. */
  #pending: FleetServer<ReportIds>[] = [];
  #pendingTexts: string[] = [];
  #pendingChars = 0;
  #count = 0;
  readonly #blockChars: number;

  /** `blockChars`: how much compact JSON goes into one block (tests inject a small one). */
  constructor(blockChars: number = PACKED_BLOCK_CHARS) {
    this.#blockChars = blockChars;
  }

  /** How many entries were pushed. */
  get count(): number {
    return this.#count;
  }

  /**
   * Adds an entry (its JSON has no line break: JSON.stringify escapes those in strings). A full
   * block is sealed when the next entry comes, so the last one stays as given.
   */
  push(server: FleetServer<ReportIds>): void {
    if (this.#pendingChars >= this.#blockChars) this.#seal();
    const text = JSON.stringify(server);
    this.#pending.push(server);
    this.#pendingTexts.push(text);
    this.#pendingChars += text.length + 1;
    this.#count++;
  }

  /**
   * The entries in the order pushed: each sealed block's parsed as it is reached, then the last
   * block's as given. A store of one block (a few servers, or one large entry) is never parsed:
   * every pass a format makes would parse the same text again, a long step no signal can
   * interrupt.
   */
  *entries(): Generator<FleetServer<ReportIds>> {
    const decoder = new TextDecoder();
    for (const block of this.#blocks) {
      for (const line of decoder.decode(inflateRawSync(block)).split("\n")) {
        // What `push` packed: a server entry as it was given.
        yield JSON.parse(line) as FleetServer<ReportIds>;
      }
    }
    yield* [...this.#pending];
  }

  #seal(): void {
    if (this.#pending.length === 0) return;
    const text = this.#pendingTexts.join("\n");
    this.#pending = [];
    this.#pendingTexts = [];
    this.#pendingChars = 0;
    this.#blocks.push(new Uint8Array(deflateRawSync(new TextEncoder().encode(text), { level: 1 })));
  }
}
