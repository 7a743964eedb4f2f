/** Reference detection and findings: pure functions. */
import assert from "node:assert/strict";
import { analyze, type ObservedProfile } from "../src/analysis/findings.ts";
import { inlineCodeSpans } from "../src/analysis/code_spans.ts";

Deno.test("inline code spans: CommonMark spans only, not code blocks", () => {
  const markdown = [
    "Use `echo` and ``double `tick` span`` and `  padded  `.",
    "",
    "    `indented-block`",
    "",
    "```",
    "`fenced-block`",
    "```",
    "",
    "Escaped \\`not-code\\` and <code>html</code>; `multi",
    "line`.",
  ].join("\n");
  assert.deepEqual(
    [...inlineCodeSpans(markdown)].sort(),
    [
      " padded ", // one space is stripped from each side
      "double `tick` span",
      "echo",
      "multi line",
    ].sort(),
  );
});

const profile = (name: ObservedProfile["profile"], tools: string[], spans: string[] = []) => ({
  profile: name,
  tools,
  codeSpans: new Set(spans),
});

Deno.test("findings: a candidate only for a known tool missing from the referencing profile", () => {
  const { findings, passed } = analyze([
    profile("none", ["echo"], ["pick", "echo", "UNKNOWN_WORD"]),
    profile("roots", ["echo", "pick"], ["pick"]),
    profile("all", ["echo", "pick", "ask"], ["ask"]),
  ], []);
  assert.deepEqual(findings, [
    {
      kind: "referenced-tool-unavailable",
      profile: "none",
      tool: "pick",
      availableIn: ["roots", "all"],
    },
  ]);
  assert.equal(passed, true, "candidates never fail the gate");
});

Deno.test("findings: a defect per profile missing a required tool, even if no profile has it", () => {
  const { findings, passed } = analyze([
    profile("none", ["echo"]),
    profile("sampling", ["echo", "sample"]),
  ], ["sample", "ghost"]);
  const kind = "required-tool-unavailable";
  assert.deepEqual(findings, [
    { kind, profile: "none", tool: "ghost", availableIn: [] },
    { kind, profile: "none", tool: "sample", availableIn: ["sampling"] },
    { kind, profile: "sampling", tool: "ghost", availableIn: [] },
  ]);
  assert.equal(passed, false);
});
