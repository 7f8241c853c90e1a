import { createCodemodeRuntime } from "ai-codemode";
import { github } from "./github-connector";

type CodemodeRuntime = ReturnType<typeof createCodemodeRuntime>;

let runtime: CodemodeRuntime | undefined;

/**
 * One runtime per server process. Nothing is kept in memory between requests: a paused
 * execution lives in the database (embedded file by default, CODEMODE_DATABASE_URL or
 * TURSO_DATABASE_URL otherwise), so an approval can arrive at a restarted server.
 */
export function getCodemodeRuntime(): CodemodeRuntime {
  runtime ??= createCodemodeRuntime({
    connectors: { github },
    store: process.env.CODEMODE_DATABASE_URL ?? "file:.codemode/example.db",
    // A program that closes pull requests is shown to a person before it runs at all.
    approveProgram: (code) => code.includes("close_pull_request"),
  });
  return runtime;
}
