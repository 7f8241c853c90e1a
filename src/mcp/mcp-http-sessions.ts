/**
 * The Streamable HTTP sessions of one `createCodemodeMcpHandler`: one MCP server and transport
 * per session, bound to the scope `authorize` gave when it began (a request of another scope
 * does not find it). Bounded per owner and in total, fairly: a new session first closes idle
 * ones, then the same owner's least recently used, and only then one of an owner holding more
 * sessions than the newcomer would. A session with a program run in flight (perhaps waiting on
 * a person's approval form) is never closed to make room. Sessions live in this process's
 * memory: a host that answers from many instances uses `sessions: false`.
 */
import type { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

/** One session: its server, its transport and its owner. */
export interface McpHttpSession {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** The scope `authorize` gave (`undefined`: unscoped). */
  scope: string | undefined;
  lastSeenMs: number;
  /** Program runs in flight on this session; a busy session is never closed to make room. */
  busy: number;
}

/** The sessions of one handler. */
export interface McpHttpSessions {
  get(sessionId: string, scope: string | undefined): McpHttpSession | undefined;
  add(sessionId: string, session: McpHttpSession): void;
  delete(sessionId: string): void;
  /** Makes room for one more session of `scope`; `false` when every session it could close is busy. */
  admit(scope: string | undefined): Promise<boolean>;
  closeAll(): Promise<void>;
  readonly size: number;
}

async function closeSession(session: McpHttpSession): Promise<void> {
  await session.transport.close().catch(() => undefined);
  await session.server.close().catch(() => undefined);
}

/** Sessions with `max` open at most (`perOwner` per scope), each closed after `idleMs` without a request. */
export function createMcpHttpSessions({
  max,
  perOwner,
  idleMs,
  now,
}: {
  max: number;
  perOwner: number;
  idleMs: number;
  now: () => number;
}): McpHttpSessions {
  // A Map iterates in insertion order; `get` re-inserts, so the first entries are the least recently used.
  const sessions = new Map<string, McpHttpSession>();

  const ownedBy = (scope: string | undefined): Array<[string, McpHttpSession]> =>
    [...sessions].filter(([, session]) => session.scope === scope);
  /** The least recently used session of `entries` without a run in flight. */
  const oldestIdle = (entries: Array<[string, McpHttpSession]>) => entries.find(([, session]) => session.busy === 0);

  /** The oldest idle session of the owner with the most sessions, when that owner has more than `than`. */
  const fromLargestOwner = (than: number): [string, McpHttpSession] | undefined => {
    const counts = new Map<string | undefined, number>();
    for (const session of sessions.values()) counts.set(session.scope, (counts.get(session.scope) ?? 0) + 1);
    const owners = [...counts].filter(([, count]) => count > than).sort((a, b) => b[1] - a[1]);
    for (const [owner] of owners) {
      const found = oldestIdle(ownedBy(owner));
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const close = async (entry: [string, McpHttpSession] | undefined): Promise<boolean> => {
    if (entry === undefined) return false;
    sessions.delete(entry[0]);
    await closeSession(entry[1]);
    return true;
  };

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
    async admit(scope) {
      const cutoff = now() - idleMs;
      const expired = [...sessions].filter(([, session]) => session.busy === 0 && session.lastSeenMs <= cutoff);
      for (const [sessionId] of expired) sessions.delete(sessionId);
      await Promise.all(expired.map(([, session]) => closeSession(session)));
      const owned = ownedBy(scope);
      if (owned.length >= perOwner && !(await close(oldestIdle(owned)))) return false;
      if (sessions.size < max) return true;
      // Full: the owner's own idle session first, else one of an owner holding more than the newcomer will.
      return (await close(oldestIdle(ownedBy(scope)))) || close(fromLargestOwner(ownedBy(scope).length + 1));
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
