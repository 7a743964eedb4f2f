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
