import { connector, createCodemodeRuntime } from "ai-codemode";
import { wakeCodemodeWorkflows } from "ai-codemode/workflow";
import { getDatabase } from "./database.ts";
import { githubTools, sponsorTools, toolApproval } from "./github-tools.ts";
import { getSecret } from "./secrets.ts";

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
  // Ready on first use; a route that decides awaits it (`workflowsWoken`) so its decision cannot come first.
  workflowsWoken().catch(() => undefined);
  return runtime;
}

let woken: Promise<string> | undefined;

/**
 * Makes every decision this process applies — the chat card, the inspector, an approval link, MCP, the CLI loading
 * this module — wake the `/workflow` chat's workflow waiting on that execution (`wakeCodemodeWorkflows` from
 * `ai-codemode/workflow`, with the hook secret of `lib/secrets.ts`). Resolves with that secret once installed; the
 * codemode step of `workflows/chat.ts` derives its hook tokens with the same one.
 */
export function workflowsWoken(): Promise<string> {
  woken ??= getSecret("workflow").then(
    (secret) => {
      wakeCodemodeWorkflows({ secret });
      return secret;
    },
    (error: unknown) => {
      woken = undefined;
      throw error;
    },
  );
  return woken;
}
