#!/usr/bin/env node
/**
 * The `ai-codemode` executable (the package's `bin`): runs the CLI on the process's
 * arguments and exits with its code.
 */
import { runCli } from "./run-cli.js";

process.exitCode = await runCli(process.argv.slice(2));
