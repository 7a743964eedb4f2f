/**
 * Safe reports: secrets planted by the server in instructions, descriptions, schemas, cursors,
 * error messages and stderr never reach stdout, stderr or a report file, in any format, and no
 * terminal control character from the server does either.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CANARY } from "../fixtures/hostile.ts";
import { FORMATS } from "../src/report/formats/mod.ts";
import { DENO, hostile, mcpeval, tempDir } from "./_cli.ts";

const SCENARIOS = [
  "default",
  "pages-20",
  "cursor-repeat",
  "cursor-empty",
  "initialize-error",
  "list-error",
  "non-json-line",
  "both-result-and-error",
  "entry-name-ansi",
  "entry-name-control",
  "stderr-canary",
  "flood",
];
// Anything below 0x20 but the newline, and DEL: no escape sequence, bell or carriage return.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

for (const format of ["text", "json"]) {
  Deno.test(`canary: nothing the server wrote leaks into ${format} output or any report file`, async () => {
    await using temp = await tempDir();
    const dir = temp.path;
    const files = FORMATS.map((name) => [name, join(dir, `report.${name}`)]);
    for (const scenario of SCENARIOS) {
      const result = await mcpeval(
        [
          "guidance",
          "--server",
          "canary",
          "--format",
          format,
          ...files.map(([name, path]) => `--output=${name}=${path}`),
          "--settle-ms",
          "0",
          // A deadline no scenario's work can reach, on any machine: a profile that timed out
          // carries its server's stderr tail (`server_stderr_tail`, the server's own words,
          // by design), and the flood's stderr is the canary.
          "--timeout-ms",
          "60000",
          "--",
          ...hostile(scenario),
        ],
        { permissions: [`--allow-run=${DENO}`, `--allow-write=${dir}`] },
      );
      assert.ok([0, 3].includes(result.code), `${scenario}: exit ${result.code} ${result.stderr}`);
      const outputs = [
        ["stdout", result.stdout],
        ["stderr", result.stderr],
        ...files.map(([name, path]) => [name, Deno.readTextFileSync(path)]),
      ];
      for (const [where, text] of outputs) {
        assert.ok(!text.includes(CANARY), `${scenario}: the canary reached ${where}`);
        assert.ok(!text.includes("7f3a9"), `${scenario}: part of the canary reached ${where}`);
        assert.ok(!CONTROL.test(text), `${scenario}: a control character reached ${where}`);
      }
    }
  });
}
