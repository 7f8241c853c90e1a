import { createCodemodeRuntime } from "ai-codemode";
import { getDatabase } from "./database.ts";
import { github } from "./github-connector.ts";

type CodemodeRuntime = ReturnType<typeof createCodemodeRuntime>;

let runtime: CodemodeRuntime | undefined;

/**
 * One runtime per server process. Nothing is kept in memory between requests: a paused
 * execution lives in the database (lib/database.ts: the same libSQL database as the chats),
 * so an approval can arrive at a restarted server. The CLI loads this module too:
 * `npx ai-codemode approve <id> --runtime ./lib/codemode.ts#getCodemodeRuntime`.
 */
export function getCodemodeRuntime(): CodemodeRuntime {
  runtime ??= createCodemodeRuntime({
    connectors: { github },
    store: getDatabase(),
    // A program that closes pull requests is shown to a person before it runs at all.
    approveProgram: (code) => code.includes("close_pull_request"),
  });
  return runtime;
}
