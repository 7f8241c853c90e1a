/**
 * The CLI's help text and the options each command accepts.
 */

/** What `ai-codemode --help` prints. */
export const USAGE = `Usage: ai-codemode <command> [options]

Commands
  executions                 List executions, newest first (--status, --since, --limit)
  show <id>                  The program with line numbers and its timeline: passes, calls, replays, approvals, logs
  pending [id]               Calls waiting for approval
  prune                      Delete each owner's ended executions beyond its newest --keep (default: maxExecutions), never within retention.minAgeMs
  expire --older-than <age>  End paused runs older than <age> (rejected) and dead running runs (error)
  approve <id> [--seq N]     Approve and resume (needs --runtime or --proxy)
  reject <id> [--seq N] [--reason TEXT]   Reject a paused execution (needs --runtime or --proxy)
  rollback <id>              Revert applied calls newest first (needs --runtime or --proxy)
  inspect --web [--port N]   Serve the web inspector on 127.0.0.1 (read-only without --runtime)
  mcp [--http HOST:PORT]     Serve an MCP server on stdio (or Streamable HTTP at /mcp on a loopback address):
                             the app's --runtime, or --proxy <servers.json> over other MCP servers;
                             --allow-origin <origin,…> lets those pages call it besides its own origin;
                             --modules <modules.json> gives the proxy's programs ES modules from files
                             ({ "name": "path.js" | { "source": "path.js", "types": "path.d.ts" } })

Store (the same resolution as the runtime)
  --store <url>              libSQL URL; else CODEMODE_DATABASE_URL, else TURSO_DATABASE_URL + TURSO_AUTH_TOKEN,
                             else file:.codemode/codemode.db
  --name <name>              Runtime name (separate history), default "default"
  --runtime <module[#export]>  A module exporting the app's runtime (or a function returning it); needed for
                             approve, reject, rollback. .ts modules load through the app's tsx (or node --import tsx).
  --proxy <servers.json>     The MCP proxy's config: its journal (store and name from the file unless given), and
                             its upstream servers for approve, reject, rollback and inspect

Output
  --json                     JSON instead of text
  --status <status>          running | paused | completed | error | rejected | rolled_back
  --since <age|date>         Started within <age> (30m, 24h, 7d) or since an ISO date
  --limit <n>                Rows listed (default 50)
`;

/** Options each command accepts besides --store, --name, --runtime, --json, --help. */
export const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  executions: ["status", "since", "limit", "proxy"],
  show: ["proxy"],
  pending: ["proxy"],
  prune: ["keep"],
  expire: ["older-than"],
  approve: ["seq", "proxy"],
  reject: ["seq", "reason", "proxy"],
  rollback: ["proxy"],
  inspect: ["web", "port", "proxy"],
  mcp: ["http", "proxy", "allow-origin", "modules"],
};

/** Commands that act through the app's connectors. */
export const ACTION_COMMANDS: readonly string[] = ["approve", "reject", "rollback"];
