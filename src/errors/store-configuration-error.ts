/**
 * A store that cannot work as configured — a refused token, a folder that does not exist, a read-only
 * filesystem — as opposed to a store that failed this once. Trying again changes nothing, so the message says
 * what to configure. The runtime reports it as `kind: "store"` with this message as it is.
 */
import { CodemodeError } from "./codemode-error.js";

/** Where to point a user who has no writable local disk (serverless). */
export const CONFIGURE_TURSO_HINT =
  "Configure a database: set TURSO_DATABASE_URL and TURSO_AUTH_TOKEN (or CODEMODE_DATABASE_URL), or pass the store " +
  "option. A local file cannot carry a paused execution from one serverless instance to another anyway: each " +
  "instance has its own disk, so the approval request may reach an instance that never saw the pause.";

/** The store cannot be used as configured; the message names what to change. */
export class StoreConfigurationError extends CodemodeError {
  static override readonly errorCode = "store-configuration" as const;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: StoreConfigurationError.errorCode, message, cause });
    this.name = "StoreConfigurationError";
  }
}
