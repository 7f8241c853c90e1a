/**
 * Broken infrastructure seen by the handle's listing and housekeeping methods
 * (`executions`, `pruneExecutions`, …). Runs never throw it: `execute`,
 * `approve`, `reject` and `rollback` report a store failure as `kind: "store"`.
 */
import { CodemodeError } from "../errors.js";
import { messageOf } from "./error-message.js";

/** The database could not be read or written, or a stored record failed validation. */
export class StoreError extends CodemodeError {
  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: "store", message, cause });
    this.name = "StoreError";
  }

  /** Whether `error` is a `StoreError`. */
  static override isInstance(error: unknown): error is StoreError {
    return CodemodeError.isInstance(error) && error.code === "store";
  }
}

/** Runs a store operation, rethrowing any failure as a {@link StoreError} that says what failed. */
export async function storeOperation<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw new StoreError({ message: `Could not ${what}: ${messageOf(error)}`, cause: error });
  }
}
