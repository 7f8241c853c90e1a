/**
 * Program approval (`approveProgram`): an execution that must be approved before it runs starts
 * `paused` with one pending journal row for the whole program at sequence 0 (connector `codemode`,
 * method `program`, arguments `{ code }`). Program calls are numbered from 1, so replay never meets it;
 * approving it marks it applied and runs the first pass, rejecting it ends the execution with nothing run.
 */
import { messageOf } from "../shared/message-of.js";
import { WHOLE_PROGRAM_SEQ } from "./journal/records.js";
import type { PendingAction } from "./types.js";

/** Sequence number of the whole-program approval row. */
const PROGRAM_APPROVAL_SEQ = WHOLE_PROGRAM_SEQ;
/** Connector name of the whole-program approval row (the `codemode` global's). */
const PROGRAM_APPROVAL_CONNECTOR = "codemode";
/** Method name of the whole-program approval row. */
const PROGRAM_APPROVAL_METHOD = "program";

/** The runtime option: always, never, or decided per program. */
export type ApproveProgramOption = boolean | ((code: string) => boolean | Promise<boolean>);

/** Whether `code` must be approved before it runs; a policy that throws or answers a non-boolean is an error. */
export async function programNeedsApproval(
  option: ApproveProgramOption,
  code: string,
): Promise<{ ok: true; value: boolean } | { ok: false; error: string }> {
  if (typeof option === "boolean") return { ok: true, value: option };
  let answer: unknown;
  try {
    answer = await option(code);
  } catch (error) {
    return { ok: false, error: `approveProgram threw (${messageOf(error)}); the program was not run.` };
  }
  if (typeof answer !== "boolean") {
    return {
      ok: false,
      error: `approveProgram must return true or false, got ${typeof answer}; the program was not run.`,
    };
  }
  return { ok: true, value: answer };
}

/** The pending item of a program waiting for approval. */
export function programApprovalAction(executionId: string, code: string): PendingAction {
  return {
    executionId,
    seq: PROGRAM_APPROVAL_SEQ,
    connector: PROGRAM_APPROVAL_CONNECTOR,
    method: PROGRAM_APPROVAL_METHOD,
    args: { code },
  };
}

/** Whether a journal row or pending item is the approval of the whole program, never a call the program made. */
export function isProgramApproval(call: { seq: number; connector: string; method: string }): boolean {
  return (
    call.seq === PROGRAM_APPROVAL_SEQ &&
    call.connector === PROGRAM_APPROVAL_CONNECTOR &&
    call.method === PROGRAM_APPROVAL_METHOD
  );
}
