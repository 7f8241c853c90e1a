/**
 * Error hierarchy for programmer errors and broken infrastructure. Expected
 * outcomes of programs (failures, pauses, conflicts) are values, not errors.
 */
const marker = "ai-codemode.error";
const symbol = Symbol.for(marker);

/** Base class of every error this package throws. */
export class CodemodeError extends Error {
  private readonly [symbol] = true;
  readonly code: string;

  constructor({ code, message, cause }: { code: string; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "CodemodeError";
    this.code = code;
  }

  /** Whether `error` is a `CodemodeError` (works across copies of the package). */
  static isInstance(error: unknown): error is CodemodeError {
    return typeof error === "object" && error !== null && symbol in error;
  }
}

/** An option given at construction is invalid. The message names the option path. */
export class InvalidOptionError extends CodemodeError {
  readonly path: string;

  constructor({ path, message, cause }: { path: string; message: string; cause?: unknown }) {
    super({ code: "invalid-option", message: `${path} ${message}`, cause });
    this.name = "InvalidOptionError";
    this.path = path;
  }

  /** Whether `error` is an `InvalidOptionError`. */
  static override isInstance(error: unknown): error is InvalidOptionError {
    return CodemodeError.isInstance(error) && error.code === "invalid-option";
  }
}
