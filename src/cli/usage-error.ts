/** A bad command line: a {@link CliError} with `usage` set (exit code 2), its message pointing at `--help`. */
import { CliError } from "../errors/cli-error.js";

/** The error for a bad command line; `message` says what is wrong. */
export function usageError(message: string): CliError {
  return new CliError({ message: `${message}\nRun ai-codemode --help for the commands and options.`, usage: true });
}
