/** A value that cannot cross the sandbox boundary or be journaled (`src/sandbox/codec/codec.ts`). */
import { CodemodeError } from "./codemode-error.js";

/** A value cannot be encoded or decoded. `path` names where (e.g. `args.user.callback`). */
export class CodecError extends CodemodeError {
  static override readonly errorCode = "codec" as const;
  readonly path: string;
  /** Set when encoding stopped because the value passed `maxChars`. */
  readonly overLimit: boolean;

  constructor({
    path,
    message,
    cause,
    overLimit = false,
  }: { path: string; message: string; cause?: unknown; overLimit?: boolean }) {
    super({ code: CodecError.errorCode, message: `${path}: ${message}`, cause });
    this.name = "CodecError";
    this.path = path;
    this.overLimit = overLimit;
  }
}
