/**
 * Where the CLI reads and writes, and its clock: a file of its own so the commands (`cli-commands.ts`,
 * `mcp-command.ts`) need not import `run-cli.ts`, which imports them.
 */

/** Where the CLI reads and writes, and its clock (tests inject them). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
  /** Stops `inspect --web` (default: SIGINT or SIGTERM). */
  signal?: AbortSignal;
  /** Told the inspector's URL once it listens. */
  onListening?: (url: string) => void;
}
