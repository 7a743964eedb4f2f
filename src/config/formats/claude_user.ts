/**
 * Claude Code's user file `~/.claude.json`: the user's servers in the top-level `mcpServers`,
 * and each project's own in `projects.<path>.mcpServers`, chosen with `--config-project PATH`
 * (a project's entry wins over a user entry of the same name, as in Claude Code).
 *
 * @module
 */
import { resolve } from "node:path";
import { checkEntry, isRecord } from "../spec.ts";
import {
  type ConfigDocument,
  ConfigError,
  type FormatModule,
  placeOf,
  tableEntries,
} from "./format.ts";
import { mcpServersEntry } from "./mcp_servers.ts";

/** The project keys of the file. */
function projects(document: ConfigDocument): string[] {
  const value = document.value(["projects"]);
  return isRecord(value) ? Object.keys(value) : [];
}

/** The Claude Code user file shape. */
export const claudeUser: FormatModule = {
  clients: "Claude Code ~/.claude.json",
  format: "mcpServers",
  syntax: ["json"],
  projects: true,
  table: (document) =>
    document.value(["mcpServers"]) !== undefined || isRecord(document.value(["projects"]))
      ? "mcpServers"
      : undefined,
  claims: (document) =>
    placeOf(document.path).name === ".claude.json" ||
    projects(document).some((key) => isRecord(document.value(["projects", key, "mcpServers"]))),
  entries: (document, { project, cwd }) => {
    const user = tableEntries(document, ["mcpServers"], "mcpServers");
    if (project === undefined || cwd === undefined) return user;
    const wanted = resolve(cwd, project).replace(/[\\/]+$/, "");
    const key = projects(document).find((key) =>
      key === project || resolve(cwd, key).replace(/[\\/]+$/, "") === wanted
    );
    if (key === undefined) {
      throw new ConfigError("--config-project names no project of the config file");
    }
    const own = tableEntries(document, ["projects", key, "mcpServers"], "project's mcpServers");
    // The project's entry replaces the user's of the same name: it is not a repeated key.
    const replaced = new Set(own.map((entry) => entry.key));
    return [...user.filter((entry) => !replaced.has(entry.key)), ...own];
  },
  entry: (value) => checkEntry(mcpServersEntry(value)),
};
