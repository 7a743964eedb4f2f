/**
 * Kiro (`.kiro/settings/mcp.json`) and Roo Code (`.roo/mcp.json`, `mcp_settings.json`):
 * `mcpServers` with `disabled` and the user's own deny list `disabledTools`.
 *
 * @module
 */
import { checkEntry, filterOf, filterStep } from "../spec.ts";
import { anyEntryHas, type FormatModule, placeOf, tableEntries } from "./format.ts";
import { hasMcpServers, mcpServersEntry } from "./mcp_servers.ts";

/** The Kiro and Roo Code shape. */
export const kiro: FormatModule = {
  clients: "Kiro, Roo Code",
  format: "mcpServers",
  syntax: ["json"],
  table: (document) => hasMcpServers(document) ? "mcpServers" : undefined,
  claims: (document) => {
    const { folder, parent } = placeOf(document.path);
    return folder === ".roo" || (parent === ".kiro" && folder === "settings") ||
      anyEntryHas(document, ["mcpServers"], ["disabledTools"]);
  },
  entries: (document) => tableEntries(document, ["mcpServers"], "mcpServers"),
  entry: (value) =>
    checkEntry({
      ...mcpServersEntry(value),
      toolFilter: filterOf([
        filterStep(value.disabledTools, { rule: "disabled-tools", effect: "deny" }),
      ]),
    }),
};
