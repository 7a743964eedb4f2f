/**
 * Codex `config.toml`: `[mcp_servers.NAME]` tables with `command`, `args`, `env`, `cwd`, `url`,
 * `http_headers`, `env_http_headers`, `bearer_token_env_var`, `enabled`, and the user's own
 * tool filter `enabled_tools` (an allow list) then `disabled_tools` (a deny list).
 *
 * @module
 */
import {
  checkEntry,
  filterOf,
  filterStep,
  given,
  stringPairs,
  transportOf,
  type WrittenEntry,
} from "../spec.ts";
import { type FormatModule, tableEntries } from "./format.ts";
import { ENV_NAME } from "../../target.ts";

/** Codex's headers: literal, from the environment, and a bearer token variable. */
function headersOf(value: Readonly<Record<string, unknown>>): WrittenEntry["headers"] {
  const literal = stringPairs(value.http_headers);
  const fromEnv = stringPairs(value.env_http_headers);
  const bearer = value.bearer_token_env_var;
  if (literal === undefined || fromEnv === undefined) return undefined;
  if (!fromEnv.every(([, name]) => ENV_NAME.test(name))) return undefined;
  if (given(bearer) && (typeof bearer !== "string" || !ENV_NAME.test(bearer))) return undefined;
  return [
    ...literal,
    ...fromEnv.map(([name, variable]) => [name, `\${${variable}}`] as const),
    ...(typeof bearer === "string" ? [["Authorization", `Bearer \${${bearer}}`] as const] : []),
  ];
}

/** The Codex shape. */
export const codex: FormatModule = {
  clients: "Codex config.toml",
  format: "mcp_servers",
  expected: "mcp_servers (Codex TOML)",
  syntax: ["toml"],
  table: (document) => document.value(["mcp_servers"]) === undefined ? undefined : "mcp_servers",
  entries: (document) => tableEntries(document, ["mcp_servers"], "mcp_servers"),
  entry: (value) =>
    checkEntry({
      disabled: value.disabled === true || value.enabled === false,
      transport: transportOf(value.type),
      command: value.command,
      args: value.args,
      env: stringPairs(value.env),
      cwd: value.cwd,
      url: value.url,
      headers: headersOf(value),
      toolFilter: filterOf([
        filterStep(value.enabled_tools, { rule: "enabled-tools", effect: "allow" }),
        filterStep(value.disabled_tools, { rule: "disabled-tools", effect: "deny" }),
      ]),
    }),
};
