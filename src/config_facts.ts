/**
 * Facts of a `--config` run: the client config formats, and why a configured server was not
 * checked (a fixed set of reasons, each with one fixed hint, kept as data; they never carry
 * anything from the file).
 *
 * @module
 */

/**
 * A config format is named by the key that holds the servers (`mcpServers`, `servers`,
 * `mcp_servers`, ...): each format module of `src/config/formats/` declares its own, so a new
 * shape adds no row here, and the fleet report takes any key of this form.
 */
export const CONFIG_FORMAT: RegExp = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** A config format: the key that holds the servers ({@linkcode CONFIG_FORMAT}). */
export type ConfigFormat = string;

/** Every reason a configured server is listed but not checked, with its fixed hint. */
export const NOT_CHECKED_HINTS = {
  "invalid-name":
    "the entry's key is repeated by a later entry, and the client runs only the last one; it is listed by its position as entry-N",
  "disabled": "the entry is disabled in the config file (disabled: true or enabled: false)",
  "legacy-sse":
    "the entry uses the legacy HTTP+SSE transport (type sse), which mcpeval does not speak; check the server over Streamable HTTP or stdio",
  "unsupported-entry":
    "mcpeval cannot start this kind of entry (an unknown transport type, a server provided by an editor extension, or an HTTP entry with a protocol revision that has no Streamable HTTP)",
  "invalid-entry":
    "the entry breaks a rule for the named field (for example a command that is not a string, arguments that are not strings, or a URL that is not absolute http: or https:)",
  "unsupported-variable":
    "the entry uses a ${...} variable that cannot be resolved outside the client; use ${VAR}, ${VAR:-default}, ${env:VAR}, ${workspaceFolder} or ${input:ID}",
  "unset-variable":
    "the entry uses an environment variable that is not set; set it (its value is never printed)",
  "unresolved-input":
    "the entry uses a ${input:ID} prompt, which cannot be answered in CI; give --input ID=ENV_VAR",
  "remote-http-not-allowed":
    "the entry's URL is not loopback; checking a remote server needs https: and --allow-remote-http",
  "env-file-unreadable":
    "the entry's envFile could not be read (it does not exist, is not a file, or is too large)",
  "spawn-failed":
    "the server command could not be started: check that it is installed, on PATH and executable",
  "cwd-not-found":
    "the entry's working folder (cwd) does not exist, so its command could not be started there: create the folder or correct cwd (a relative cwd is taken from the workspace folder)",
} as const;

/** Why a configured server was not checked. */
export type NotCheckedReason = keyof typeof NOT_CHECKED_HINTS;

/** The reasons, in the order of the table. */
export const NOT_CHECKED_REASONS = Object.keys(NOT_CHECKED_HINTS) as [
  NotCheckedReason,
  ...NotCheckedReason[],
];

/** The config fields an `invalid-entry` can name. */
export const CONFIG_FIELDS = [
  "entry",
  "type",
  "command",
  "args",
  "env",
  "envFile",
  "cwd",
  "url",
  "headers",
  "tools",
] as const;

/** A config field an `invalid-entry` names. */
export type ConfigField = typeof CONFIG_FIELDS[number];

/** The rule for a VS Code input's answer (`--input ID=ENV_VAR`, `inputs`): its id and its variable. */
export const INPUT_RULE =
  "an input id (1 to 64 letters, digits, '.', '_' or '-') and an environment variable name";
