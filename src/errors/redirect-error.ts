/** A redirect the host does not follow (`src/connectors/follow-redirects.ts`): a refused hop, a non-http(s) target, too many. */
import { CodemodeError } from "./codemode-error.js";

/** A redirect that is not followed. The message says which and why; the program sees it as the call's rejection. */
export class RedirectError extends CodemodeError {
  static override readonly errorCode = "redirect" as const;

  constructor(message: string) {
    super({ code: RedirectError.errorCode, message });
    this.name = "RedirectError";
  }
}
