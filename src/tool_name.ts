/**
 * The identifier rules: tool names (the MCP tool-name guidance plus `/`) and server labels.
 *
 * @module
 */

/** A valid tool identifier. */
export const TOOL_NAME: RegExp = /^[A-Za-z0-9_./-]{1,128}$/;

/** Whether `value` is a valid tool identifier. */
export function isToolName(value: unknown): value is string {
  return typeof value === "string" && TOOL_NAME.test(value);
}

/** A valid `--server` label. */
export const SERVER_LABEL: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The fixed phrase that names, in a report, a listed tool whose name is not a valid identifier. */
export const INVALID_NAME_PHRASE = "name not a valid tool identifier";

/**
 * How a report names the listed tool at `position` (1 = the first listed) whose name is not a
 * valid tool identifier: the fixed phrase and the position, never the name.
 */
export const invalidNameKey = (position: number): string =>
  `(tool #${position}: ${INVALID_NAME_PHRASE})`;

/** What {@linkcode invalidNameKey} writes. */
export const INVALID_NAME_KEY: RegExp =
  /^\(tool #[1-9][0-9]{0,5}: name not a valid tool identifier\)$/;
