/**
 * Usage and help texts.
 *
 * @module
 */
import { EXIT_MEANINGS } from "../exit.ts";
import { MAX_PAGES, MAX_TOOLS } from "../limits.ts";
import { PROFILES } from "../profiles.ts";
import { VERSION } from "../version.ts";
import { FORMAT_OPTIONS } from "../report/formats/mod.ts";
import { either, helpLines, LAB_OPTIONS, MERGE_OPTIONS, OPTION_ROWS } from "./options.ts";

/** The short usage, printed on stderr after a misuse. */
export const USAGE = `Usage:
  mcpeval guidance [--server NAME] [options] -- COMMAND [ARG...]
  mcpeval guidance --server NAME [options] --url URL
  mcpeval guidance --config FILE [--server NAME ...] [options]
  mcpeval merge FILE... [--format F] [--output F=PATH]
  mcpeval lab --client NAME[@VERSION]... | --all [options]
  mcpeval schema guidance | guidance-fleet
  mcpeval help [guidance | merge | lab | schema] | --help | --version

Run 'mcpeval help guidance' for the options.
`;

/** `mcpeval schema --help`. */
export const SCHEMA_HELP = `mcpeval schema: print the JSON Schema (draft 2020-12) of a report.

Usage:
  mcpeval schema guidance         the schema of 'mcpeval guidance --format json'
  mcpeval schema guidance-fleet   the schema of 'mcpeval guidance --config FILE --format json'
`;

/** `mcpeval --help`. */
export const MAIN_HELP =
  `mcpeval ${VERSION}: check that what an MCP server tells an agent matches what it can reach.

${USAGE}`;

/** `mcpeval guidance --help`. */
export const GUIDANCE_HELP =
  `mcpeval guidance: compare a server's instructions with the tool catalogs it serves
under the client capability profiles ${either(PROFILES)}.
Discovery only: initialize, notifications/initialized (or server/discover from 2026-07-28 on),
a settle window, paged tools/list.

Usage:
  mcpeval guidance [--server NAME] [options] -- COMMAND [ARG...] (stdio)
  mcpeval guidance --server NAME [options] --url URL             (Streamable HTTP)
  mcpeval guidance --config FILE [--server NAME ...] [options]   (a client's config file)

Options:
${helpLines(OPTION_ROWS, "options")}
With --config FILE (a client's file: Claude, Cursor, VS Code, Codex, Gemini CLI, Zed, opencode,
Continue, Goose, Kiro, Roo, Windsurf, Cline; see docs/config.md):
${helpLines(OPTION_ROWS, "config")}
Bounds: ${MAX_PAGES} pages and ${MAX_TOOLS} tools per profile.

Exit codes:
${EXIT_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`).join("\n")}
`;

/** `mcpeval merge --help`. */
export const MERGE_HELP =
  `mcpeval merge: put fleet reports of one config back together, for example the
JSON reports of 'mcpeval guidance --config FILE --shard I/N' for every I, and print one report.

Usage:
  mcpeval merge FILE... [--format F] [--output F=PATH]${
    FORMAT_OPTIONS.map((option) => ` [--${option.name} ${option.value}]`).join("")
  }

  FILE                     a JSON fleet report (--format json or --output json=PATH of a
                           config run); - is standard input; needs --allow-read=FILE
${helpLines(MERGE_OPTIONS, "options")}
Refused (exit 2): a server in two reports; reports of other mcpeval versions, config formats,
profiles, clients or settings than the first; shards of different counts, a shard twice, or a
missing shard. Each report is bounded and validated like --baseline.

Exit codes: as 'mcpeval guidance' over the merged report: 3 when a server is incomplete or
not checked, else 1 with a defect, else 0; 2 for an invalid invocation, 74 when a file cannot
be written or a report is too large for its format (JSON is written in pieces, of any
size).
`;

/** `mcpeval lab --help`. */
export const LAB_HELP =
  `mcpeval lab: run real clients from the npm registry, headless, against the lab's probe
servers and a local stand-in for their model API, and write what reached the model: one
observation per client version (src/clients/observed/NAME@VERSION.json), from which the
presets of 'guidance --client NAME@VERSION' are derived. Linux only; needs npm, node, setsid
and every Deno permission (--allow-all: it installs and runs the clients).

Usage:
  mcpeval lab --client NAME[@VERSION]... [options]
  mcpeval lab --all [--client NAME...] [options]

Options:
${helpLines(LAB_OPTIONS, "options")}
Exit codes: 0 every client observed (and checked, with --client-file-out); 2 an invalid
invocation; 3 a client could not be installed, run or checked (one line each).
`;
