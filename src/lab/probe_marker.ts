/**
 * The markers that find a probe in a recorded model request whatever the client did to it: each
 * probe tool's description starts with its marker, and each probe server's instructions with
 * their head. Shared by the probe catalogs, the probe host and the reading of an observation.
 *
 * @module
 */

/** A token in the main server's instructions: found in a model request, the client showed them. */
export const INSTRUCTIONS_MARKER = "labinstr7c1";

/** The marker prefix in each probe tool's description (`labprobe` + index within its server). */
export const PROBE_MARKER = "labprobe";

/** The marker of one probe tool: the server's letters and digits, and the tool's index. */
export const probeMarker = (server: string, index: number): string =>
  `${PROBE_MARKER}${server.replace(/[^a-z0-9]/g, "")}x${index}q`;

/**
 * The description a probe tool is served with: its marker first (a client that cuts a long
 * description keeps it), so it is found whatever its name; then the tool's own, if any.
 */
export const probeDescription = (server: string, index: number, own?: string): string =>
  own === undefined
    ? `Lab probe tool. ${probeMarker(server, index)}`
    : `${probeMarker(server, index)} ${own}`;

/** The head of a probe server's instructions (`labins` + the server's letters and digits). */
export const instructionsHead = (server: string): string =>
  `labins${server.replace(/[^a-z0-9]/g, "")}q`;
