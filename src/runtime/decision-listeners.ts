/**
 * Who hears that a decision was applied to an execution (approve, decide, reject, expirePaused), in this process.
 * An integration that waits for decisions elsewhere (the Workflow SDK's hooks, `ai-codemode/workflow`) adds a
 * listener here instead of polling the journal. The registry is process-wide (one `Symbol.for` slot), so two
 * copies of the package in one process share it. A listener's failure never changes the decision's outcome.
 */

/** A decision applied to `executionId` of runtime `runtime`; the journal holds what was decided. */
export interface DecisionEvent {
  runtime: string;
  executionId: string;
}

/** Called after a decision settled; what it returns is awaited, what it throws is ignored. */
export type DecisionListener = (event: DecisionEvent) => unknown;

const REGISTRY = Symbol.for("ai-codemode.decision-listeners");

function listeners(): Set<DecisionListener> {
  const holder = globalThis as { [REGISTRY]?: Set<DecisionListener> };
  holder[REGISTRY] ??= new Set();
  return holder[REGISTRY];
}

/** Adds `listener` for this process; the returned function removes it. */
export function addDecisionListener(listener: DecisionListener): () => void {
  listeners().add(listener);
  return () => {
    listeners().delete(listener);
  };
}

/** Tells every listener that `event` happened; never throws. */
export async function notifyDecision(event: DecisionEvent): Promise<void> {
  await Promise.all(
    [...listeners()].map(async (listener) => {
      try {
        await listener(event);
      } catch {
        // A listener is told, it does not decide: its failure leaves the journal as it is.
      }
    }),
  );
}
