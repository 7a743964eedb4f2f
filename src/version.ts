/**
 * mcpeval's version, from `deno.json`.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/** The version of this mcpeval build. */
export const VERSION: string = config.version;
