/** A row read from the store failed validation (shape or record version); the runtime reports it as `store`. */
import { CodemodeError } from "./codemode-error.js";

/** A stored row does not have the expected shape or version. */
export class CorruptRecordError extends CodemodeError {
  static override readonly errorCode = "corrupt-record" as const;
  constructor(message: string) {
    super({ code: CorruptRecordError.errorCode, message });
    this.name = "CorruptRecordError";
  }
}
