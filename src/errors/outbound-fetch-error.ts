/**
 * A program's `fetch` that did not get a response through the host's outbound fetch (`src/connectors/outbound-fetch.ts`):
 * a redirect it does not follow, or the host's `fetch` failing. The program sees it as the rejection of its `fetch`.
 */
import { CodemodeError } from "./codemode-error.js";

/** The program's `fetch` failed on the host side; `cause` holds the host's own error. */
export class OutboundFetchError extends CodemodeError {
  static override readonly errorCode = "outbound-fetch" as const;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: OutboundFetchError.errorCode, message, cause });
    this.name = "OutboundFetchError";
  }
}
