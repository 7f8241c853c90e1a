import { connector, createCodemodeRuntime } from "ai-codemode";
import { getDatabase } from "./database.ts";
import { githubTools, sponsorTools, toolApproval } from "./github-tools.ts";

type CodemodeRuntime = ReturnType<typeof createCodemodeRuntime>;

let runtime: CodemodeRuntime | undefined;

/**
 * One runtime per server process, over the tools the chat routes to codemode (`githubTools`: a program's global
 * `tools`). Nothing is kept in memory between requests: a paused execution lives in the database
 * (lib/database.ts: the same libSQL database as the chats), so an approval can arrive at a restarted server, and
 * any process approving it replays with these same tools. The CLI loads this module too:
 * `npx ai-codemode approve <id> --runtime ./lib/codemode.ts#getCodemodeRuntime`.
 */
export function getCodemodeRuntime(): CodemodeRuntime {
  runtime ??= createCodemodeRuntime({
    tools: githubTools,
    // The same approval policy as streamText's, for the calls programs make.
    toolApproval,
    // Payments need approval, and the approver may change a payment's arguments (the amount) before it runs.
    connectors: {
      sponsors: connector(sponsorTools, {
        methods: { sponsor_contributor: { needsApproval: true, editable: true } },
      }),
    },
    store: getDatabase(),
    // A program that closes pull requests is shown to a person before it runs at all.
    approveProgram: (code) => code.includes("close_pull_request"),
  });
  return runtime;
}
