/** A programmer error in a call: an argument of a public method is out of its range or of the wrong shape. */
import { CodemodeError } from "./codemode-error.js";

/** An argument of a public method is invalid. The message names the method and the argument. */
export class CodemodeArgumentError extends CodemodeError {
  static override readonly errorCode = "invalid-argument" as const;
  /** The argument, as `method(argument)` (e.g. `pruneExecutions(keep)`). */
  readonly argument: string;

  constructor({ argument, message, cause }: { argument: string; message: string; cause?: unknown }) {
    super({ code: CodemodeArgumentError.errorCode, message: `${argument}: ${message}`, cause });
    this.name = "CodemodeArgumentError";
    this.argument = argument;
  }
}
