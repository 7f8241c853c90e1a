/**
 * Where a decision made on a card stands, for every state the part can be in after the answer: the statuses a card
 * shows as "deciding…", "decided", "decided elsewhere", "expired" and a failure with its message.
 */
import { describe, expect, it } from "vitest";
import { decisionStatus, type DecisionSubmission } from "../../../src/ai/react/codemode-decision-status.js";

const submission: DecisionSubmission = { toolCallId: "call_1", partApprovalId: "cm_a", approved: true };
const ready = { status: "ready", error: undefined };
const part = (fields: Record<string, unknown>) => ({ type: "tool-codemode", toolCallId: "call_1", ...fields });

describe("decisionStatus", () => {
  it("idle without a submission; deciding while the part still holds the answered approval", () => {
    expect(decisionStatus(undefined, part({ state: "approval-requested" }), ready)).toEqual({ state: "idle" });
    for (const state of ["approval-requested", "approval-responded"])
      expect(decisionStatus(submission, part({ state, approval: { id: "cm_a" } }), ready)).toEqual({
        state: "deciding",
        approved: true,
      });
    expect(
      decisionStatus(submission, part({ state: "approval-responded", approval: { id: "cm_a" } }), {
        status: "streaming",
        error: undefined,
      }),
    ).toEqual({ state: "deciding", approved: true });
  });

  it("decided once the run went on: paused on other calls, an output (elsewhere when marked), denied", () => {
    expect(decisionStatus(submission, part({ state: "approval-requested", approval: { id: "cm_b" } }), ready)).toEqual({
      state: "decided",
      approved: true,
      elsewhere: false,
    });
    expect(
      decisionStatus(submission, part({ state: "output-available", output: { status: "completed" } }), ready),
    ).toEqual({ state: "decided", approved: true, elsewhere: false });
    expect(
      decisionStatus(
        submission,
        part({ state: "output-available", output: { status: "completed", decidedElsewhere: true } }),
        ready,
      ),
    ).toEqual({ state: "decided", approved: true, elsewhere: true });
    expect(decisionStatus({ ...submission, approved: false }, part({ state: "output-denied" }), ready)).toEqual({
      state: "decided",
      approved: false,
      elsewhere: false,
    });
  });

  it("a stale answer is decided elsewhere; an expired run, a refusal, a failed request or a send error fail", () => {
    const stale = 'Approval id "cm_a" is stale: execution ex1 is completed. Nothing was run.';
    expect(decisionStatus(submission, part({ state: "output-error", errorText: stale }), ready)).toEqual({
      state: "decided",
      approved: true,
      elsewhere: true,
    });
    const expired =
      'Approval id "cm_a" is stale: execution ex1 is rejected (it expired: nobody decided in time). Nothing was run.';
    expect(decisionStatus(submission, part({ state: "output-error", errorText: expired }), ready)).toEqual({
      state: "failed",
      approved: true,
      message: expired,
      expired: true,
    });
    const forged = 'Approval "cm_a" has an invalid signature for tool call call_1: it was not issued by this server.';
    expect(decisionStatus(submission, part({ state: "output-error", errorText: forged }), ready)).toEqual({
      state: "failed",
      approved: true,
      message: forged,
      expired: false,
    });
    expect(
      decisionStatus(submission, part({ state: "approval-responded", approval: { id: "cm_a" } }), {
        status: "error",
        error: new Error("offline"),
      }),
    ).toEqual({ state: "failed", approved: true, message: "offline", expired: false });
    expect(decisionStatus({ ...submission, error: "not editable" }, undefined, ready)).toEqual({
      state: "failed",
      approved: true,
      message: "not editable",
      expired: false,
    });
  });
});
