/** An OpenAPI call's input would send the request off its operation's path; the call fails validation. */
import { CodemodeError } from "./codemode-error.js";

/** The input would send the request off the operation's path. The message is written for the program's author. */
export class UnsafeRequestError extends CodemodeError {
  static override readonly errorCode = "unsafe-request" as const;

  constructor(message: string) {
    super({ code: UnsafeRequestError.errorCode, message });
    this.name = "UnsafeRequestError";
  }
}
