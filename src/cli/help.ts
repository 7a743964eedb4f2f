/**
 * Usage and help texts.
 *
 * @module
 */
import { MAX_PAGES, MAX_TOOLS, SETTLE_MS, TIMEOUT_MS } from "../limits.ts";
import { VERSION } from "../version.ts";

/** The short usage, printed on stderr after a misuse. */
export const USAGE = `Usage:
  mcpeval guidance --server NAME [options] -- COMMAND [ARG...]
  mcpeval guidance --server NAME [options] --url URL
  mcpeval schema guidance
  mcpeval --help | --version

Run 'mcpeval guidance --help' for the options.
`;

/** `mcpeval --help`. */
export const MAIN_HELP =
  `mcpeval ${VERSION}: check that what an MCP server tells an agent matches what it can reach.

${USAGE}`;

/** `mcpeval guidance --help`. */
export const GUIDANCE_HELP =
  `mcpeval guidance: compare a server's instructions with the tool catalogs it serves
under the client capability profiles none, roots, sampling, elicitation and all.
Discovery only: initialize, notifications/initialized, a settle window, paged tools/list.

Usage:
  mcpeval guidance --server NAME [options] -- COMMAND [ARG...]   (stdio)
  mcpeval guidance --server NAME [options] --url URL             (Streamable HTTP)

Options:
  --server NAME            report label (letters, digits, '.', '_', '-'; required)
  --format F               report on stdout: text, json, github, junit or sarif (default text)
  --output F=PATH          also write a report in format F to PATH; repeatable
  --profile P              none, roots, sampling, elicitation or all; repeatable (default all five)
  --require-tool T         a tool every selected profile must list; repeatable
  --settle-ms N            wait after notifications/initialized, ${SETTLE_MS.min}-${SETTLE_MS.max} (default ${SETTLE_MS.default})
  --timeout-ms N           longest wait for one answer, ${TIMEOUT_MS.min}-${TIMEOUT_MS.max} (default ${TIMEOUT_MS.default})
  --concurrency N          profiles run at once, 1-5 (default 5)
  --server-stderr MODE     stdio: discard or inherit the server's stderr (default discard)
  --url URL                Streamable HTTP endpoint; loopback may use http:
  --allow-remote-http      allow a non-loopback https: endpoint
  --header NAME=ENV_VAR    HTTP: send header NAME with the value of ENV_VAR; repeatable
  -h, --help               show this help

Bounds: ${MAX_PAGES} pages and ${MAX_TOOLS} tools per profile.

Exit codes:
  0  discovery complete, no defect
  1  discovery complete, a required tool is missing from a profile
  2  invalid invocation (no discovery, no report)
  3  discovery incomplete for at least one profile
  70 internal error in mcpeval
  130 interrupted (SIGINT or SIGTERM); every server process is stopped first
`;
