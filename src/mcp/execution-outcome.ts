/**
 * `codemode_outcome`: what became of an execution, read from the journal (never decided
 * here). A completed, paused or failed execution reads as the `CodemodeOutput` a pass would
 * have returned; `running`, `rejected` and `rolled_back` say so with what to do next.
 */
import type { CodemodeOutput, ExecutionDetail } from "../runtime/types.js";

/** An execution's outcome: a `CodemodeOutput`, or a state no pass returns. */
export type ExecutionOutcome =
  | { kind: "output"; output: CodemodeOutput }
  | { kind: "state"; view: { status: "running" | "rejected" | "rolled_back"; executionId: string }; message: string };

/** The outcome of `detail` (an execution the caller may see). */
export function executionOutcome(detail: ExecutionDetail): ExecutionOutcome {
  const { executionId } = detail;
  switch (detail.status) {
    case "completed":
      return {
        kind: "output",
        output: {
          status: "completed",
          executionId,
          result: detail.result,
          ...(detail.logs.length === 0 ? {} : { logs: detail.logs }),
        },
      };
    case "paused":
      return { kind: "output", output: { status: "paused", executionId, pending: detail.pending } };
    case "error":
      return {
        kind: "output",
        output: {
          status: "error",
          executionId,
          error: detail.error ?? "The execution failed.",
          kind: detail.kind ?? "exception",
          ...(detail.logs.length === 0 ? {} : { logs: detail.logs }),
        },
      };
    case "running":
      return {
        kind: "state",
        view: { status: "running", executionId },
        message: "It is running now (resumed after a decision, or by another request); ask again in a few seconds.",
      };
    case "rejected":
      return {
        kind: "state",
        view: { status: "rejected", executionId },
        message:
          `A person rejected it${detail.error === undefined ? "" : ` (${detail.error})`}: the run ended; ` +
          "calls made before the pause stay applied. Do not retry it unless the user asks.",
      };
    case "rolled_back":
      return {
        kind: "state",
        view: { status: "rolled_back", executionId },
        message: "It was rolled back: its applied calls were reverted.",
      };
  }
}
