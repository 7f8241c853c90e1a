/**
 * `createCodemodeMcpServer({ runtime })`: an `McpServer` of the official MCP SDK exposing a
 * codemode runtime to any MCP host. Its tools are registered on the SDK's low-level server
 * with plain JSON Schemas (the package needs no schema library for them): `codemode`,
 * `codemode_search`, `codemode_describe` and the read-only `codemode_outcome`. A paused
 * program is put to the person through elicitation when the client declared it. A client may run
 * `codemode` as an MCP task instead: the task is the execution, answered from the journal.
 * Built on the MCP SDK v2: it answers clients of the 2026-07-28 revision (per-request envelope,
 * `server/discover`) and of the 2025-11-25 revision (`initialize`, elicitation, tasks).
 */
import { messageOf } from "../shared/message-of.js";
import {
  type AuthInfo,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import { type ApprovalLinks, DEFAULT_APPROVAL_LINK_TTL_MS } from "./approval-links.js";
import {
  APPROVAL_CARD_RESOURCE,
  APPROVAL_CARD_URI,
  clientShowsCards,
  declaredCapabilities,
  processCardSecret,
  readApprovalCard,
} from "./approval-card.js";
import { createJournalTaskStore } from "./journal-task-store.js";
import { registerTaskMethods } from "./mcp-task-methods.js";
import { createMcpToolCalls, type ToolCallContext } from "./mcp-tool-calls.js";
import type { ModernApprovalRequest } from "./modern-approvals.js";
import { resolveMcpServerOptions, type CodemodeMcpServerOptions } from "./mcp-server-options.js";
import { CODEMODE_TOOL } from "./mcp-tools.js";
import { errorResult } from "./tool-result.js";

/** The first protocol revision without sessions (its requests carry their version; no `initialize`). */
const MODERN_REVISION = "2026-07-28";

/** Whether a server instance negotiated `version` serves the 2026-07-28 revision or later (dates order as text). */
function servesModernEra(version: string | undefined): boolean {
  return version !== undefined && version >= MODERN_REVISION;
}

/**
 * Admits a `codemode` call (a program run) of the HTTP request `authInfo` came with: the text
 * refusing it (told to the model), or the function to call once the call ended.
 */
export type McpRunGate = (authInfo: AuthInfo | undefined) => string | (() => void);

const SERVER_INSTRUCTIONS =
  "Use the codemode tool: write one program that calls the namespaces' methods (search and describe them first). " +
  "A paused result waits for a person; never try to approve it yourself.";

/**
 * Creates an MCP server (`McpServer` of `@modelcontextprotocol/server`) for `runtime`. Serve it
 * from a factory with the SDK's `serveStdio` or `createMcpHandler` (each answers both protocol
 * revisions), or connect it to a transport; `createCodemodeMcpHandler` does all of that for a
 * Fetch-API route. The server's tools are its own: do not `registerTool` more on it.
 *
 * @example
 * import { serveStdio } from "@modelcontextprotocol/server/stdio";
 * import { createCodemodeMcpServer } from "ai-codemode/mcp";
 * const runtime = createCodemodeRuntime({ connectors });
 * serveStdio(() => createCodemodeMcpServer({ runtime }));
 */
export function createCodemodeMcpServer(options: CodemodeMcpServerOptions): McpServer {
  return buildCodemodeMcpServer(options);
}

/**
 * The server, with the run gate `createCodemodeMcpHandler` bounds program runs by; `stateless`: every request
 * stands alone (no session to elicit on), so approval links go out as `-32042` errors.
 */
export function buildCodemodeMcpServer(
  options: CodemodeMcpServerOptions,
  { gate, stateless = false }: { gate?: McpRunGate; stateless?: boolean } = {},
): McpServer {
  const resolved = resolveMcpServerOptions(options);
  // Built before the server (the SDK takes the task store at construction); it needs only the tools' outcome.
  let notifyListChanged = (): void => undefined;
  const calls = createMcpToolCalls(
    resolved,
    () => notifyListChanged(),
    stateless && resolved.approvalLinks !== undefined,
  );
  const tasks = createJournalTaskStore({
    runtime: resolved.runtime,
    scope: resolved.scope,
    outcome: calls.outcome,
    approvalHint: resolved.approvalHint,
  });
  const server = new McpServer(resolved.serverInfo, {
    capabilities: {
      tools: { listChanged: true },
      // A program's console lines, at or above the level the client asked for.
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      // The approval card (MCP Apps), listed to the clients that declare MCP Apps only.
      resources: {},
    },
    instructions: SERVER_INSTRUCTIONS,
  });
  const lowLevel = server.server;
  registerTaskMethods(lowLevel, tasks);
  notifyListChanged = () => {
    // A 2026-07-28 instance lives for one request and has no stream to tell it on.
    if (servesModernEra(lowLevel.getNegotiatedProtocolVersion())) return;
    void lowLevel.sendToolListChanged().catch(() => undefined);
  };
  // The card's tokens are approval links' (the inspector's link page opens them too), or signed with a secret of
  // this process when the server has no approval links: the card's decision comes back to this process (a
  // session's server, or a stdio process; a 2026-07-28 request's server lives for that request only). A stateless
  // server without approval links may be one of many instances that share no secret: no card.
  const cardLinks: ApprovalLinks | undefined =
    resolved.approvalLinks ??
    (stateless ? undefined : { url: "", secret: processCardSecret(), ttlMs: DEFAULT_APPROVAL_LINK_TTL_MS });
  /** The card's links when the client of request `params` declared MCP Apps (in the request, or at initialize). */
  const cardFor = (params: { _meta?: unknown } | undefined): ApprovalLinks | undefined =>
    cardLinks !== undefined && clientShowsCards(declaredCapabilities(params, lowLevel.getClientCapabilities()))
      ? cardLinks
      : undefined;
  lowLevel.setRequestHandler("resources/list", (request) => ({
    resources: cardFor(request.params) === undefined ? [] : [APPROVAL_CARD_RESOURCE],
  }));
  lowLevel.setRequestHandler("resources/read", (request) => {
    if (request.params.uri !== APPROVAL_CARD_URI || cardFor(request.params) === undefined)
      throw new ResourceNotFoundError(request.params.uri.slice(0, 200));
    return readApprovalCard();
  });
  lowLevel.setRequestHandler("tools/list", async (request) => {
    try {
      // Plain JSON Schemas, as the SDK sends them.
      return { tools: (await calls.list(cardFor(request.params) !== undefined)) as unknown as Tool[] };
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The codemode runtime could not start: ${messageOf(error)}`,
      );
    }
  });
  /** The approval side of a 2026-07-28 request: its answers and state, and what its client fulfils. */
  const modernInput = (ctx: ServerContext): ModernApprovalRequest => {
    // The request's own envelope says what its client fulfils (stdio serves many requests on one instance).
    const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
      | ClientCapabilities
      | undefined;
    const elicitation = (declared ?? lowLevel.getClientCapabilities())?.elicitation;
    return {
      inputResponses: ctx.mcpReq.inputResponses,
      requestState: ctx.mcpReq.requestState(),
      // An empty elicitation capability is form mode (the spec's reading for older clients).
      form: elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined),
      url: elicitation?.url !== undefined,
      sticky: !stateless,
    };
  };
  lowLevel.setRequestHandler("tools/call", async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const authInfo = ctx.http?.authInfo;
    const modern = servesModernEra(lowLevel.getNegotiatedProtocolVersion());
    if (!modern && request.params.task !== undefined) {
      if (name !== CODEMODE_TOOL)
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `Only ${CODEMODE_TOOL} runs as a task; call ${JSON.stringify(String(name).slice(0, 100))} without one.`,
        );
      // A task runs a program too: the same bounds per request and per owner as a plain call.
      const admitted = gate?.(authInfo);
      if (typeof admitted === "string") throw new ProtocolError(ProtocolErrorCode.InvalidRequest, admitted);
      try {
        // The SDK v2 checks a tool result for `content`; a 2025-11-25 client reads `task` (CreateTaskResult).
        return { task: await tasks.start(args ?? {}), content: [] };
      } finally {
        admitted?.();
      }
    }
    const timeout = resolved.elicitation;
    const signal = ctx.mcpReq.signal;
    // A 2026-07-28 request has no server-to-client request channel: no elicitation, no -32042.
    const canAsk =
      !modern && timeout !== undefined && lowLevel.getClientCapabilities()?.elicitation?.form !== undefined;
    const related = { relatedRequestId: ctx.mcpReq.id };
    // Links go by URL-mode elicitation on a session whose client declared it; without a session, as -32042.
    const linkRoute = (): ToolCallContext["links"] => {
      if (modern) return undefined;
      if (stateless) return { kind: "retry" };
      if (lowLevel.getClientCapabilities()?.elicitation?.url === undefined) return undefined;
      return {
        kind: "elicit",
        session: {
          elicit: (link) =>
            lowLevel.elicitInput(link, {
              ...related,
              signal,
              ...(timeout === undefined ? {} : { timeout }),
            }),
          complete: (elicitationId) => lowLevel.createElicitationCompletionNotifier(elicitationId, related)(),
        },
      };
    };
    // A client showing the approval card gets it for a paused call, in either revision, instead of asking.
    const card = cardFor(request.params);
    const context: ToolCallContext = {
      signal,
      era: modern ? "modern" : "legacy",
      log: ctx.mcpReq.log,
      ask: canAsk ? (form) => lowLevel.elicitInput(form, { ...related, signal, timeout }) : undefined,
      links: resolved.approvalLinks === undefined ? undefined : linkRoute(),
      card,
      // The card, when the client shows it, is how a 2026-07-28 client is asked too (not input_required).
      input: card === undefined && modern && name === CODEMODE_TOOL ? modernInput(ctx) : undefined,
    };
    const entered = gate !== undefined && name === CODEMODE_TOOL ? gate(authInfo) : undefined;
    if (typeof entered === "string") return errorResult(entered);
    try {
      const result = calls.call(name, args ?? {}, context);
      if (result === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(String(name).slice(0, 100))}. This server's tools: ${calls.names().join(", ")}.`,
        );
      }
      return await result;
    } finally {
      entered?.();
    }
  });
  return server;
}
