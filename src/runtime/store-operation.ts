/**
 * The handle's listing and housekeeping methods (`executions`, `pruneExecutions`, …) run their store
 * operations through {@link storeOperation}, so any failure reaches the caller as a `StoreError` that says
 * what failed. Runs never throw it: they report a store failure as `kind: "store"`.
 */
import { StoreError } from "../errors/store-error.js";
import { messageOf } from "../shared/message-of.js";

/** Runs a store operation, rethrowing any failure as a {@link StoreError} that says what failed. */
export async function storeOperation<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw new StoreError({ message: `Could not ${what}: ${messageOf(error)}`, cause: error });
  }
}
