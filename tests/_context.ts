/**
 * An in-process CLI context for testing the command-line rules without processes: it records
 * stdout and stderr, grants or denies permissions as told, and refuses to start anything unless
 * a test supplies a transport.
 */
import assert from "node:assert/strict";
import type { CliContext } from "../src/cli/context.ts";
import { run } from "../src/cli/run.ts";
import { openTransport } from "../src/transport/open.ts";
import type { TransportLimits } from "../src/transport/transport.ts";
import { assertValidReport, type Report } from "./_cli.ts";

/** A context whose effects are recorded. */
export interface TestContext extends CliContext {
  /** Everything written to stdout. */
  readonly out: () => string;
  /** Everything written to stderr. */
  readonly err: () => string;
  /** Targets that discovery tried to open. */
  readonly opened: unknown[];
  /** Files written: path → text. */
  readonly files: Map<string, string>;
}

/** A recording context; `overrides` replace single effects. */
export function testContext(overrides: Partial<CliContext> = {}): TestContext {
  let out = "";
  let err = "";
  const opened: unknown[] = [];
  const files = new Map<string, string>();
  return {
    stdout: (text) => Promise.resolve(void (out += text)),
    stderr: (text) => Promise.resolve(void (err += text)),
    env: () => undefined,
    permission: () => Promise.resolve("granted"),
    reserveFile: () => Promise.resolve({ created: false }),
    removeFile: () => Promise.resolve(),
    readTextFile: () => Promise.reject(new Deno.errors.NotFound("no files here")),
    cwd: () => "/work",
    writeFile: (path, text, { append }) =>
      Promise.resolve(void files.set(path, (append ? files.get(path) ?? "" : "") + text)),
    openTransport: (target) => {
      opened.push(target);
      return Promise.reject(new Error("this test starts no server"));
    },
    color: false,
    ...overrides,
    out: () => out,
    err: () => err,
    opened,
    files,
  };
}

/**
 * A recording context that opens real transports (real processes and sockets) with `limits`
 * injected: a message bound of a few kilobytes tests the behaviour at the bound without 64 MiB
 * messages, whatever the machine's speed. The CLI never injects limits.
 */
export function liveContext(
  limits: TransportLimits = {},
  overrides: Partial<CliContext> = {},
): TestContext {
  return testContext({
    openTransport: (target, version, hooks) => openTransport(target, version, hooks, limits),
    ...overrides,
  });
}

/**
 * Runs `mcpeval guidance --format json ARGS` in-process on a {@linkcode liveContext} with
 * `limits`; fails unless stderr is empty and the report is valid against the printed schema.
 */
export async function guidanceInProcess(
  args: readonly string[],
  limits: TransportLimits = {},
): Promise<{ code: number; report: Report }> {
  const ctx = liveContext(limits);
  const code = await run(["guidance", "--format", "json", ...args], ctx);
  assert.equal(ctx.err(), "", "stderr must be empty");
  const report = JSON.parse(ctx.out());
  await assertValidReport(report);
  return { code, report };
}
