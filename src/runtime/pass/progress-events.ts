/**
 * What a run reports while it works (`ExecuteOptions.onProgress`): each connector call as it
 * starts and settles, and console lines. Reports are for people watching; they never change
 * the journal or the output, and a listener that throws is ignored.
 */

/**
 * Where one connector call stands:
 * - `running`: started on this pass, not settled yet.
 * - `done`: ran on this pass and returned.
 * - `replayed`: answered from the journal (ran on an earlier pass).
 * - `needs-approval`: waiting for a human; the pass pauses.
 * - `rejected`: a human rejected it; the program got a rejection it can catch.
 * - `failed`: threw (or was refused by validation).
 */
export type CallProgressState = "running" | "done" | "replayed" | "needs-approval" | "rejected" | "failed";

/** One connector call as a run reports it, and as a progress snapshot shows it to a person. */
export interface CallProgress {
  seq: number;
  connector: string;
  method: string;
  /** The arguments (in a snapshot: as JSON; longer than `MAX_PROGRESS_ARGS_CHARS` they become `{ preview }`). */
  args: unknown;
  state: CallProgressState;
  /** Milliseconds the call took on this pass (absent while running and for replayed calls). */
  durationMs?: number;
  /** The error text, for `failed` and `rejected`. */
  error?: string;
}

/** One report of a run. */
export type ProgressEvent =
  | ({ type: "call"; executionId: string } & CallProgress)
  | { type: "log"; executionId: string; line: string };

/** Receives progress reports; called synchronously, so keep it cheap. */
export type ProgressListener = (event: ProgressEvent) => void;

/** Calls `listener` and ignores what it throws (progress never changes a run). */
export function reportProgress(listener: ProgressListener | undefined, event: ProgressEvent): void {
  if (listener === undefined) return;
  try {
    listener(event);
  } catch {
    // A watcher's failure is not the program's.
  }
}
