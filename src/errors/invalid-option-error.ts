/** A programmer error at construction: an option is invalid. The message names the option path. */
import { CodemodeError } from "./codemode-error.js";

/** An option given at construction is invalid. The message names the option path. */
export class InvalidOptionError extends CodemodeError {
  static override readonly errorCode = "invalid-option" as const;
  readonly path: string;

  constructor({ path, message, cause }: { path: string; message: string; cause?: unknown }) {
    super({ code: InvalidOptionError.errorCode, message: `${path} ${message}`, cause });
    this.name = "InvalidOptionError";
    this.path = path;
  }
}
