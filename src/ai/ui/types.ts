/**
 * What the UI approval bridge needs from a runtime. `createCodemodeRuntime()` returns a
 * handle that satisfies it; the bridge takes only these methods so it never depends
 * on how the runtime is built.
 */
import type { ProgressListener } from "../../runtime/pass/progress-events.js";
import type { CodemodeOutput, ExecutionDetail, PendingAction, RejectOutput } from "../../runtime/types.js";

/** Per-call options the bridge passes when it resumes an execution. */
export interface CodemodeResumeOptions {
  /** Receives each connector call and console line of the resumed pass. */
  onProgress?: ProgressListener;
}

/** The part of a codemode runtime that approvals in a chat UI use. */
export interface CodemodeApprovalRuntime {
  /** Approves one pending call and runs the next pass from the store. */
  approve(
    input: { executionId: string; seq?: number; scope?: string; decidedBy?: string },
    options?: CodemodeResumeOptions,
  ): Promise<CodemodeOutput>;
  /** Rejects one pending call: the execution ends `rejected` and connector hooks run. */
  reject(input: {
    executionId: string;
    seq?: number;
    reason?: string;
    scope?: string;
    decidedBy?: string;
  }): Promise<RejectOutput>;
  /** Decides several pending calls of one pause at once and resumes once (approved run, rejected reject in the program). */
  decide(
    input: {
      executionId: string;
      decisions: Array<{ seq: number; approved: boolean; reason?: string; args?: unknown }>;
      scope?: string;
      decidedBy?: string;
    },
    options?: CodemodeResumeOptions,
  ): Promise<CodemodeOutput>;
  /** Calls waiting for approval, of one execution or of all (of `scope` only, when given). */
  pending(executionId?: string, options?: { scope?: string }): Promise<PendingAction[]>;
  /** One execution with its call log, or nothing when it does not exist (or belongs to another scope). */
  execution(executionId: string, options?: { scope?: string }): Promise<ExecutionDetail | null | undefined>;
}
