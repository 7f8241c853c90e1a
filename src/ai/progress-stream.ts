/**
 * The `codemode` tool's `execute` as an async iterable: throttled progress snapshots while
 * the run works (AI SDK preliminary tool results), then the runtime's final output, last.
 * A slow reader never queues snapshots: only the newest unread one is kept.
 */
import type { ProgressListener } from "../runtime/pass/progress-events.js";
import type { CodemodeOutput } from "../runtime/types.js";
import { withFinalProgress, type CodemodeProgress, type WithProgress } from "./codemode-progress.js";
import { ProgressFeed, type FeedClock, type ProgressFeedOptions } from "./progress-feed.js";

/**
 * Runs `run` with a progress listener and yields snapshots, then the final output with the
 * last snapshot attached as `progress` (the model never reads that field). The SDK sends that
 * last value twice (as a preliminary result, then as the final one): `codemodeApprovalTransform`
 * drops the preliminary copy, so a large result crosses the wire once.
 */
export async function* streamWithProgress({
  run,
  options,
  clock,
}: {
  run: (onProgress: ProgressListener) => Promise<CodemodeOutput>;
  options: ProgressFeedOptions;
  clock?: FeedClock;
}): AsyncGenerator<CodemodeProgress | WithProgress<CodemodeOutput>> {
  let unread: CodemodeProgress | undefined;
  let wake: (() => void) | undefined;
  const feed = new ProgressFeed({
    options,
    publish: (snapshot) => {
      unread = snapshot;
      wake?.();
    },
    ...(clock === undefined ? {} : { clock }),
  });
  const running = run((event) => feed.push(event));
  let settled = false;
  const done = running.finally(() => {
    settled = true;
    wake?.();
  });
  done.catch(() => undefined);
  for (;;) {
    if (unread !== undefined) {
      const snapshot = unread;
      unread = undefined;
      yield snapshot;
      continue;
    }
    if (settled) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  const output = await running;
  const last = feed.close();
  yield last.totalCalls === 0 && last.totalLogs === 0 ? output : withFinalProgress(output, last);
}
