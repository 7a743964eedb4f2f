/**
 * A full garbage collection on request, between the large steps of a run whose garbage the
 * runtime would otherwise keep for a while (`mcpeval merge` between reports: each report's text
 * is garbage once its servers are packed, and the runtime lets such garbage grow to several
 * reports before it collects).
 *
 * @module
 */

let collect: (() => void) | null | undefined;

/**
 * Collects garbage now, when the runtime offers it (V8's `gc`, exposed for a new context through
 * `node:v8` and `node:vm`); otherwise does nothing. Never throws.
 */
export async function collectGarbage(): Promise<void> {
  if (collect === undefined) {
    collect = null;
    try {
      const [v8, vm] = await Promise.all([import("node:v8"), import("node:vm")]);
      v8.setFlagsFromString("--expose-gc");
      const gc: unknown = vm.runInNewContext("typeof gc === 'function' ? gc : undefined");
      if (typeof gc === "function") collect = () => gc();
    } catch {
      // No collection on request: the runtime collects when it will.
    }
  }
  collect?.();
}
