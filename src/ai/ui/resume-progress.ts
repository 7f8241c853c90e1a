/**
 * Progress of an execution resumed by the chat bridge (an approval answered in a later request):
 * the same throttled snapshots the tool yields on its first pass, written as preliminary
 * `tool-output-available` chunks on the tool call, so a program approved in the chat is watched
 * the same way (with program approval, every call of the program runs here).
 */
import type { UIMessageChunk } from "ai";
import type { ProgressListener } from "../../runtime/pass/progress-events.js";
import type { CodemodeProgress } from "../codemode-progress.js";
import {
  DEFAULT_PROGRESS_MAX_CALLS,
  DEFAULT_PROGRESS_MAX_LOGS,
  DEFAULT_PROGRESS_THROTTLE_MS,
  ProgressFeed,
} from "../progress-feed.js";

/** A listener for one resumed execution, and the last snapshot once it ended. */
export interface ResumeProgress {
  onProgress: ProgressListener;
  /** Stops the trailing snapshot; the last state, or undefined when nothing was reported. */
  finish(): CodemodeProgress | undefined;
}

/** Writes throttled snapshots of tool call `toolCallId` to `write`. */
export function resumeProgress({
  toolCallId,
  write,
}: {
  toolCallId: string;
  write: (chunk: UIMessageChunk) => void;
}): ResumeProgress {
  const feed = new ProgressFeed({
    options: {
      throttleMs: DEFAULT_PROGRESS_THROTTLE_MS,
      maxCalls: DEFAULT_PROGRESS_MAX_CALLS,
      maxLogs: DEFAULT_PROGRESS_MAX_LOGS,
    },
    publish: (snapshot) => write({ type: "tool-output-available", toolCallId, output: snapshot, preliminary: true }),
  });
  let reported = false;
  return {
    onProgress: (event) => {
      reported = true;
      feed.push(event);
    },
    finish: () => {
      const last = feed.close();
      return reported ? last : undefined;
    },
  };
}
