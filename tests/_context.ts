/**
 * An in-process CLI context for testing the command-line rules without processes: it records
 * stdout and stderr, grants or denies permissions as told, and refuses to start anything unless
 * a test supplies a transport.
 */
import type { CliContext } from "../src/cli/context.ts";

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
    writeFile: (path, text) => Promise.resolve(void files.set(path, text)),
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
