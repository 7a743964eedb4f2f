/**
 * The stderr tail of a server that ended before discovery completed (issue 33): in the json
 * report (a field of its own), the text report and the other formats, escaped and bounded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, guidanceJson, mcpeval, profileNone, ROOT } from "./_cli.ts";
import { FORMATS } from "../src/report/formats/mod.ts";

const HOSTILE = [DENO, "run", "--quiet", join(ROOT, "fixtures", "stderr_hostile.ts")];
const NPM_EXIT = [DENO, "run", "--quiet", join(ROOT, "fixtures", "stderr_exit.ts")];
const ESCAPED = [
  "npm error code E404",
  "npm error 404 Not Found - GET https://registry.invalid/no-such-server",
  "npm error \\u{1b}[31mred\\u{1b}[0m \\u{1b}[2J\\u{1b}]0;pwned\\u{7} done",
  "npm error \\u{202e}evil\\u{202c} \\u{2066}iso\\u{2069} a\\u{2028}b",
];

Deno.test("a server that exits with npm error 404: its stderr tail in the json report, escaped", async () => {
  const { code, report } = await guidanceJson(["--server", "npx-server", "--", ...NPM_EXIT]);
  assert.equal(code, 3);
  for (const profile of report.profiles) {
    const tail = (profile as { server_stderr_tail?: string[] }).server_stderr_tail ?? [];
    assert.equal(tail.length, 5, JSON.stringify(profile));
    assert.equal(tail[0], "npm error code E404");
    assert.equal(
      tail[1],
      "npm error 404 Not Found - GET https://registry.invalid/no-such-server",
    );
    assert.equal(
      tail[2],
      "npm error 404 \\u{1b}[31mno-such-server\\u{1b}[0m is not in this registry.",
    );
    assert.equal(tail[3], `npm error 404 ${"x".repeat(186)}...`, "cut at 200 characters");
    // mcpeval's own words stay apart: the hint and detail are its fixed phrases.
    assert.ok(!JSON.stringify(profile.incomplete).includes("npm error"));
  }
});

Deno.test("a hostile stderr tail comes out escaped in every format", async () => {
  const args = [...profileNone("npx-server"), "--", ...HOSTILE];
  const { code, report } = await guidanceJson(args);
  assert.equal(code, 3);
  assert.deepEqual(
    (report.profiles[0] as { server_stderr_tail?: string[] }).server_stderr_tail,
    ESCAPED,
  );
  const text = await mcpeval(["guidance", ...args]);
  assert.equal(text.code, 3);
  assert.match(
    text.stdout,
    /none: the last lines the server wrote to stderr, its own output, not mcpeval's:\n/,
  );
  for (const line of ESCAPED) assert.ok(text.stdout.includes(`    | ${line}\n`), text.stdout);
  for (const format of FORMATS.filter((id) => id !== "json")) {
    const result = await mcpeval(["guidance", "--format", format, ...args]);
    assert.equal(result.code, 3);
    // Nothing of the server's reaches the output raw: no control, format or separator character.
    assert.ok(
      // deno-lint-ignore no-control-regex
      !/[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(
        result.stdout,
      ),
      format,
    );
    if (format !== "github") assert.ok(result.stdout.includes("npm error code E404"), format);
  }
});
