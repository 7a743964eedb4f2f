/**
 * Continue: a YAML `mcpServers` list (in `.continue/mcpServers/*.yaml` blocks and in
 * `config.yaml`), each item `{name, type, command, args, env, cwd, url, requestOptions}`.
 * Continue's `${{ secrets.X }}` templates cannot be resolved outside it.
 *
 * @module
 */
import { checkEntry, isRecord, stringPairs, transportOf } from "../spec.ts";
import type { FormatModule, RawEntry } from "./format.ts";

/** The Continue shape. */
export const continueYaml: FormatModule = {
  clients: "Continue config.yaml, .continue/mcpServers/*.yaml",
  format: "mcpServers",
  expected: "a YAML mcpServers list (Continue)",
  syntax: ["yaml"],
  table: (document) => Array.isArray(document.value(["mcpServers"])) ? "mcpServers" : undefined,
  // An item's name is its key; an item without one has an empty key (a derived label).
  entries: (document) =>
    (document.value(["mcpServers"]) as unknown[]).map((value): RawEntry => ({
      key: isRecord(value) && typeof value.name === "string" ? value.name : "",
      value,
    })),
  entry: (value) => {
    const options = value.requestOptions;
    return checkEntry({
      disabled: value.disabled === true,
      transport: transportOf(value.type),
      command: value.command,
      args: value.args,
      env: stringPairs(value.env),
      cwd: value.cwd,
      url: value.url,
      headers: isRecord(options) ? stringPairs(options.headers) : options == null ? [] : undefined,
    });
  },
};
