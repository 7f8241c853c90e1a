/**
 * Connector lifecycle hooks: `onPassEnd` after every pass,
 * `disposeExecution` after completion, error, rejection or rollback — never
 * after a pause. Called for every configured connector; errors are ignored.
 */
import type { Connector, ConnectorLifecycleContext } from "../../connectors/types.js";

type LifecycleStatus = ConnectorLifecycleContext["status"];

/** Whose hooks to call, and how long to wait for each. */
export interface HookOwner {
  connectors: Record<string, Connector>;
  /** A hook that has not settled after this long is left behind, so a stuck cleanup cannot hold a run's answer. */
  hookTimeoutMs: number;
}

function settledWithin<T>(promise: Promise<T>, ms: number): Promise<unknown> {
  return Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

async function callEach(
  { connectors, hookTimeoutMs }: HookOwner,
  hook: "onPassEnd" | "disposeExecution",
  executionId: string,
  status: LifecycleStatus,
): Promise<void> {
  await Promise.allSettled(
    Object.entries(connectors).map(async ([connector, definition]) => {
      const fn = definition[hook];
      if (fn !== undefined)
        await settledWithin(Promise.resolve(fn.call(definition, { executionId, connector, status })), hookTimeoutMs);
    }),
  );
}

/** After a pass: `onPassEnd` always; `disposeExecution` too unless the pass paused. */
export async function afterPass(
  owner: HookOwner,
  executionId: string,
  status: "completed" | "error" | "paused",
): Promise<void> {
  await callEach(owner, "onPassEnd", executionId, status);
  if (status !== "paused") await callEach(owner, "disposeExecution", executionId, status);
}

/** After an execution ended outside a pass (rejected, rolled back, expired, deleted). */
export async function disposeExecution(
  owner: HookOwner,
  executionId: string,
  status: "error" | "rejected" | "rolled_back" | "completed",
): Promise<void> {
  await callEach(owner, "disposeExecution", executionId, status);
}
