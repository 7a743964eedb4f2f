/**
 * The signals that stop mcpeval (SIGINT, and SIGTERM and SIGHUP off Windows), listened to from
 * the first statement of `main.ts`, so that a signal at any moment after it ends the process with
 * mcpeval's status rather than the runtime's. Until a command claims them (one that starts
 * servers, to stop them first), a signal exits at once: nothing has started that needs stopping.
 *
 * One window is Deno's: its first listener hooks all three signals at once, and until a signal
 * has a listener of its own, Deno gives it the default action (the runtime's status), even where
 * the signal was ignored when mcpeval started. The three listeners are added one right after the
 * other, so that window lasts microseconds.
 *
 * Imports only the exit codes: `main.ts` loads it before anything else.
 *
 * @module
 */
import { EXIT } from "../exit.ts";

const controller = new AbortController();
let listening = false;
let claimed = false;

/** The one stderr line of a signal before any server started. */
const EARLY_LINES: Readonly<Record<string, string>> = {
  SIGHUP: "mcpeval: hung up (SIGHUP) before any server started\n",
  other: "mcpeval: interrupted before any server started\n",
};

/** Starts listening for the signals that stop mcpeval; again, it does nothing. */
export function listenForSignals(): void {
  if (listening) return;
  listening = true;
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) {
    Deno.addSignalListener(signal, () => {
      if (claimed) {
        if (!controller.signal.aborted) controller.abort(signal);
        return;
      }
      try {
        Deno.stderr.writeSync(new TextEncoder().encode(EARLY_LINES[signal] ?? EARLY_LINES.other));
      } catch {
        // nowhere left to say anything
      }
      Deno.exit(signal === "SIGHUP" ? EXIT.hangup : EXIT.interrupted);
    });
  }
}

/**
 * Aborted on SIGINT (and SIGTERM and SIGHUP off Windows), with the signal's name as its reason.
 * From the first call on, a signal no longer exits at once: the caller stops what it started
 * and exits.
 */
export function claimInterrupts(): AbortSignal {
  listenForSignals();
  claimed = true;
  return controller.signal;
}
