/** A failure of the `ai-codemode` command line: a bad command line (`usage`, exit code 2) or a command that failed (exit code 1). */
import { CodemodeError } from "./codemode-error.js";

/** What the CLI prints before it exits: the message, and for a usage error a pointer to `--help`. */
export class CliError extends CodemodeError {
  static override readonly errorCode = "cli" as const;
  /** A bad command line (exit code 2), rather than a command that failed (exit code 1). */
  readonly usage: boolean;

  constructor({ message, usage = false, cause }: { message: string; usage?: boolean; cause?: unknown }) {
    super({ code: CliError.errorCode, message, cause });
    this.name = "CliError";
    this.usage = usage;
  }
}
