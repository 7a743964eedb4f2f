/**
 * Large messages parsed once for every profile: the profiles of a run usually receive
 * byte-identical `tools/list` pages, and parsing them was most of a large run's time. A large
 * message whose bytes were seen lately (the same SHA-256) is answered with the value parsed for
 * them before, which no reader modifies.
 *
 * Process-wide like the large-message slot, and bounded: it keeps parsed values only (no text),
 * of messages of at most {@linkcode SHARED_PARSE_MAX_BYTES} bytes and
 * {@linkcode MAX_MESSAGE_CONTAINERS} objects and arrays in all (what one message may hold),
 * oldest out first, and is emptied when the last transport that uses it is closed.
 *
 * @module
 */
import { MAX_MESSAGE_CONTAINERS } from "../limits.ts";
import {
  ContainerCounter,
  type JsonRpcMessage,
  type MessageProblem,
  parseMessage,
} from "../protocol/messages.ts";
import { LARGE_MESSAGE_BYTES } from "./large.ts";

/** Messages shorter than this many bytes are parsed every time (parsing them is cheap). */
export const SHARED_PARSE_MIN_BYTES = 65_536;

/** The values kept are of messages of at most this many bytes in all (each at most large). */
export const SHARED_PARSE_MAX_BYTES = 2 * LARGE_MESSAGE_BYTES;

type Parsed = JsonRpcMessage | MessageProblem;

interface Kept {
  readonly parsed: Parsed;
  readonly bytes: number;
  readonly containers: number;
}

const recent = new Map<string, Kept>();
let keptBytes = 0;
let keptContainers = 0;
let users = 0;
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * {@linkcode parseMessage} of UTF-8 `bytes` (`"malformed-message"` when they are not UTF-8),
 * answered from the messages parsed lately when they are large. The value may be shared with
 * other transports: readers must not modify it.
 */
export async function parseSharedBytes(
  bytes: Uint8Array,
  structureChecked = false,
): Promise<Parsed> {
  const parse = () => parseBytes(bytes, structureChecked);
  if (
    users === 0 || bytes.length < SHARED_PARSE_MIN_BYTES || bytes.length > LARGE_MESSAGE_BYTES
  ) {
    return parse();
  }
  const key = hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  const known = recent.get(key);
  if (known !== undefined) return known.parsed;
  const parsed = parse();
  if (users === 0) return parsed;
  const counter = new ContainerCounter(MAX_MESSAGE_CONTAINERS);
  if (!counter.feed(bytes)) return parsed;
  recent.set(key, { parsed, bytes: bytes.length, containers: counter.count });
  keptBytes += bytes.length;
  keptContainers += counter.count;
  for (const [old, entry] of recent) {
    if (keptBytes <= SHARED_PARSE_MAX_BYTES && keptContainers <= MAX_MESSAGE_CONTAINERS) break;
    recent.delete(old);
    keptBytes -= entry.bytes;
    keptContainers -= entry.containers;
  }
  return parsed;
}

function parseBytes(bytes: Uint8Array, structureChecked: boolean): Parsed {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return "malformed-message"; // not UTF-8
  }
  return parseMessage(text, structureChecked);
}

const hex = (digest: ArrayBuffer) =>
  Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * Marks a transport as a user of the shared parses; the returned function (idempotent) ends
 * that, and the last user's end empties them.
 */
export function useSharedParses(): () => void {
  users += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    users -= 1;
    if (users === 0) {
      recent.clear();
      keptBytes = 0;
      keptContainers = 0;
    }
  };
}

/** How many parsed messages are kept now (for tests). */
export const sharedParseCount = (): number => recent.size;
