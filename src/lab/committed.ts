/**
 * The package's committed observations (`src/clients/observed/CLIENT@VERSION.json`): where they
 * are, and the npm integrity each recorded for its install. Read without the observation schema
 * (`observation.ts`, to which the suite holds every committed file), so that `--observe` loads no
 * zod; imported as JSON modules (a template of a fixed folder, which `deno publish` analyzes), so
 * that they are read wherever the package is (a clone, the installed command, JSR).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { CLIENT_VERSION } from "../clients/versions.ts";

/** An npm `dist.integrity`: a Subresource Integrity hash (`sha512-` and base64). */
export const INTEGRITY: RegExp = /^sha(?:256|384|512)-[A-Za-z0-9+/]{43,86}={0,2}$/;

/**
 * The package's own observations folder (`src/clients/observed/`), or undefined when the
 * package is not a folder on this machine (run from JSR).
 */
export function packageObservedDir(): string | undefined {
  const url = new URL("../clients/observed/", import.meta.url);
  return url.protocol === "file:" ? fileURLToPath(url) : undefined;
}

/**
 * The npm integrity the package's committed observation of `client` at `version` recorded for
 * its install, or undefined when there is no such observation or it records none.
 */
export async function committedIntegrity(
  client: string,
  version: string,
): Promise<string | undefined> {
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(client) || !CLIENT_VERSION.test(version)) return undefined;
  let value: unknown;
  try {
    value = (await import(`../clients/observed/${client}@${version}.json`, {
      with: { type: "json" },
    })).default;
  } catch {
    return undefined; // none committed
  }
  const observation = value as Record<string, unknown> | null;
  return observation?.schema === "mcpeval.client-observation/v1" &&
      observation.client === client && observation.version === version &&
      typeof observation.integrity === "string" && INTEGRITY.test(observation.integrity)
    ? observation.integrity
    : undefined;
}
