/**
 * Runs the CLI in-process with captured output and a fixed clock.
 */
import { runCli } from "../../src/cli/run-cli.js";

/** What one CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `ai-codemode args` with `now` as its clock, no environment, in `cwd`. */
export async function cli(
  args: string[],
  { now, cwd, env = {} }: { now: number; cwd: string; env?: Record<string, string> },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    cwd,
    now: () => now,
  });
  return { code, stdout, stderr };
}
