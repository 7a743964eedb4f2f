/**
 * Usage and help texts.
 *
 * @module
 */
import { EXIT_MEANINGS } from "../exit.ts";
import { DEFAULT_FORMAT, FORMATS } from "../report/formats/mod.ts";
import {
  CONCURRENCY,
  JOBS,
  MAX_PAGES,
  MAX_SHARDS,
  MAX_TOOLS,
  SETTLE_MS,
  TIMEOUT_MS,
} from "../limits.ts";
import { PROFILES } from "../profiles.ts";
import { AUTO, PROTOCOL_VERSION, PROTOCOL_VERSIONS } from "../protocol/versions.ts";
import { SERVER_STDERR_MODES } from "../target.ts";
import { VERSION } from "../version.ts";

/** "a, b or c". */
const either = (values: readonly string[]) =>
  `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;

/** The short usage, printed on stderr after a misuse. */
export const USAGE = `Usage:
  mcpeval guidance [--server NAME] [options] -- COMMAND [ARG...]
  mcpeval guidance --server NAME [options] --url URL
  mcpeval guidance --config FILE [--server NAME ...] [options]
  mcpeval merge FILE... [--format F] [--output F=PATH]
  mcpeval schema guidance | guidance-fleet
  mcpeval help [guidance | merge | schema] | --help | --version

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
  --server NAME            report label (letters, digits, '.', '_', '-'); for a stdio server
                           the program's name by default (node for 'node dist/server.js');
                           required with --url
  --format F               report on stdout: ${either(FORMATS)} (default ${DEFAULT_FORMAT})
  --output F=PATH          also write a report in format F to PATH (- for stdout); repeatable
  --sarif-location P[:L]   SARIF: the repository file (and line) every result points at
  -q, --quiet              no live progress on stderr (shown only when stderr is a terminal)
  --profile P              ${either(PROFILES)}; repeatable
                           (default: the five standard profiles)
  --client NAME            also impersonate a client preset (profile client:NAME); repeatable;
                           without --profile only the presets run; all: every preset
  --client-file FILE       client presets that add to or replace the built-in ones (JSON)
  --unknown-references     also report backticked names that no selected catalog lists
  --require-tool T         a tool every selected profile must list; repeatable
  --baseline FILE          compare with an earlier JSON report of this server (drift,
                           new and unchanged candidates); needs --allow-read=FILE; - is stdin
  --require-baseline-tools every tool of a baseline profile's catalog must still be listed
  --settle-ms N            wait after notifications/initialized, ${SETTLE_MS.min}-${SETTLE_MS.max} (default ${SETTLE_MS.default})
  --timeout-ms N           longest wait for one answer, ${TIMEOUT_MS.min}-${TIMEOUT_MS.max} (default ${TIMEOUT_MS.default})
  --protocol-version V     ${either([...PROTOCOL_VERSIONS, AUTO])}
                           (default ${PROTOCOL_VERSION}; presets negotiate like their client)
  --concurrency N          profiles run at once, ${CONCURRENCY.min}-${CONCURRENCY.max} (default ${CONCURRENCY.default})
  --server-stderr MODE     stdio: ${either(SERVER_STDERR_MODES)} the server's stderr (default ${
    SERVER_STDERR_MODES[0]
  })
  --url URL                Streamable HTTP endpoint; loopback may use http:
  --allow-remote-http      allow a non-loopback https: endpoint
  --header NAME=ENV_VAR    HTTP: send header NAME with the value of ENV_VAR; repeatable
  -h, --help               show this help

With --config FILE (a client's file: Claude, Cursor, VS Code, Codex, Gemini CLI, Zed, opencode,
Continue, Goose, Kiro, Roo, Windsurf, Cline; see docs/config.md):
  --config FILE            check the servers of a client's config file (needs --allow-read)
  --server NAME            check only this entry; repeatable (default every entry)
  --require-tool S:T       server S must list tool T in every selected profile; repeatable
  --jobs N                 server connections live at once, ${JOBS.min}-${JOBS.max} (default ${JOBS.default})
  --shard I/N              check only the servers whose label falls to shard I of N
                           (FNV-1a 32-bit of the label, mod N; 1 <= I <= N <= ${MAX_SHARDS});
                           put the shards' JSON reports together with 'mcpeval merge'
  --input ID=ENV_VAR       answer the VS Code input ID with the value of ENV_VAR; repeatable
  --config-project PATH    Claude Code's ~/.claude.json: also check this project's servers
  --allow-remote-http      also check entries whose https: URL is not loopback

Bounds: ${MAX_PAGES} pages and ${MAX_TOOLS} tools per profile.

Exit codes:
${EXIT_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`).join("\n")}
`;

/** `mcpeval merge --help`. */
export const MERGE_HELP =
  `mcpeval merge: put fleet reports of one config back together, for example the
JSON reports of 'mcpeval guidance --config FILE --shard I/N' for every I, and print one report.

Usage:
  mcpeval merge FILE... [--format F] [--output F=PATH] [--sarif-location P[:L]]

  FILE                     a JSON fleet report (--format json or --output json=PATH of a
                           --config run); - is standard input; needs --allow-read=FILE
  --format F               report on stdout: ${either(FORMATS)} (default ${DEFAULT_FORMAT})
  --output F=PATH          also write a report in format F to PATH (- for stdout); repeatable
  --sarif-location P[:L]   SARIF: the repository file (and line) every result points at
  -h, --help               show this help

Refused (exit 2): a server in two reports; reports of other mcpeval versions, config formats,
profiles, clients or settings than the first; shards of different counts, a shard twice, or a
missing shard. Each report is bounded and validated like --baseline.

Exit codes: as 'mcpeval guidance' over the merged report: 3 when a server is incomplete or
not checked, else 1 with a defect, else 0; 2 for an invalid invocation, 74 when a file cannot
be written.
`;
