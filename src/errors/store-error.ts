/**
 * Broken infrastructure seen by the handle's listing and housekeeping methods (`executions`, `pruneExecutions`,
 * …). Runs never throw it: `execute`, `approve`, `reject` and `rollback` report a store failure as `kind: "store"`.
 */
import { CodemodeError } from "./codemode-error.js";

/** The database could not be read or written, or a stored record failed validation. */
export class StoreError extends CodemodeError {
  static override readonly errorCode = "store" as const;
  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: StoreError.errorCode, message, cause });
    this.name = "StoreError";
  }
}
