/**
 * Connector lifecycle hooks (SPEC §3.4): `onPassEnd` after every pass,
 * `disposeExecution` after completion, error, rejection or rollback — never
 * after a pause. Called for every configured connector; errors are ignored.
 */
import type { Connector, ConnectorLifecycleContext } from "../connectors/types.js";

type LifecycleStatus = ConnectorLifecycleContext["status"];

async function callEach(
  connectors: Record<string, Connector>,
  hook: "onPassEnd" | "disposeExecution",
  executionId: string,
  status: LifecycleStatus,
): Promise<void> {
  await Promise.allSettled(
    Object.entries(connectors).map(async ([connector, definition]) => {
      const fn = definition[hook];
      if (fn !== undefined) await fn.call(definition, { executionId, connector, status });
    }),
  );
}

/** After a pass: `onPassEnd` always; `disposeExecution` too unless the pass paused. */
export async function afterPass(connectors: Record<string, Connector>, executionId: string, status: "completed" | "error" | "paused"): Promise<void> {
  await callEach(connectors, "onPassEnd", executionId, status);
  if (status !== "paused") await callEach(connectors, "disposeExecution", executionId, status);
}

/** After an execution ended outside a pass (rejected, rolled back, expired, deleted). */
export async function disposeExecution(connectors: Record<string, Connector>, executionId: string, status: "error" | "rejected" | "rolled_back" | "completed"): Promise<void> {
  await callEach(connectors, "disposeExecution", executionId, status);
}
