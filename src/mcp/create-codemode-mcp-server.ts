/**
 * `createCodemodeMcpServer({ runtime })`: an `McpServer` of the official MCP SDK exposing a
 * codemode runtime to any MCP host. Its tools are registered on the SDK's low-level server
 * with plain JSON Schemas (the package needs no schema library for them): `codemode`,
 * `codemode_search`, `codemode_describe` and the read-only `codemode_outcome`. A paused
 * program is put to the person through elicitation when the client declared it. A client may run
 * `codemode` as an MCP task instead: the task is the execution, answered from the journal.
 */
import { messageOf } from "../shared/message-of.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { type ApprovalLinks, DEFAULT_APPROVAL_LINK_TTL_MS } from "./approval-links.js";
import {
  APPROVAL_CARD_RESOURCE,
  APPROVAL_CARD_URI,
  clientShowsCards,
  declaredCapabilities,
  readApprovalCard,
} from "./approval-card.js";
import { createJournalTaskStore } from "./journal-task-store.js";
import { createMcpToolCalls, type ToolCallContext } from "./mcp-tool-calls.js";
import { resolveMcpServerOptions, type CodemodeMcpServerOptions } from "./mcp-server-options.js";
import { CODEMODE_TOOL } from "./mcp-tools.js";
import { errorResult } from "./tool-result.js";

/**
 * Admits a `codemode` call (a program run) of the HTTP request `authInfo` came with: the text
 * refusing it (told to the model), or the function to call once the call ended.
 */
export type McpRunGate = (authInfo: AuthInfo | undefined) => string | (() => void);

const SERVER_INSTRUCTIONS =
  "Use the codemode tool: write one program that calls the namespaces' methods (search and describe them first). " +
  "A paused result waits for a person; never try to approve it yourself.";

/**
 * Creates an MCP server for `runtime`. Connect it to any transport (`StdioServerTransport`,
 * Streamable HTTP); `createCodemodeMcpHandler` does that for a Fetch-API route. The server's
 * tools are its own: do not `registerTool` more on it.
 *
 * @example
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * import { createCodemodeMcpServer } from "ai-codemode/mcp";
 * const server = createCodemodeMcpServer({ runtime: createCodemodeRuntime({ connectors }) });
 * await server.connect(new StdioServerTransport());
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
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      // The approval card (MCP Apps), listed to the clients that declare MCP Apps only.
      resources: {},
    },
    instructions: SERVER_INSTRUCTIONS,
    taskStore: tasks,
  });
  const lowLevel = server.server;
  notifyListChanged = () => {
    void lowLevel.sendToolListChanged().catch(() => undefined);
  };
  // The card's tokens are approval links' (the inspector's link page opens them too), or signed with a secret of
  // this server's own when it has no approval links: the card's decision comes back on this server's connection.
  // A stateless server without approval links has no secret the next request's server shares: no card.
  const cardLinks: ApprovalLinks | undefined =
    resolved.approvalLinks ??
    (stateless ? undefined : { url: "", secret: randomBytes(32), ttlMs: DEFAULT_APPROVAL_LINK_TTL_MS });
  /** The card's links when the client of request `params` declared MCP Apps (in the request, or at initialize). */
  const cardFor = (params: { _meta?: unknown } | undefined): ApprovalLinks | undefined =>
    cardLinks !== undefined && clientShowsCards(declaredCapabilities(params, lowLevel.getClientCapabilities()))
      ? cardLinks
      : undefined;
  lowLevel.setRequestHandler(ListResourcesRequestSchema, (request) => ({
    resources: cardFor(request.params) === undefined ? [] : [APPROVAL_CARD_RESOURCE],
  }));
  lowLevel.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== APPROVAL_CARD_URI || cardFor(request.params) === undefined)
      throw new McpError(ErrorCode.InvalidParams, `No resource ${JSON.stringify(request.params.uri.slice(0, 200))}.`);
    return readApprovalCard();
  });
  lowLevel.setRequestHandler(ListToolsRequestSchema, async (request) => {
    try {
      return { tools: await calls.list(cardFor(request.params) !== undefined) };
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `The codemode runtime could not start: ${messageOf(error)}`);
    }
  });
  lowLevel.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    if (request.params.task !== undefined) {
      if (name !== CODEMODE_TOOL)
        throw new McpError(
          ErrorCode.MethodNotFound,
          `Only ${CODEMODE_TOOL} runs as a task; call ${JSON.stringify(String(name).slice(0, 100))} without one.`,
        );
      // A task runs a program too: the same bounds per request and per owner as a plain call.
      const admitted = gate?.(extra.authInfo);
      if (typeof admitted === "string") throw new McpError(ErrorCode.InvalidRequest, admitted);
      try {
        return { task: await tasks.start(args ?? {}) };
      } finally {
        admitted?.();
      }
    }
    const timeout = resolved.elicitation;
    const canAsk = timeout !== undefined && lowLevel.getClientCapabilities()?.elicitation?.form !== undefined;
    const related = { relatedRequestId: extra.requestId };
    // Links go by URL-mode elicitation on a session whose client declared it; without a session, as -32042.
    const linkRoute = (): ToolCallContext["links"] => {
      if (stateless) return { kind: "retry" };
      if (lowLevel.getClientCapabilities()?.elicitation?.url === undefined) return undefined;
      return {
        kind: "elicit",
        session: {
          elicit: (link) =>
            lowLevel.elicitInput(link, {
              ...related,
              signal: extra.signal,
              ...(timeout === undefined ? {} : { timeout }),
            }),
          complete: (elicitationId) => lowLevel.createElicitationCompletionNotifier(elicitationId, related)(),
        },
      };
    };
    const context: ToolCallContext = {
      signal: extra.signal,
      ask: canAsk ? (form) => lowLevel.elicitInput(form, { ...related, signal: extra.signal, timeout }) : undefined,
      links: resolved.approvalLinks === undefined ? undefined : linkRoute(),
      card: cardFor(request.params),
    };
    const entered = gate !== undefined && name === CODEMODE_TOOL ? gate(extra.authInfo) : undefined;
    if (typeof entered === "string") return errorResult(entered);
    try {
      const result = calls.call(name, args ?? {}, context);
      if (result === undefined) {
        throw new McpError(
          ErrorCode.InvalidParams,
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
