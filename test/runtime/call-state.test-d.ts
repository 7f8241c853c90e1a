/**
 * Type tests for the call-state vocabulary: the journal's stored status, a progress report's state and the
 * timeline's state are the one `CallState` union, so no view can grow a word of its own.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { CallRecord, CallState, ProgressEvent } from "../../src/index.js";
import type { TimelineCall } from "../../src/inspector/execution-timeline.js";
import type { CallProgress, CodemodeProgress } from "../../src/ui.js";

describe("CallState", () => {
  it("names every state once", () => {
    expectTypeOf<CallState>().toEqualTypeOf<
      "executing" | "applied" | "replayed" | "pending" | "approved" | "rejected" | "error" | "reverted" | "interrupted"
    >();
  });

  it("is the state of a progress report, a snapshot's counts and a timeline call; the stored status is a part of it", () => {
    expectTypeOf<CallProgress["state"]>().toEqualTypeOf<CallState>();
    expectTypeOf<Extract<ProgressEvent, { type: "call" }>["state"]>().toEqualTypeOf<CallState>();
    expectTypeOf<keyof CodemodeProgress["counts"]>().toEqualTypeOf<CallState>();
    expectTypeOf<TimelineCall["state"]>().toEqualTypeOf<CallState>();
    expectTypeOf<CallRecord["status"]>().toExtend<CallState>();
  });
});
