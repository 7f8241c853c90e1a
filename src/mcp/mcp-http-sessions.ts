/**
 * The Streamable HTTP sessions of one `createCodemodeMcpHandler`: one MCP server and transport
 * per session, bound to the scope `authorize` gave when it began (a request of another scope
 * does not find it). Bounded: a session idle for `idleMs` is closed, and past `max` sessions the
 * least recently used is. Sessions live in this process's memory: a host that answers from many
 * instances uses `sessions: false` (no elicitation then; approvals go through the inspector).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

/** One session: its server, its transport and its owner. */
export interface McpHttpSession {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** The scope `authorize` gave (`undefined`: unscoped). */
  scope: string | undefined;
  lastSeenMs: number;
}

/** The sessions of one handler. */
export interface McpHttpSessions {
  get(sessionId: string, scope: string | undefined): McpHttpSession | undefined;
  add(sessionId: string, session: McpHttpSession): void;
  delete(sessionId: string): void;
  /** Closes idle sessions, and the least recently used beyond the limit (keeping room for one more). */
  sweep(): Promise<void>;
  closeAll(): Promise<void>;
  readonly size: number;
}

async function closeSession(session: McpHttpSession): Promise<void> {
  await session.transport.close().catch(() => undefined);
  await session.server.close().catch(() => undefined);
}

/** Sessions with `max` open at most, each closed after `idleMs` without a request; `now` is the clock. */
export function createMcpHttpSessions({
  max,
  idleMs,
  now,
}: {
  max: number;
  idleMs: number;
  now: () => number;
}): McpHttpSessions {
  // A Map iterates in insertion order; `get` re-inserts, so the first entry is the least recently used.
  const sessions = new Map<string, McpHttpSession>();
  return {
    get(sessionId, scope) {
      const session = sessions.get(sessionId);
      if (session === undefined || session.scope !== scope) return undefined;
      session.lastSeenMs = now();
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
      return session;
    },
    add(sessionId, session) {
      sessions.set(sessionId, session);
    },
    delete(sessionId) {
      sessions.delete(sessionId);
    },
    async sweep() {
      const closing: McpHttpSession[] = [];
      const cutoff = now() - idleMs;
      for (const [sessionId, session] of sessions) {
        if (session.lastSeenMs <= cutoff || sessions.size >= max) {
          closing.push(session);
          sessions.delete(sessionId);
        }
      }
      await Promise.all(closing.map(closeSession));
    },
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map(closeSession));
    },
    get size() {
      return sessions.size;
    },
  };
}
