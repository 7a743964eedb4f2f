/**
 * The library entry (`jsr:@mcpeval/guidance/lib`): runGuidance returns the validated report of
 * one server, runConfig the fleet report of a config file's servers.
 */
import assert from "node:assert/strict";
import { parseGuidanceArgs } from "../src/cli/args.ts";
import { testContext } from "./_context.ts";
import {
  FleetReportSchema,
  GuidanceReportSchema,
  RequestError,
  runConfig,
  runGuidance,
  UserError,
} from "../mod.ts";
import type { RequestField } from "../src/request/request.ts";
import { validateRun } from "../src/request/run.ts";
import { render } from "../src/report/formats/text.ts";
import { configFile, entry, fixture } from "./_cli.ts";

Deno.test("runGuidance on the demo server", async () => {
  const [command, ...args] = fixture("demo/server.ts");
  const report = await runGuidance({
    server: "demo",
    target: { kind: "stdio", command, args, stderr: "discard" },
    profiles: ["none", "elicitation"],
    requiredTools: ["delete-note"],
    settleMs: 100,
  });
  assert.ok(GuidanceReportSchema.safeParse(report).success);
  assert.deepEqual(report.defects.map((d) => [d.profile, d.tool]), [["none", "delete-note"]]);
  assert.equal(report.passed, false);
  assert.match([...render({ kind: "server", report })].join(""), /Result: failed/);
});

Deno.test("runGuidance rejects invalid options before anything starts, with a typed error", async () => {
  const invalid: [Parameters<typeof runGuidance>[0], RequestField, string][] = [
    [
      { server: "x", target: { kind: "stdio", command: "not-started" }, settleMs: 99_999 },
      "settleMs",
      "settleMs must be an integer from 0 to 5000",
    ],
    [
      { server: "x y", target: { kind: "stdio", command: "not-started" } },
      "server",
      "server must be 1 to 64",
    ],
    [
      { server: "x", target: { kind: "stdio", command: "not-started" }, profiles: ["root"] },
      "profiles",
      "profiles must be one of: none, roots, sampling, elicitation, all",
    ],
    [
      { server: "x", target: { kind: "streamable-http", url: "http://example.com/mcp" } },
      "url",
      "target.url to a host that is not loopback needs https: and target.allowRemoteHttp",
    ],
    [
      {
        server: "x",
        target: {
          kind: "streamable-http",
          url: "http://127.0.0.1:1/mcp",
          headers: [["Authorization", "Bearer a\nb"]],
        },
      },
      "headers",
      "target.headers values must be visible ASCII",
    ],
  ];
  for (const [options, field, message] of invalid) {
    const error = await runGuidance(options).then(() => undefined, (error) => error);
    assert.ok(error instanceof RequestError, `${field}: ${error}`);
    assert.equal(error.field, field);
    assert.ok(error.message.startsWith(message), error.message);
    assert.ok(!error.message.includes("Bearer"), "the value is never repeated");
  }
});

Deno.test("validateRun gives the same request for the library as the CLI parses", async () => {
  const input = {
    server: "s",
    target: { kind: "stdio", command: "srv", args: ["--flag"] },
    profiles: ["all", "none", "all"],
    requiredTools: ["b", "a", "b"],
  } as const;
  const request = validateRun(input);
  assert.deepEqual(request, {
    servers: {
      kind: "server",
      server: "s",
      requiredTools: ["a", "b"],
      target: { kind: "stdio", command: "srv", args: ["--flag"], stderr: "discard" },
    },
    settings: {
      profiles: ["none", "all"],
      settleMs: 1500,
      timeoutMs: 30000,
      concurrency: 5,
      protocolVersion: "2025-06-18",
      clients: new Map(),
      unknownReferences: false,
    },
    jobs: 5,
  });
  const argv = [
    "--server",
    "s",
    ...["all", "none", "all"].flatMap((profile) => ["--profile", profile]),
    ...["b", "a", "b"].flatMap((tool) => ["--require-tool", tool]),
    "--quiet",
    "--",
    "srv",
    "--flag",
  ];
  const parsed = await parseGuidanceArgs(argv, testContext());
  assert.ok("request" in parsed);
  // The command line's adds where its reports go: nothing else differs.
  const { output, ...run } = parsed.request;
  assert.deepEqual(run, request);
  assert.deepEqual(output, { format: "text", files: [] });
  assert.equal(parsed.quiet, true);
});

Deno.test("runGuidance with a baseline: the report of an earlier run, compared and gated", async () => {
  const [command, ...args] = fixture("demo/server.ts");
  const options = {
    server: "demo",
    target: { kind: "stdio", command, args },
    profiles: ["elicitation", "all"],
    settleMs: 100,
  } as const;
  const earlier = await runGuidance(options);
  const later = await runGuidance({
    ...options,
    target: { ...options.target, args: [...args, "--hidden-with", "delete-note=sampling"] },
    baseline: JSON.parse(JSON.stringify(earlier)),
    requireBaselineTools: true,
  });
  assert.deepEqual(later.baseline?.profiles, [
    { profile: "elicitation", compared: true, added: [], removed: [] },
    { profile: "all", compared: true, added: [], removed: ["delete-note"] },
  ]);
  assert.deepEqual(later.defects.map((d) => [d.kind, d.profile, d.tool]), [
    ["baseline-tool-unavailable", "all", "delete-note"],
  ]);
  assert.equal(later.passed, false);

  const error = await runGuidance({ ...options, baseline: { ...earlier, server: "other" } })
    .then(() => undefined, (error) => error);
  assert.ok(error instanceof RequestError);
  assert.equal(error.field, "baseline");
  assert.equal(
    error.message,
    "baseline is the report of another server: its server label is not server's; the baseline's label is other",
  );
  assert.throws(
    () => validateRun({ ...options, requireBaselineTools: true }),
    { name: "RequestError", message: "requireBaselineTools needs baseline" },
  );
});

Deno.test("runConfig runs a config file's servers like --config, validated by the same rules", async () => {
  await using config = await configFile({
    mcpServers: {
      demo: entry(fixture("demo/server.ts")),
      off: { command: "not-started", disabled: true },
    },
  });
  const fleet = await runConfig({
    config: config.path,
    profiles: ["none", "elicitation"],
    requiredTools: ["demo:delete-note"],
    settleMs: 100,
  });
  assert.ok(FleetReportSchema.safeParse(fleet).success);
  assert.deepEqual(fleet.servers.map((server) => [server.name, server.checked]), [
    ["demo", true],
    ["off", false],
  ]);
  const [demo] = fleet.servers;
  assert.ok(demo.checked);
  assert.deepEqual(demo.report.defects.map((d) => [d.profile, d.tool]), [["none", "delete-note"]]);
  assert.equal(fleet.complete, false);
  assert.equal(fleet.passed, null);

  const refused: [Parameters<typeof runConfig>[0], RegExp][] = [
    [{ config: config.path, requiredTools: ["delete-note"] }, /^requiredTools must be SERVER:TOOL/],
    [{ config: config.path, jobs: 0 }, /^jobs must be an integer from 1 to 64$/],
    [{ config: config.path, settleMs: -1 }, /^settleMs must be an integer/],
    [{ config: config.path, servers: ["nothing-here"] }, /names no server of the config file/],
    [{ config: `${config.path}.missing` }, /^Cannot read the config file \(it does not exist\)$/],
  ];
  for (const [options, message] of refused) {
    await assert.rejects(runConfig(options), (error: Error) => {
      assert.ok(error instanceof UserError, error.name);
      assert.match(error.message, message);
      return true;
    });
  }
});
