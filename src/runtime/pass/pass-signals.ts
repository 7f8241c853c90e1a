/**
 * The two ways the runtime stops a pass from inside a binding: a pause (a call
 * needs approval) and a fatal failure (divergence, limit, interrupted call,
 * lost lease). Both reach the program as rejections with these messages; the
 * pass outcome is decided by the host, whatever the program does with them.
 */
import type { FailureKind } from "../types.js";

/** Message the program sees when a call pauses the run, and for every call after the pause. */
export function pauseMessage(connector: string, method: string, seq: number): string {
  return (
    `Paused: ${connector}.${method} (call #${seq}) needs human approval. This run stops here and resumes from the ` +
    "start with recorded results once it is approved. Do not catch this error; calls made after it have no effect."
  );
}

/** A failure that ends the pass whatever the program does next. */
export interface FatalFailure {
  kind: FailureKind;
  error: string;
}

/** Divergence: the program made a different call at a recorded sequence number. */
export function divergenceFailure(
  seq: number,
  recorded: { connector: string; method: string; argsText: string },
  actual: { connector: string; method: string; argsText: string },
): FatalFailure {
  const what =
    recorded.connector !== actual.connector || recorded.method !== actual.method
      ? `the journal recorded ${recorded.connector}.${recorded.method} but this pass called ${actual.connector}.${actual.method}`
      : `${actual.connector}.${actual.method} was called with different arguments (recorded ${preview(recorded.argsText)}, now ${preview(actual.argsText)})`;
  return {
    kind: "divergence",
    error:
      `Replay diverged at call #${seq}: ${what}. A resumed run must make the same calls in the same order with the same ` +
      "arguments. Wrap non-deterministic work in codemode.step(name, fn), avoid racing calls whose order depends on timing, " +
      "and start a new execution for a changed program. Nothing was run for this call.",
  };
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
