/**
 * VS Code: `servers` (and `inputs`) in `.vscode/mcp.json`, or in `settings.json` under the flat
 * key `"mcp.servers"` or as `"mcp": {"servers"}`. A stdio entry of a workspace file without
 * `cwd` starts in the workspace folder (the folder above `.vscode`), VS Code's default.
 *
 * VS Code reads one of these per file: `servers` only in `mcp.json`, `mcp` only as a setting of
 * `settings.json`, where the flat key and the object are one setting (the later replaces the
 * earlier as VS Code builds its settings tree). A file with two of them is refused.
 *
 * @module
 */
import { checkEntry, isRecord } from "../spec.ts";
import { type ConfigDocument, type FormatModule, placeOf, tableEntries } from "./format.ts";
import { mcpServersEntry } from "./mcp_servers.ts";

/** Where the servers are: the path to the table, its name, and the path to its inputs. */
function place(document: ConfigDocument): [string[], string, string[]] | undefined {
  if (document.value(["servers"]) !== undefined) return [["servers"], "servers", ["inputs"]];
  if (document.value(["mcp.servers"]) !== undefined) {
    return [["mcp.servers"], "mcp.servers", ["mcp.inputs"]];
  }
  if (isRecord(document.value(["mcp"])) && document.value(["mcp", "servers"]) !== undefined) {
    return [["mcp", "servers"], "mcp.servers", ["mcp", "inputs"]];
  }
  return undefined;
}

/** Every server table the document has, as the messages name them. */
function tables(document: ConfigDocument): string[] {
  return [
    ...(document.value(["servers"]) !== undefined ? ["servers"] : []),
    ...(document.value(["mcp.servers"]) !== undefined ? ['"mcp.servers"'] : []),
    ...(isRecord(document.value(["mcp"])) && document.value(["mcp", "servers"]) !== undefined
      ? ['"mcp": {"servers"}']
      : []),
  ];
}

/** The VS Code shape. */
export const vscode: FormatModule = {
  clients: "VS Code .vscode/mcp.json, settings.json",
  format: "servers",
  expected: "servers (VS Code)",
  syntax: ["json"],
  table: (document) => place(document)?.[1],
  tables,
  entries: (document) => {
    const [path, where] = place(document)!;
    return tableEntries(document, path, where);
  },
  inputs: (document) => {
    const inputs = document.value(place(document)![2]);
    if (!Array.isArray(inputs)) return new Set();
    return new Set(
      inputs.flatMap((input) => isRecord(input) && typeof input.id === "string" ? [input.id] : []),
    );
  },
  entry: (value, { path }) => {
    const written = mcpServersEntry(value);
    const workspace = placeOf(path).folder === ".vscode";
    const stdio = written.transport === "stdio" ||
      (written.transport === undefined && written.command !== undefined);
    return checkEntry(
      workspace && stdio && (written.cwd === undefined || written.cwd === null)
        ? { ...written, cwd: "${workspaceFolder}" }
        : written,
    );
  },
};
