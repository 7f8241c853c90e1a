/**
 * What a run reports while it works (`ExecuteOptions.onProgress`): each connector call as it
 * starts and settles, and console lines. Reports are for people watching; they never change
 * the journal or the output, and a listener that throws is ignored.
 */
import type { CallState } from "../call-state.js";

/** One connector call as a run reports it, and as a progress snapshot shows it to a person. */
export interface CallProgress {
  seq: number;
  connector: string;
  method: string;
  /** The arguments (in a snapshot: as JSON; longer than `MAX_PROGRESS_ARGS_CHARS` they become `{ preview }`). */
  args: unknown;
  /**
   * `executing` when it starts on this pass, then `applied` or `error`; `pending` when the pass pauses on it;
   * `replayed`, `error` or `rejected` when the journal answers it.
   */
  state: CallState;
  /** Milliseconds the call took on this pass (absent while executing and for replayed calls). */
  durationMs?: number;
  /** The error text, for `error` and `rejected`. */
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
