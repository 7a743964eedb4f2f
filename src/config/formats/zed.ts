/**
 * Zed `settings.json`: `context_servers` with `{command, args, env}` (or the older
 * `command: {path, args, env}`) or `{url, headers}`; a server an extension provides is listed
 * as not checked.
 *
 * @module
 */
import { checkEntry, isRecord, stringPairs } from "../spec.ts";
import { type FormatModule, tableEntries } from "./format.ts";
import { mcpServersEntry } from "./mcp_servers.ts";

/** The Zed shape. */
export const zed: FormatModule = {
  clients: "Zed settings.json",
  format: "context_servers",
  expected: "context_servers (Zed)",
  syntax: ["json"],
  table: (document) =>
    document.value(["context_servers"]) === undefined ? undefined : "context_servers",
  entries: (document) => tableEntries(document, ["context_servers"], "context_servers"),
  entry: (value) => {
    const written = mcpServersEntry(value);
    const { command } = value;
    return checkEntry({
      ...written,
      // Zed's older form: "command": { "path", "args", "env" }.
      ...(isRecord(command)
        ? {
          command: command.path,
          args: command.args ?? value.args,
          env: stringPairs(command.env ?? value.env),
        }
        : {}),
      extension: value.source === "extension",
    });
  },
};
