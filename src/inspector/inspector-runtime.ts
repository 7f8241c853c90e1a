/**
 * What the inspector (CLI and web) needs from a runtime: the public handle's read,
 * approval and housekeeping methods. Any `createCodemodeRuntime(...)` handle fits.
 */
import type { DurableRuntime } from "../runtime/durable-runtime.js";

/** The runtime methods the inspector reads and acts through. */
export type InspectorRuntime = Pick<
  DurableRuntime,
  "name" | "executions" | "execution" | "pending" | "approve" | "reject" | "decide" | "rollback"
>;

/** The runtime methods the CLI's housekeeping commands (`prune`, `expire`) add. */
export type HousekeepingRuntime = Pick<DurableRuntime, "pruneExecutions" | "expirePaused">;

/** Tells a runtime handle from other module exports (duck-typed: handles cross package copies). */
export function isInspectorRuntime(value: unknown): value is InspectorRuntime {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["executions", "execution", "pending", "approve", "reject", "decide", "rollback"].every(
    (key) => typeof record[key] === "function",
  );
}
