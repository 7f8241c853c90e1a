/**
 * `createCodemodeMcpHandler({ runtime, authorize })`: the codemode MCP server over Streamable
 * HTTP as a Fetch-API handler (`(request) => Promise<Response>`), for a Next.js route
 * (`app/api/mcp/route.ts`) or any server that speaks `Request`/`Response`. Every request passes
 * `authorize` first, which decides the scope of what it may run and read. The body is read with
 * a size limit and parsed here (malformed JSON is a JSON-RPC parse error); a client that goes
 * away mid-call cancels its calls, so their passes end and the journal stays consistent.
 *
 * Two protocol revisions, one route: a request carrying the 2026-07-28 envelope (`server/discover`
 * and every request of such a client) goes to the SDK v2's `createMcpHandler`, which builds a server
 * per request; a 2025-era request (`initialize`, a session's requests, GET and DELETE) keeps this
 * handler's own Streamable HTTP wiring, with sessions (elicitation, URL elicitation, tasks) or
 * without (`sessions: false`: tasks and `-32042` link retries), which the SDK's stateless fallback
 * does not have.
 */
import { messageOf } from "../shared/message-of.js";
import { randomUUID } from "node:crypto";
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";
import { assertKnownKeys } from "../shared/known-keys.js";
import { declareOptions, option } from "../shared/options/declare-options.js";
import { scopeProblem } from "../runtime/execution-request.js";
import { buildCodemodeMcpServer, createCodemodeMcpServer } from "./create-codemode-mcp-server.js";
import { foreignOrigin, originSet } from "./mcp-http-origins.js";
import { createRunLimits } from "./mcp-run-limits.js";
import { createMcpHttpSessions, type McpHttpSession } from "./mcp-http-sessions.js";
import { createSessionEventStore } from "./session-event-store.js";
import {
  cancelOnAbort,
  isInitialize,
  jsonRpcError,
  readBody,
  requestIds,
  withSessionRevision,
} from "./mcp-http-messages.js";
import { integerOption } from "../shared/options/option-checks.js";
import { MCP_SERVER_OPTION_KEYS, type CodemodeMcpServerOptions } from "./mcp-server-options.js";

/** Largest request body read, in bytes (a program is at most 256 KiB by default). */
const DEFAULT_MCP_MAX_BODY_BYTES = 1024 * 1024;
/** Sessions kept open at most by one handler. */
const DEFAULT_MCP_MAX_SESSIONS = 1000;
/** A session without a request for this long is closed. */
const DEFAULT_MCP_SESSION_IDLE_MS = 30 * 60_000;
/** Sessions one owner (scope) keeps open at most. */
const DEFAULT_MAX_SESSIONS_PER_OWNER = 100;
/** Program runs one HTTP request (a JSON-RPC batch) may start. */
const RUNS_PER_REQUEST = 4;
/** Program runs of one owner in flight at a time, over all its sessions. */
const RUNS_PER_OWNER = 16;
/** How long a client whose session stream dropped waits before it reconnects (the SSE `retry` field), in ms. */
const SSE_RETRY_MS = 1000;

/**
 * What `authorize` grants: `{ scope }` runs and reads the executions of that owner (e.g. the
 * signed-in user's id); `{ unscoped: true }` sees every execution, and must be said explicitly.
 */
export type McpAuthorization = { scope: string } | { unscoped: true };

/** Options of {@link createCodemodeMcpHandler}: the server's, with `authorize` instead of `scope`. */
export interface CodemodeMcpHandlerOptions extends Omit<CodemodeMcpServerOptions, "scope"> {
  /**
   * Decides each request: an {@link McpAuthorization}, `false` (answered 401), or a `Response` sent as
   * the refusal. Check the session cookie or bearer token here.
   */
  authorize: (request: Request) => McpAuthorization | false | Response | Promise<McpAuthorization | false | Response>;
  /**
   * Keep MCP sessions in this process (needed for elicitation, which answers on the session). `false`:
   * every request stands alone (serverless hosts with many instances): a paused program waits, decided in the
   * inspector or by `approvalLinks`, as an MCP task any instance answers. `perOwner` bounds the sessions of one
   * scope: its own least recently used idle session makes room for its next. @default { max: 1000, perOwner: 100, idleMs: 1800000 }
   */
  sessions?: boolean | { max?: number; perOwner?: number; idleMs?: number };
  /** Largest request body, in bytes. @default 1048576 */
  maxBodyBytes?: number;
  /**
   * Origins (`https://app.example`) whose pages may call the handler besides its own: a request with
   * another `Origin` header is refused (403) before `authorize`. Requests without one (non-browser
   * clients) are not affected. @default []
   */
  allowedOrigins?: string[];
  /**
   * Test seams; not part of the published types.
   * @internal
   */
  _internal?: {
    /** The clock sessions expire by (ms). */
    now?: () => number;
    /** Program runs per HTTP request and per owner at a time. @default { perRequest: 4, perOwner: 16 } */
    runs?: { perRequest?: number; perOwner?: number };
  };
}

