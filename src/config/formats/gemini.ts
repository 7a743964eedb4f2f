/**
 * Gemini CLI `settings.json` (a file in a `.gemini` folder, told by its place alone):
 * `mcpServers` where `httpUrl` is Streamable HTTP and `url` the legacy SSE transport, `$VAR` as
 * well as `${VAR}` in its strings, and the user's own tool filter: `excludeTools` wins over
 * `includeTools`, whose entries name `name` or `name(...)`.
 *
 * @module
 */
import { checkEntry, filterOf, filterStep, given, transportOf } from "../spec.ts";
import { type FormatModule, mapStrings, placeOf, tableEntries } from "./format.ts";
import { ENV_NAME_PART } from "../../target.ts";
import { hasMcpServers, mcpServersEntry } from "./mcp_servers.ts";

const BARE_VARIABLE = new RegExp(`\\$(${ENV_NAME_PART})`, "g");

/** `$VAR` (not `${`) as `${VAR}`, the one variable syntax the shared resolution reads. */
const bareVariables = (text: string) =>
  text.replaceAll(BARE_VARIABLE, (_, name: string) => `\${${name}}`);

/** The Gemini CLI shape. */
export const gemini: FormatModule = {
  clients: "Gemini CLI settings.json",
  format: "mcpServers",
  syntax: ["json"],
  table: (document) => hasMcpServers(document) ? "mcpServers" : undefined,
  // Only the file's place: the shared shape takes httpUrl too (as Streamable HTTP, like url), so
  // a field never makes a file Gemini's, where url would be the legacy SSE transport.
  claims: (document) => placeOf(document.path).folder === ".gemini",
  entries: (document) => tableEntries(document, ["mcpServers"], "mcpServers"),
  entry: (written) => {
    const value = mapStrings(written, bareVariables) as Record<string, unknown>;
    const type = transportOf(value.type);
    const entry = mcpServersEntry(value);
    return checkEntry({
      ...entry,
      // Without a type: httpUrl is Streamable HTTP, url the legacy SSE transport.
      transport: type !== undefined
        ? type
        : given(value.command)
        ? "stdio"
        : given(value.httpUrl)
        ? "streamable-http"
        : given(value.url)
        ? "sse"
        : undefined,
      url: given(value.httpUrl) ? value.httpUrl : value.url,
      toolFilter: filterOf([
        filterStep(value.excludeTools, { rule: "exclude-tools", effect: "deny" }),
        filterStep(value.includeTools, { rule: "include-tools", effect: "allow", callForm: true }),
      ]),
    });
  },
};