/** `sessions: { … }` of the handler. */
type SessionLimits = Exclude<CodemodeMcpHandlerOptions["sessions"], boolean | undefined>;

/** How each key of `sessions: { … }` is checked and defaulted. */
const SESSION_OPTIONS = declareOptions<SessionLimits>()({
  max: integerOption(DEFAULT_MCP_MAX_SESSIONS),
  perOwner: integerOption(DEFAULT_MAX_SESSIONS_PER_OWNER),
  idleMs: integerOption(DEFAULT_MCP_SESSION_IDLE_MS),
});

/** How each option the handler adds to the server's is checked and defaulted (the server checks its own). */
const HANDLER_OPTIONS = declareOptions<Omit<CodemodeMcpHandlerOptions, keyof CodemodeMcpServerOptions>>()({
  authorize: option((value, path) => {
    if (typeof value !== "function")
      throw new InvalidOptionError({
        path,
        message:
          "is required: a function (request) => { scope } | { unscoped: true } | false deciding who may run programs over HTTP",
      });
    return value as CodemodeMcpHandlerOptions["authorize"];
  }),
  /** `false`: stateless; else the session limits. */
  sessions: option((value, path) => {
    if (value === false) return false;
    if (value !== undefined && value !== true && !isRecord(value))
      throw new InvalidOptionError({ path, message: "must be true, false or { max, perOwner, idleMs }" });
    return SESSION_OPTIONS.resolve(isRecord(value) ? value : {}, path);
  }),
  maxBodyBytes: integerOption(DEFAULT_MCP_MAX_BODY_BYTES),
  allowedOrigins: option((value) => originSet(value as string[] | undefined)),
  _internal: option((value) => (isRecord(value) ? value : {}) as NonNullable<CodemodeMcpHandlerOptions["_internal"]>),
});

/** The server's options a handler passes on (`scope` comes from `authorize`). */
const SERVER_KEYS = MCP_SERVER_OPTION_KEYS.filter((key) => key !== "scope");

function resolveAuthorization(granted: unknown): { scope: string | undefined } | undefined {
  if (typeof granted !== "object" || granted === null) return undefined;
  const record = granted as Record<string, unknown>;
  const scope = record["scope"];
  // Both, or neither: a confused grant is a refusal.
  if (record["unscoped"] === true) return scope === undefined ? { scope: undefined } : undefined;
  if (typeof scope === "string" && scopeProblem(scope) === undefined) return { scope };
  return undefined;
}

/** The handler, and `close()` ending its open sessions (their in-flight calls are cancelled). */
export type CodemodeMcpHandler = ((request: Request) => Promise<Response>) & {
  /** Ends every open session. */
  close(): Promise<void>;
};

/**
 * Creates the Streamable HTTP handler. Mount it for GET, POST and DELETE.
 *
 * @example
 * // app/api/mcp/route.ts
 * import { createCodemodeMcpHandler } from "ai-codemode/mcp";
 * const handler = createCodemodeMcpHandler({
 *   runtime,
 *   sessions: false, // a serverless host answers from many instances
 *   authorize: async (request) => {
 *     const user = await userFromBearer(request.headers.get("authorization"));
 *     return user === undefined ? false : { scope: user.id };
 *   },
 * });
 * export { handler as GET, handler as POST, handler as DELETE };
 */
export function createCodemodeMcpHandler(options: CodemodeMcpHandlerOptions): CodemodeMcpHandler {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError({ path: "createCodemodeMcpHandler", message: "takes { runtime, authorize, … }" });
  const path = "createCodemodeMcpHandler";
  assertKnownKeys(options, [...SERVER_KEYS, ...HANDLER_OPTIONS.keys], path);
  // The handler's own options read here; the rest are the server's, checked by it.
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...options };
  for (const key of HANDLER_OPTIONS.keys) {
    own[key] = rest[key];
    delete rest[key];
  }
  const serverOptions = rest as unknown as CodemodeMcpServerOptions;
  const {
    authorize,
    sessions: sessionOption,
    maxBodyBytes: maxBody,
    allowedOrigins: origins,
    _internal,
  } = HANDLER_OPTIONS.resolve(own, path);
  const now = _internal.now ?? Date.now;
  const sessions = createMcpHttpSessions({
    ...(sessionOption === false ? SESSION_OPTIONS.resolve({}, path) : sessionOption),
    now,
  });
  // Validated once here (a bad server option throws now, not at the first request).
  createCodemodeMcpServer(serverOptions);
  const runs = createRunLimits({
    perRequest: _internal.runs?.perRequest ?? RUNS_PER_REQUEST,
    perOwner: _internal.runs?.perOwner ?? RUNS_PER_OWNER,
    now,
  });
  const serverFor = (scope: string | undefined, session?: McpHttpSession) =>
    buildCodemodeMcpServer(scope === undefined ? serverOptions : { ...serverOptions, scope }, {
      gate: runs.gate(scope, session),
      stateless: sessionOption === false,
    });

  // The scope `authorize` granted each request, read by the 2026-07-28 factory from the request's marker.
  const grants = new WeakMap<AuthInfo, { scope: string | undefined }>();
  const modern = createMcpHandler(
    ({ authInfo }) => {
      const grant = authInfo === undefined ? undefined : grants.get(authInfo);
      // Never reached without a grant (every request passes `authorize` first); refuse rather than run unscoped.
      if (grant === undefined) throw new Error("The request was not authorized.");
      return serverFor(grant.scope);
    },
    { legacy: "reject" },
  );

  const stateless = async (request: Request, body: unknown, scope: string | undefined): Promise<Response> => {
    // Without sessions no instance can hold a stream open for later messages, nor end a session: a 405
    // tells the client so once, where an event stream closed at once would have it reconnect again and again.
    if (request.method !== "POST")
      return jsonRpcError(
        405,
        -32000,
        "Method not allowed: this endpoint keeps no sessions (sessions: false); send requests with POST.",
        { allow: "POST" },
      );
    const server = serverFor(scope);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    cancelOnAbort(request, transport, requestIds(body));
    try {
      const authInfo = runs.request();
      return await transport.handleRequest(request, body === undefined ? { authInfo } : { parsedBody: body, authInfo });
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  };

  const stateful = async (request: Request, body: unknown, scope: string | undefined): Promise<Response> => {
    const sessionId = request.headers.get("mcp-session-id");
    let session: McpHttpSession | undefined;
    if (sessionId !== null) {
      session = sessions.get(sessionId, scope);
      if (session === undefined)
        return jsonRpcError(404, -32001, "Session not found (it ended or expired): initialize a new one.");
    } else if (request.method === "POST" && isInitialize(body)) {
      if (!(await sessions.admit(scope)))
        return jsonRpcError(
          429,
          -32000,
          "Too many MCP sessions are open for this user, each with a program running: end one (DELETE) or wait for a run to finish.",
        );
      const created = {
        transport: new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) => sessions.add(id, created),
          onsessionclosed: (id) => sessions.delete(id),
          // POST streams open with a priming event and the retry interval; a dropped one resumes by Last-Event-ID.
          eventStore: createSessionEventStore(),
          retryInterval: SSE_RETRY_MS,
        }),
        scope,
        lastSeenMs: now(),
        busy: 0,
      } as McpHttpSession;
      created.server = serverFor(scope, created);
      created.transport.onclose = () => {
        if (created.transport.sessionId !== undefined) sessions.delete(created.transport.sessionId);
      };
      await created.server.connect(created.transport);
      session = created;
    } else {
      return jsonRpcError(400, -32000, "Bad request: no mcp-session-id header; start with an initialize request.");
    }
    cancelOnAbort(request, session.transport, requestIds(body));
    const authInfo = runs.request();
    const revised = withSessionRevision(request, session.server.server.getNegotiatedProtocolVersion());
    return session.transport.handleRequest(revised, body === undefined ? { authInfo } : { parsedBody: body, authInfo });
  };

  const handle = async (request: Request): Promise<Response> => {
    // Before authorize: a page of another site must not reach it with the user's cookies.
    if (foreignOrigin(request, origins))
      return jsonRpcError(
        403,
        -32001,
        `Forbidden: requests from the origin ${JSON.stringify(request.headers.get("origin")?.slice(0, 200))} are not allowed.`,
      );
    const granted = await authorize(request);
    if (granted instanceof Response) return granted;
    const access = resolveAuthorization(granted);
    if (access === undefined) return jsonRpcError(401, -32001, "Not authorized.");
    let body: unknown;
    if (request.method === "POST") {
      const text = await readBody(request, maxBody);
      if (text === undefined)
        return jsonRpcError(
          413,
          -32600,
          `Request body too large: at most ${maxBody} bytes (a program is at most 256 KiB by default).`,
        );
      try {
        body = JSON.parse(text);
      } catch (error) {
        return jsonRpcError(400, -32700, `Parse error: the body is not JSON (${messageOf(error)}).`);
      }
    }
    if (!(await isLegacyRequest(request, body))) {
      const authInfo = runs.request();
      grants.set(authInfo, { scope: access.scope });
      return modern.fetch(request, body === undefined ? { authInfo } : { authInfo, parsedBody: body });
    }
    return sessionOption === false ? stateless(request, body, access.scope) : stateful(request, body, access.scope);
  };
  const close = async (): Promise<void> => {
    await Promise.all([sessions.closeAll(), modern.close()]);
  };
  return Object.assign(handle, { close });
}
